import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { LanguageSwitch } from '../ui/LanguageSwitch.js';
import { ErrorState } from '../ui/states.js';

/** Why the eID callback sent the visitor back (`/login?error=<code>`, R3), in words. */
const FAILURES: Record<string, MessageKey> = {
  age_restricted: 'signIn.fail.age',
  invalid_national_id: 'signIn.fail.nationalId',
  access_denied: 'signIn.fail.cancelled',
  state_mismatch: 'signIn.fail.expired',
  eid_provider_error: 'signIn.fail.provider',
};

/** Test persons of the mock provider (R3): a synthetic adult and a synthetic 11-year-old. */
const TEST_UNDER_18 = { pid: '15851551236', given_name: 'Ola', family_name: 'Ung' };

/**
 * Sign in with eID. The service says where its provider is (`GET /api/auth/eid`); the mock provider
 * (development) gets a choice of test person first, a real provider is opened at once. Plain
 * state and no form library: this is the page most people load cold (budget: 120 KB of JavaScript).
 */
export default function SignIn() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const failure = params.get('error');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [mockUrl, setMockUrl] = useState<URL | null>(null);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { redirectUrl } = unwrap(await api.GET('/api/auth/eid'));
      const url = new URL(redirectUrl, location.origin);
      if (url.pathname.endsWith('/mock/authorize')) setMockUrl(url);
      else location.assign(url.toString());
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const asTestPerson = (extra: Record<string, string>) => {
    if (!mockUrl) return;
    const url = new URL(mockUrl);
    for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
    location.assign(url.toString());
  };

  return (
    <main style={{ maxWidth: 460, margin: '0 auto', padding: '32px 16px' }}>
      <Group justify="space-between" mb="lg">
        <Text fw={700} size="lg">
          {t('app.name')}
        </Text>
        <LanguageSwitch />
      </Group>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('signIn.title')}
        </Title>
        <Text>{t('signIn.lead')}</Text>
        {failure ? (
          <Alert color="red" title={t('signIn.failed')} role="alert">
            {t(FAILURES[failure] ?? 'signIn.fail.provider')}
          </Alert>
        ) : null}
        {params.get('erased') ? (
          <Alert color="teal" role="status">
            {t('signIn.erased')}
          </Alert>
        ) : null}
        {error ? <ErrorState error={error} /> : null}
        {mockUrl ? (
          <Paper withBorder p="md">
            <Stack gap="sm">
              <Text fw={600}>{t('signIn.mockTitle')}</Text>
              <Text size="sm">{t('signIn.mockLead')}</Text>
              <Button onClick={() => asTestPerson({})}>{t('signIn.mockAdult')}</Button>
              <Button variant="default" onClick={() => asTestPerson(TEST_UNDER_18)}>
                {t('signIn.mockMinor')}
              </Button>
            </Stack>
          </Paper>
        ) : (
          <Button size="lg" onClick={start} loading={busy}>
            {t('signIn.button')}
          </Button>
        )}
        <Paper withBorder p="md" component="section" aria-labelledby="why-eid">
          <Title order={2} size="h5" id="why-eid">
            {t('signIn.whyTitle')}
          </Title>
          <Text size="sm" mt="xs">
            {t('signIn.why')}
          </Text>
          <Text size="sm" mt="xs">
            {t('signIn.age')}
          </Text>
        </Paper>
      </Stack>
    </main>
  );
}
