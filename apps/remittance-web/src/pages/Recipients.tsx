import { Alert, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, api, type paths, unwrap } from '../api/client.js';
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

type RecipientChanges = NonNullable<
  paths['/api/recipients/{id}']['patch']['requestBody']
>['content']['application/json'];

/** A recipient being edited: its id, the values it has now and the last four characters of its IBAN. */
interface Editing {
  id: string;
  values: RecipientForm;
  last4: string;
}

/** What the API answers about a field, in the screen's words (WA4: its own messages are English). */
const FIELD_MESSAGE = {
  bankAccount: 'recipients.badIban',
  name: 'recipients.badName',
  currency: 'recipients.badCurrency',
} as const satisfies Record<string, MessageKey>;

/**
 * The form for a new recipient (POST) or for changing one (PATCH with only the fields changed; the
 * IBAN left empty keeps the current one unless the country changes).
 */
function RecipientEditor({
  initial,
  editing,
  onDone,
  onCancel,
}: {
  initial: RecipientForm;
  editing: Editing | null;
  onDone: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const form = useForm<RecipientForm>({ defaultValues: initial });
  const country = form.watch('country');
  const save = useMutation({
    mutationFn: async (v: RecipientForm) => {
      const name = v.name.trim();
      const bankName = v.bankName.trim();
      if (!editing) {
        return unwrap(
          await api.POST('/api/recipients', {
            body: {
              name,
              country: v.country,
              currency: v.currency as 'EUR',
              bankAccount: normalizeIban(v.bankAccount),
              ...(bankName ? { bankName } : {}),
            },
          }),
        ).data;
      }
      const was = editing.values;
      const body: RecipientChanges = {};
      if (name !== was.name) body.name = name;
      if (v.country !== was.country) body.country = v.country;
      if (v.currency !== was.currency || v.country !== was.country) body.currency = v.currency as 'EUR';
      if (v.bankAccount.trim()) body.bankAccount = normalizeIban(v.bankAccount);
      if (bankName !== was.bankName) body.bankName = bankName || null;
      // Nothing changed: nothing to send.
      if (Object.keys(body).length === 0) return { name: was.name };
      return unwrap(await api.PATCH('/api/recipients/{id}', { params: { path: { id: editing.id } }, body })).data;
    },
    onSuccess: (r) => onDone(r.name),
    onError: (e) => {
      if (e instanceof ApiError)
        for (const d of e.details)
          if (d.field in FIELD_MESSAGE) {
            const field = d.field as keyof typeof FIELD_MESSAGE;
            form.setError(field, { message: t(FIELD_MESSAGE[field]) });
          }
    },
  });
  const { errors } = form.formState;
  const keepsIban = editing !== null && country === editing.values.country;
  return (
    <form onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
      <Stack gap="sm">
        {editing ? (
          <Text size="sm" c="dimmed">
            {t('recipients.pastKept')}
          </Text>
        ) : null}
        <TextInput
          label={t('recipients.name')}
          autoComplete="off"
          required
          error={errors.name?.message}
          {...form.register('name', { required: t('recipients.required'), maxLength: 100 })}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
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
            error={errors.currency?.message}
            {...form.register('currency')}
          />
        </SimpleGrid>
        <TextInput
          label={t('recipients.iban')}
          description={
            keepsIban
              ? t('recipients.keepIban', { last4: editing.last4 })
              : editing
                ? t('recipients.ibanForCountry', { country })
                : t('recipients.ibanHint', { country })
          }
          required={!keepsIban}
          autoComplete="off"
          error={errors.bankAccount?.message}
          {...form.register('bankAccount', {
            validate: (v) =>
              (keepsIban && v.trim() === '') || isValidIban(v, form.getValues('country')) || t('recipients.badIban'),
          })}
        />
        <TextInput label={t('recipients.bankName')} {...form.register('bankName', { maxLength: 100 })} />
        {save.error && !(save.error instanceof ApiError && save.error.details.length) ? (
          <ErrorState error={save.error} />
        ) : null}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {editing ? t('recipients.saveChanges') : t('recipients.save')}
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            {t('app.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function Recipients() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const recipients = useRecipients();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/recipients/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['recipients'] }),
  });
  const done = (name: string) => {
    setAdding(false);
    setEditing(null);
    setSaved(name);
    queryClient.invalidateQueries({ queryKey: ['recipients'] });
  };
  const close = () => {
    setAdding(false);
    setEditing(null);
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('recipients.title')}
        </Title>
        {!adding && !editing ? (
          <Button
            onClick={() => {
              setSaved(null);
              setAdding(true);
            }}
          >
            {t('recipients.add')}
          </Button>
        ) : null}
      </Group>
      {saved ? (
        <Alert color="teal" role="status">
          {t('recipients.saved', { name: saved })}
        </Alert>
      ) : null}
      {adding ? (
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t('recipients.add')}
          </Title>
          <RecipientEditor initial={EMPTY} editing={null} onDone={done} onCancel={close} />
        </Card>
      ) : null}
      {remove.error ? <ErrorState error={remove.error} /> : null}
      <QueryView query={recipients}>
        {(list) =>
          list.length === 0 ? (
            <Empty>{t('recipients.none')}</Empty>
          ) : (
            <Stack gap="xs">
              {list.map((r) =>
                editing?.id === r.id ? (
                  <Card withBorder key={r.id} component="section" aria-labelledby={`edit-${r.id}`}>
                    <Title order={2} size="h4" mb="sm" id={`edit-${r.id}`}>
                      {t('recipients.editName', { name: r.name })}
                    </Title>
                    <RecipientEditor initial={editing.values} editing={editing} onDone={done} onCancel={close} />
                  </Card>
                ) : (
                  <Card withBorder padding="sm" key={r.id}>
                    <Group justify="space-between" wrap="nowrap">
                      <div style={{ minWidth: 0 }}>
                        <Text fw={600}>{r.name}</Text>
                        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {t(`country.${r.country}` as MessageKey)} · {r.currency} ·{' '}
                          {r.bankAccount.replace(/^\*+/, '•••• ')}
                          {r.bankName ? ` · ${r.bankName}` : ''}
                        </Text>
                      </div>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`${t('app.edit')}: ${r.name}`}
                          onClick={() => {
                            setSaved(null);
                            setAdding(false);
                            setEditing({
                              id: r.id,
                              last4: r.bankAccount.slice(-4),
                              values: {
                                name: r.name,
                                country: r.country as Country,
                                currency: r.currency,
                                bankAccount: '',
                                bankName: r.bankName ?? '',
                              },
                            });
                          }}
                        >
                          {t('app.edit')}
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          c="red.9"
                          aria-label={`${t('app.remove')}: ${r.name}`}
                          onClick={() =>
                            window.confirm(t('recipients.confirmRemove', { name: r.name })) && remove.mutate(r.id)
                          }
                        >
                          {t('app.remove')}
                        </Button>
                      </Group>
                    </Group>
                  </Card>
                ),
              )}
            </Stack>
          )
        }
      </QueryView>
    </Stack>
  );
}
