import { Alert, Anchor, Button, Card, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, fetchBlob, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { dateTime } from '../ui/format.js';
import { Pager } from '../ui/Pager.js';
import { Empty, ErrorState, QueryView } from '../ui/states.js';

const CONSENTS = ['terms', 'privacy', 'marketing', 'cookies_analytics', 'cookies_marketing'] as const;

/** GDPR: consents with their history, the data export, and erasing the account. */
export default function Privacy() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const consents = useQuery({
    queryKey: ['gdpr-consents'],
    queryFn: async () => unwrap(await api.GET('/api/consents')).data,
  });
  // A box shows its new state from the click on (set in the click's own render, not when the
  // mutation's pending state arrives a tick later), until the list is read again; an error puts
  // it back as the server has it.
  const [shown, setShown] = useState<Partial<Record<(typeof CONSENTS)[number], boolean>>>({});
  const setConsent = useMutation({
    mutationFn: async (v: { consentType: (typeof CONSENTS)[number]; granted: boolean }) =>
      unwrap(await api.POST('/api/consents', { body: v })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['gdpr-consents'] }),
        queryClient.invalidateQueries({ queryKey: ['gdpr-consent-history'] }),
      ]),
    onSettled: (_data, _error, v) =>
      setShown((s) => {
        if (s[v.consentType] !== v.granted) return s;
        const { [v.consentType]: _settled, ...rest } = s;
        return rest;
      }),
  });
  const exportData = useMutation({
    mutationFn: () => fetchBlob('/api/user/data-export/download'),
    onSuccess: ({ url, filename }) => {
      const a = document.createElement('a');
      a.href = url;
      a.download = filename ?? 'my-data.json';
      a.click();
    },
  });

  return (
    <Stack gap="lg" maw={640}>
      <Title order={1} size="h2">
        {t('nav.privacy')}
      </Title>
      <section aria-labelledby="consents-h">
        <Title order={2} size="h4" id="consents-h" mb="xs">
          {t('privacy.consents')}
        </Title>
        {setConsent.error ? <ErrorState error={setConsent.error} /> : null}
        <QueryView query={consents}>
          {(list) => {
            const latest = (type: string) =>
              list
                .filter((c) => c.consent_type === type)
                .sort((a, b) =>
                  String(b.granted_at ?? b.withdrawn_at).localeCompare(String(a.granted_at ?? a.withdrawn_at)),
                )[0];
            return (
              <Stack gap="xs">
                {CONSENTS.map((type) => {
                  const c = latest(type);
                  return (
                    <div key={type}>
                      <Checkbox
                        label={t(`consentType.${type}` as MessageKey)}
                        checked={shown[type] ?? c?.granted ?? false}
                        onChange={(e) => {
                          const granted = e.currentTarget.checked;
                          setShown((s) => ({ ...s, [type]: granted }));
                          setConsent.mutate({ consentType: type, granted });
                        }}
                      />
                      <Text size="xs" c="dimmed" ms={32}>
                        {c
                          ? c.granted
                            ? t('privacy.grantedAt', { when: dateTime(c.granted_at, locale) })
                            : t('privacy.withdrawnAt', { when: dateTime(c.withdrawn_at, locale) })
                          : t('privacy.never')}
                      </Text>
                    </div>
                  );
                })}
              </Stack>
            );
          }}
        </QueryView>
      </section>

      <ConsentHistory />

      <section aria-labelledby="export-h">
        <Title order={2} size="h4" id="export-h" mb="xs">
          {t('privacy.export')}
        </Title>
        <Text size="sm" mb="xs">
          {t('privacy.exportLead')}
        </Text>
        {exportData.error ? <ErrorState error={exportData.error} /> : null}
        <Group>
          <Button variant="default" onClick={() => exportData.mutate()} loading={exportData.isPending}>
            {t('privacy.download')}
          </Button>
          {exportData.data ? (
            <Anchor
              href={exportData.data.url}
              download={exportData.data.filename ?? 'my-data.json'}
              size="sm"
              role="status"
            >
              {t('privacy.downloaded')}
            </Anchor>
          ) : null}
        </Group>
      </section>

      <Erase />
    </Stack>
  );
}

const HISTORY_PAGE = 10;

/** Every grant and withdrawal, newest first, ten a page (GET /consents/history). */
function ConsentHistory() {
  const { t, locale } = useI18n();
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: ['gdpr-consent-history', page],
    queryFn: async () =>
      unwrap(
        await api.GET('/api/consents/history', {
          params: { query: { page: String(page), limit: String(HISTORY_PAGE) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="consent-history-h">
      <Title order={2} size="h4" id="consent-history-h" mb={4}>
        {t('privacy.history')}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('privacy.historyLead')}
      </Text>
      <QueryView query={history}>
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Empty>{t('privacy.noHistory')}</Empty>
          ) : (
            <Stack gap="xs">
              <Stack component="ol" gap={6} m={0} p={0} style={{ listStyle: 'none' }} data-testid="consent-history">
                {data.map((e) => (
                  <li key={e.id}>
                    <Text size="sm">
                      <Text span fw={600}>
                        {t(`consentType.${e.consent_type}` as MessageKey)}
                      </Text>
                      {': '}
                      <Text span c={e.granted ? 'teal.9' : 'red.9'}>
                        {e.granted ? t('privacy.historyGranted') : t('privacy.historyWithdrawn')}
                      </Text>
                    </Text>
                    <Text size="xs" c="dimmed">
                      <time dateTime={e.created_at}>{dateTime(e.created_at, locale)}</time>
                    </Text>
                  </li>
                ))}
              </Stack>
              <Pager page={pagination.page} pages={pagination.totalPages} onChange={setPage} />
            </Stack>
          )
        }
      </QueryView>
    </section>
  );
}

/** Erasure: a clear warning, the word typed to confirm, and a fresh eID sign-in when the last is old. */
function Erase() {
  const { t } = useI18n();
  const { signIn } = useAuth();
  const [word, setWord] = useState('');
  const erase = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/user/account')),
    // The service has cleared the cookie: a fresh page load shows the sign-in page with the news.
    onSuccess: () => location.assign('/?erased=1'),
  });
  const needsReauth = erase.error instanceof ApiError && erase.error.code === 'reauthentication_required';
  const confirmWord = t('privacy.eraseWord');
  return (
    <Card
      withBorder
      component="section"
      aria-labelledby="erase-h"
      style={{ borderColor: 'var(--mantine-color-red-9)' }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="erase-h" c="red.9">
          {t('privacy.erase')}
        </Title>
        <Alert color="red" variant="light">
          {t('privacy.eraseWarning')}
        </Alert>
        <TextInput
          label={t('privacy.eraseType', { word: confirmWord })}
          value={word}
          onChange={(e) => setWord(e.currentTarget.value)}
          autoComplete="off"
        />
        {needsReauth ? (
          <Alert color="yellow" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('error.reauth')}</Text>
              <Button size="xs" onClick={() => signIn()}>
                {t('signIn.button')}
              </Button>
            </Stack>
          </Alert>
        ) : erase.error ? (
          <ErrorState error={erase.error} />
        ) : null}
        <Button
          color="red.9"
          disabled={word.trim().toLowerCase() !== confirmWord.toLowerCase()}
          loading={erase.isPending}
          onClick={() => erase.mutate()}
        >
          {t('privacy.eraseButton')}
        </Button>
      </Stack>
    </Card>
  );
}
