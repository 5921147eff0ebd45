import { Button, Card, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, api, unwrap } from '../api/client.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { CORRIDORS, COUNTRIES, type Country, isValidIban, normalizeIban } from '../lib/iban.js';
import { useRecipients } from '../ui/queries.js';
import { Empty, ErrorState, QueryView } from '../ui/states.js';

interface RecipientForm {
  name: string;
  country: Country;
  currency: string;
  bankAccount: string;
  bankName: string;
}

const EMPTY: RecipientForm = { name: '', country: 'RS', currency: 'RSD', bankAccount: '', bankName: '' };

/** The form for a new recipient, or for replacing one (the API keeps recipients immutable: edit = new + remove). */
function RecipientEditor({ initial, onDone }: { initial: RecipientForm; onDone: (id: string) => void }) {
  const { t } = useI18n();
  const form = useForm<RecipientForm>({ defaultValues: initial });
  const country = form.watch('country');
  const save = useMutation({
    mutationFn: async (v: RecipientForm) =>
      unwrap(
        await api.POST('/api/recipients', {
          body: {
            name: v.name.trim(),
            country: v.country,
            currency: v.currency as 'EUR',
            bankAccount: normalizeIban(v.bankAccount),
            ...(v.bankName.trim() ? { bankName: v.bankName.trim() } : {}),
          },
        }),
      ).data,
    onSuccess: (r) => onDone(r.id),
    onError: (e) => {
      if (e instanceof ApiError)
        for (const d of e.details)
          if (d.field === 'bankAccount' || d.field === 'name')
            form.setError(d.field, {
              message: d.field === 'bankAccount' ? t('recipients.badIban') : t('recipients.badName'),
            });
    },
  });
  const { errors } = form.formState;
  return (
    <form onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('recipients.name')}
          autoComplete="off"
          required
          error={errors.name?.message}
          {...form.register('name', { required: t('recipients.required'), maxLength: 100 })}
        />
        <Group grow>
          <NativeSelect
            label={t('recipients.country')}
            data={COUNTRIES.map((c) => ({ value: c, label: t(`country.${c}` as MessageKey) }))}
            {...form.register('country', {
              onChange: (e) => form.setValue('currency', CORRIDORS[e.target.value as Country][0]),
            })}
          />
          <NativeSelect
            label={t('recipients.currency')}
            data={[...CORRIDORS[country]]}
            {...form.register('currency')}
          />
        </Group>
        <TextInput
          label={t('recipients.iban')}
          description={t('recipients.ibanHint', { country })}
          required
          autoComplete="off"
          error={errors.bankAccount?.message}
          {...form.register('bankAccount', {
            validate: (v) => isValidIban(v, form.getValues('country')) || t('recipients.badIban'),
          })}
        />
        <TextInput label={t('recipients.bankName')} {...form.register('bankName', { maxLength: 100 })} />
        {save.error && !(save.error instanceof ApiError && save.error.details.length) ? (
          <ErrorState error={save.error} />
        ) : null}
        <Button type="submit" loading={save.isPending}>
          {t('recipients.save')}
        </Button>
      </Stack>
    </form>
  );
}

export default function Recipients() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const recipients = useRecipients();
  const [editing, setEditing] = useState<{ id: string | null; values: RecipientForm } | null>(null);
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/recipients/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['recipients'] }),
  });
  const done = async (replaced: string | null) => {
    if (replaced) await api.DELETE('/api/recipients/{id}', { params: { path: { id: replaced } } });
    setEditing(null);
    queryClient.invalidateQueries({ queryKey: ['recipients'] });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('recipients.title')}
        </Title>
        {!editing ? (
          <Button onClick={() => setEditing({ id: null, values: EMPTY })}>{t('recipients.add')}</Button>
        ) : null}
      </Group>
      {editing ? (
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {editing.id ? t('recipients.edit') : t('recipients.add')}
          </Title>
          <RecipientEditor initial={editing.values} onDone={() => done(editing.id)} />
          <Button variant="subtle" mt="xs" onClick={() => setEditing(null)}>
            {t('app.cancel')}
          </Button>
        </Card>
      ) : null}
      {remove.error ? <ErrorState error={remove.error} /> : null}
      <QueryView query={recipients}>
        {(list) =>
          list.length === 0 ? (
            <Empty>{t('recipients.none')}</Empty>
          ) : (
            <Stack gap="xs">
              {list.map((r) => (
                <Card withBorder padding="sm" key={r.id}>
                  <Group justify="space-between" wrap="nowrap">
                    <div style={{ minWidth: 0 }}>
                      <Text fw={600}>{r.name}</Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {t(`country.${r.country}` as MessageKey)} · {r.currency} ·{' '}
                        {r.bankAccount.replace(/^\*+/, '•••• ')}
                      </Text>
                    </div>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() =>
                          setEditing({
                            id: r.id,
                            values: {
                              name: r.name,
                              country: r.country as Country,
                              currency: r.currency,
                              bankAccount: '',
                              bankName: r.bankName ?? '',
                            },
                          })
                        }
                      >
                        {t('app.edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        c="red.9"
                        onClick={() =>
                          window.confirm(t('recipients.confirmRemove', { name: r.name })) && remove.mutate(r.id)
                        }
                      >
                        {t('app.remove')}
                      </Button>
                    </Group>
                  </Group>
                </Card>
              ))}
            </Stack>
          )
        }
      </QueryView>
    </Stack>
  );
}
