import { Anchor, Button, Paper, PasswordInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { Centered } from '../ui/Centered.js';
import { ErrorState, useFieldErrors } from '../ui/states.js';

type Body = paths['/api/v1/auth/register']['post']['requestBody']['content']['application/json'];

/** Each country's currency and language, proposed when the country is picked. */
const COUNTRY_DEFAULTS = {
  RS: { baseCurrency: 'RSD', language: 'sr' },
  BA: { baseCurrency: 'BAM', language: 'bs' },
  HR: { baseCurrency: 'EUR', language: 'hr' },
} as const;

export default function Register() {
  const { t, locale } = useI18n();
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const initialCountry = locale === 'hr' ? 'HR' : locale === 'bs' ? 'BA' : 'RS';
  const form = useForm<Body>({
    defaultValues: {
      organizationName: '',
      country: initialCountry,
      ...COUNTRY_DEFAULTS[initialCountry],
      email: '',
      password: '',
      fullName: '',
    },
  });
  const errors = { ...useFieldErrors(error) };

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const result = unwrap(await api.POST('/api/v1/auth/register', { body: values }));
      signedIn(result.tokens.accessToken);
      navigate('/', { replace: true });
    } catch (err) {
      setError(err);
    }
  });

  return (
    <Centered>
      <Title order={1} size="h2" mb="md">
        {t('auth.registerTitle')}
      </Title>
      <Paper withBorder p="lg">
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <TextInput
              label={t('auth.organizationName')}
              required
              error={errors.organizationName}
              {...form.register('organizationName', { required: true })}
            />
            <Controller
              control={form.control}
              name="country"
              render={({ field }) => (
                <Select
                  label={t('auth.country')}
                  allowDeselect={false}
                  data={(['RS', 'BA', 'HR'] as const).map((c) => ({ value: c, label: t(`country.${c}`) }))}
                  value={field.value}
                  onChange={(v) => {
                    const c = (v ?? 'RS') as keyof typeof COUNTRY_DEFAULTS;
                    field.onChange(c);
                    form.setValue('baseCurrency', COUNTRY_DEFAULTS[c].baseCurrency);
                    form.setValue('language', COUNTRY_DEFAULTS[c].language);
                  }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="baseCurrency"
              render={({ field }) => (
                <Select
                  label={t('auth.baseCurrency')}
                  allowDeselect={false}
                  data={['RSD', 'BAM', 'EUR']}
                  value={field.value}
                  onChange={(v) => field.onChange(v ?? 'EUR')}
                />
              )}
            />
            <TextInput label={t('auth.fullName')} required error={errors.fullName} {...form.register('fullName')} />
            <TextInput
              label={t('auth.email')}
              type="email"
              autoComplete="username"
              required
              error={errors.email}
              {...form.register('email')}
            />
            <PasswordInput
              label={t('auth.password')}
              description={t('auth.passwordHelp')}
              autoComplete="new-password"
              required
              error={errors.password}
              {...form.register('password')}
            />
            {error ? <ErrorState error={error} /> : null}
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('auth.register')}
            </Button>
          </Stack>
        </form>
      </Paper>
      <Text mt="md" size="sm">
        {t('auth.haveAccount')}{' '}
        <Anchor component={Link} to="/">
          {t('auth.signIn')}
        </Anchor>
      </Text>
    </Centered>
  );
}
