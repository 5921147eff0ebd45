import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { Centered } from '../ui/Centered.js';
import { ErrorState, useFieldErrors } from '../ui/states.js';

/** The invitation link's target (W1): `/accept-invite?token=...` sets the password and signs in. */
export default function AcceptInvite() {
  const { t } = useI18n();
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token');
  const [error, setError] = useState<unknown>(null);
  const form = useForm<{ password: string }>({ defaultValues: { password: '' } });
  const errors = useFieldErrors(error);
  const onSubmit = form.handleSubmit(async ({ password }) => {
    if (!token) return;
    setError(null);
    try {
      const result = unwrap(await api.POST('/api/v1/auth/accept-invite', { body: { token, password } }));
      signedIn(result.tokens.accessToken);
      navigate('/', { replace: true });
    } catch (err) {
      setError(err);
    }
  });
  return (
    <Centered>
      <Title order={1} size="h2" mb="md">
        {t('auth.acceptTitle')}
      </Title>
      <Paper withBorder p="lg">
        {token ? (
          <form onSubmit={onSubmit} noValidate>
            <Stack>
              <Text size="sm">{t('auth.acceptHelp')}</Text>
              <PasswordInput
                label={t('auth.password')}
                description={t('auth.passwordHelp')}
                autoComplete="new-password"
                required
                error={errors.password}
                {...form.register('password', { required: true })}
              />
              {error ? <ErrorState error={error} /> : null}
              <Button type="submit" loading={form.formState.isSubmitting}>
                {t('auth.accept')}
              </Button>
            </Stack>
          </form>
        ) : (
          <Text c="red.9" role="alert">
            {t('auth.missingToken')}
          </Text>
        )}
      </Paper>
    </Centered>
  );
}
