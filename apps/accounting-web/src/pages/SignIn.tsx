import { Anchor, Button, Checkbox, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError, api, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { Centered } from '../ui/Centered.js';
import { ErrorState } from '../ui/states.js';

interface Credentials {
  email: string;
  password: string;
  rememberMe: boolean;
}

/**
 * Sign in; when the account has 2FA the API answers SVC-1010 and the code step follows.
 * Two plain controlled fields rather than react-hook-form: the sign-in page is the one most people
 * load cold, and its JavaScript budget (150 KB gzipped, bench/web-bundle.ts) has no room for it.
 */
export default function SignIn() {
  const { t } = useI18n();
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  const [error, setError] = useState<unknown>(null);
  const [twoFactor, setTwoFactor] = useState<Credentials | null>(null);
  const [values, setValues] = useState<Credentials>({ email: '', password: '', rememberMe: false });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Credentials>) => setValues((v) => ({ ...v, ...patch }));

  const done = (token: string) => {
    signedIn(token);
    if (from && from !== '/') navigate(from, { replace: true });
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const result = unwrap(await api.POST('/api/v1/auth/login', { body: values }));
      done(result.tokens.accessToken);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'SVC-1010') setTwoFactor(values);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const onVerify = async (e: FormEvent) => {
    e.preventDefault();
    if (!twoFactor) return;
    setError(null);
    setBusy(true);
    try {
      const result = unwrap(await api.POST('/api/v1/auth/verify-2fa', { body: { ...twoFactor, code } }));
      done(result.tokens.accessToken);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Centered>
      <Title order={1} size="h2" mb="md">
        {t('auth.signInTitle')}
      </Title>
      <Paper withBorder p="lg">
        {twoFactor ? (
          <form onSubmit={onVerify} noValidate>
            <Stack>
              <Text size="sm">{t('auth.codeHelp')}</Text>
              <TextInput
                label={t('auth.code')}
                autoComplete="one-time-code"
                inputMode="numeric"
                autoFocus
                required
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value.trim())}
              />
              {error ? <ErrorState error={error} /> : null}
              <Button type="submit" loading={busy}>
                {t('auth.verify')}
              </Button>
            </Stack>
          </form>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <Stack>
              <TextInput
                label={t('auth.email')}
                type="email"
                autoComplete="username"
                required
                value={values.email}
                onChange={(e) => set({ email: e.currentTarget.value })}
              />
              <PasswordInput
                label={t('auth.password')}
                autoComplete="current-password"
                required
                value={values.password}
                onChange={(e) => set({ password: e.currentTarget.value })}
              />
              <Checkbox
                label={t('auth.remember')}
                checked={values.rememberMe}
                onChange={(e) => set({ rememberMe: e.currentTarget.checked })}
              />
              {error ? <ErrorState error={error} /> : null}
              <Button type="submit" loading={busy}>
                {t('auth.signIn')}
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
      <Text mt="md" size="sm">
        {t('auth.noAccount')}{' '}
        <Anchor component={Link} to="/register">
          {t('auth.registerLink')}
        </Anchor>
      </Text>
    </Centered>
  );
}
