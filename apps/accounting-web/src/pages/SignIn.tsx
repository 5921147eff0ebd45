import { Anchor, Button, Checkbox, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError, api, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { Centered } from '../ui/Layout.js';
import { ErrorState } from '../ui/states.js';

interface Credentials {
  email: string;
  password: string;
  rememberMe: boolean;
}

/** Sign in; when the account has 2FA the API answers SVC-1010 and the code step follows. */
export default function SignIn() {
  const { t } = useI18n();
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  const [error, setError] = useState<unknown>(null);
  const [twoFactor, setTwoFactor] = useState<Credentials | null>(null);
  const form = useForm<Credentials>({ defaultValues: { email: '', password: '', rememberMe: false } });
  const codeForm = useForm<{ code: string }>({ defaultValues: { code: '' } });

  const done = (token: string) => {
    signedIn(token);
    if (from && from !== '/') navigate(from, { replace: true });
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const result = unwrap(await api.POST('/api/v1/auth/login', { body: values }));
      done(result.tokens.accessToken);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'SVC-1010') setTwoFactor(values);
      else setError(err);
    }
  });

  const onVerify = codeForm.handleSubmit(async ({ code }) => {
    if (!twoFactor) return;
    setError(null);
    try {
      const result = unwrap(await api.POST('/api/v1/auth/verify-2fa', { body: { ...twoFactor, code } }));
      done(result.tokens.accessToken);
    } catch (err) {
      setError(err);
    }
  });

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
                {...codeForm.register('code', { required: true, pattern: /^\d{6}$/ })}
              />
              {error ? <ErrorState error={error} /> : null}
              <Button type="submit" loading={codeForm.formState.isSubmitting}>
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
                error={form.formState.errors.email ? t('auth.email') : undefined}
                {...form.register('email', { required: true })}
              />
              <PasswordInput
                label={t('auth.password')}
                autoComplete="current-password"
                required
                {...form.register('password', { required: true })}
              />
              <Checkbox label={t('auth.remember')} {...form.register('rememberMe')} />
              {error ? <ErrorState error={error} /> : null}
              <Button type="submit" loading={form.formState.isSubmitting}>
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
