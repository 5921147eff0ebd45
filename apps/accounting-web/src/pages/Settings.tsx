import { Alert, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
  return (
    <Stack>
      <OrganizationForm organization={query.data} />
      <OperatorForm />
    </Stack>
  );
}

/** The signed-in user's own issuer data: the operator OIB Croatian e-invoices carry (CIUS-HR HR-BT-5). */
function OperatorForm() {
  const { t } = useI18n();
  const { me, canWrite } = useAuth();
  const queryClient = useQueryClient();
  const form = useForm<{ fullName: string; operatorOib: string }>({
    defaultValues: { fullName: me?.fullName ?? '', operatorOib: me?.operatorOib ?? '' },
  });
  const save = useMutation({
    mutationFn: async (v: { fullName: string; operatorOib: string }) =>
      unwrap(
        await api.PUT('/api/v1/auth/me', { body: { fullName: v.fullName, operatorOib: v.operatorOib.trim() || null } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['me'] }),
  });
  const errors = useFieldErrors(save.error);
  if (!canWrite) return null;
  return (
    <form onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            {t('books.org.operator')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('auth.fullName')} error={errors.fullName} {...form.register('fullName')} />
            <TextInput
              label={t('books.org.operatorOib')}
              description={t('books.org.operatorHelp')}
              inputMode="numeric"
              maxLength={11}
              error={errors.operatorOib}
              {...form.register('operatorOib')}
            />
          </SimpleGrid>
          {save.isSuccess ? (
            <Alert color="teal" role="status">
              {t('books.saved')}
            </Alert>
          ) : null}
          {save.error ? <ErrorState error={save.error} /> : null}
          <Group justify="flex-end">
            <Button type="submit" variant="default" loading={save.isPending}>
              {t('books.org.saveOperator')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
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
        <Paper withBorder p="md">
          <Title order={2} size="h4">
            {t('books.org.einvoice')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('books.org.einvoiceHelp')}
          </Text>
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
