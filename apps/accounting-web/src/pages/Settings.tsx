import { Alert, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { ErrorState, Loading, useFieldErrors } from '../ui/states.js';

type Organization = paths['/api/v1/organization']['get']['responses'][200]['content']['application/json'];
type Body = paths['/api/v1/organization']['put']['requestBody']['content']['application/json'];

/** The organization, with the data its e-invoices and payment codes carry (address, IBAN). Owners and admins edit. */
export default function Settings() {
  const query = useQuery({
    queryKey: ['organization'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization')),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  return <OrganizationForm organization={query.data} />;
}

function OrganizationForm({ organization }: { organization: Organization }) {
  const { t } = useI18n();
  const { isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<Body>({
    defaultValues: {
      name: organization.name,
      registrationNumber: organization.registrationNumber ?? '',
      vatNumber: organization.vatNumber ?? '',
      addressLine1: organization.addressLine1 ?? '',
      city: organization.city ?? '',
      postalCode: organization.postalCode ?? '',
      iban: organization.iban ?? '',
      language: organization.language as Body['language'],
    },
  });
  const errors = useFieldErrors(error);
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    setSaved(false);
    const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' ? null : v])) as Body;
    try {
      const result = unwrap(await api.PUT('/api/v1/organization', { body }));
      queryClient.setQueryData(['organization'], result);
      queryClient.invalidateQueries({ queryKey: ['me'] });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  });
  const field = (name: keyof Body, label: string) => (
    <TextInput label={label} readOnly={!isAdmin} error={errors[name]} {...form.register(name)} />
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Title order={1} size="h2">
          {t('settings.title')}
        </Title>
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {field('name', t('auth.organizationName'))}
            {field('vatNumber', t('contacts.vatNumber'))}
            {field('registrationNumber', t('contacts.registrationNumber'))}
            {field('iban', t('settings.iban'))}
            {field('addressLine1', t('contacts.address'))}
            {field('city', t('contacts.city'))}
            {field('postalCode', t('contacts.postalCode'))}
            <Controller
              control={form.control}
              name="language"
              render={({ field: f }) => (
                <NativeSelect
                  label={t('settings.language')}
                  disabled={!isAdmin}
                  data={[
                    { value: 'sr', label: 'Srpski' },
                    { value: 'bs', label: 'Bosanski' },
                    { value: 'hr', label: 'Hrvatski' },
                  ]}
                  value={f.value ?? 'sr'}
                  onChange={(e) => f.onChange(e.currentTarget.value)}
                />
              )}
            />
          </SimpleGrid>
        </Paper>
        {saved ? (
          <Alert color="teal" role="status">
            {t('settings.saved')}
          </Alert>
        ) : null}
        {error ? <ErrorState error={error} /> : null}
        {isAdmin ? (
          <Group justify="flex-end">
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('app.save')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
