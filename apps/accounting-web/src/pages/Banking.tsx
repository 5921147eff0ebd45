import {
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { useFormat } from '../ui/format.js';
import { ScrollTable } from '../ui/ScrollTable.js';
import { Empty, ErrorState, Loading, useFieldErrors } from '../ui/states.js';
import { numberSeparators, useBankAccounts } from './money.js';

type BankAccountBody = paths['/api/v1/bank-accounts']['post']['requestBody']['content']['application/json'];

/** Bank accounts: the list (each opens its statement lines and reconciliation) and, for owners and admins, create. */
export default function Banking() {
  const { t } = useI18n();
  const f = useFormat();
  const { isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const query = useBankAccounts();
  const narrow = useMediaQuery('(max-width: 40em)');

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('banking.title')}
        </Title>
        {isAdmin ? <Button onClick={() => setCreating(true)}>{t('banking.new')}</Button> : null}
      </Group>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : query.data.length === 0 ? (
        <Empty>{t('banking.empty')}</Empty>
      ) : narrow ? (
        // A phone shows each account as a card, the balance in sight.
        <section aria-label={t('banking.title')}>
          <Stack gap="sm">
            {query.data.map((b) => (
              <Card key={b.id} withBorder padding="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div style={{ minWidth: 0 }}>
                    <Anchor component={Link} to={`/banking/${b.id}`} fw={600}>
                      {b.bankName}
                    </Anchor>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {b.iban ?? b.accountNumber ?? b.accountCode}
                    </Text>
                  </div>
                  <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                    {f.money(b.currentBalance, b.currencyCode)}
                  </Text>
                </Group>
              </Card>
            ))}
          </Stack>
        </section>
      ) : (
        <ScrollTable minWidth={520} label={t('banking.title')}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('banking.bankName')}</Table.Th>
                <Table.Th>{t('banking.accountNumber')}</Table.Th>
                <Table.Th>{t('banking.ledgerAccount')}</Table.Th>
                <Table.Th ta="right">{t('banking.balance')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.map((b) => (
                <Table.Tr key={b.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/banking/${b.id}`}>
                      {b.bankName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{b.iban ?? b.accountNumber ?? '—'}</Table.Td>
                  <Table.Td>{b.accountCode}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {f.money(b.currentBalance, b.currencyCode)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {creating ? (
        <BankAccountForm
          onClose={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            queryClient.invalidateQueries({ queryKey: ['bank-accounts'] });
          }}
        />
      ) : null}
    </Stack>
  );
}

function BankAccountForm({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t, locale } = useI18n();
  const { me } = useAuth();
  const [error, setError] = useState<unknown>(null);
  const accounts = useQuery({
    queryKey: ['accounts', 'asset'],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/accounts', { params: { query: { accountTypeId: 1, isActive: true } } })).data,
  });
  const form = useForm<BankAccountBody>({
    defaultValues: {
      accountId: '',
      bankName: '',
      accountNumber: '',
      iban: '',
      currencyCode: me?.organization.baseCurrency ?? 'RSD',
      currentBalance: 0,
    },
  });
  const ledger = form.watch('accountId');
  if (!ledger && accounts.data) {
    const bank = accounts.data.find((a) => a.code === '1100') ?? accounts.data[0];
    if (bank) form.setValue('accountId', bank.id);
  }
  const errors = useFieldErrors(error);
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    const body = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v.trim() || null : v]),
    ) as BankAccountBody;
    try {
      unwrap(await api.POST('/api/v1/bank-accounts', { body }));
      onSaved();
    } catch (err) {
      setError(err);
    }
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('banking.new')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label={t('banking.bankName')}
            required
            error={errors.bankName ?? (form.formState.errors.bankName ? t('expenses.required') : undefined)}
            {...form.register('bankName', { validate: (v) => v.trim().length > 0 })}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label={t('banking.accountNumber')}
              error={errors.accountNumber}
              {...form.register('accountNumber')}
            />
            <TextInput label="IBAN" error={errors.iban} {...form.register('iban')} />
            <Controller
              control={form.control}
              name="accountId"
              render={({ field }) => (
                <Select
                  label={t('banking.ledgerAccount')}
                  allowDeselect={false}
                  data={(accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.code} ${a.name}` }))}
                  error={errors.accountId}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                />
              )}
            />
            <TextInput
              label={t('invoices.currency')}
              maxLength={3}
              error={errors.currencyCode}
              {...form.register('currencyCode', { setValueAs: (v: string) => v.toUpperCase() })}
            />
            <Controller
              control={form.control}
              name="currentBalance"
              render={({ field }) => (
                <NumberInput
                  label={t('banking.openingBalance')}
                  hideControls
                  decimalScale={2}
                  {...numberSeparators(locale)}
                  error={errors.currentBalance}
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : 0)}
                />
              )}
            />
          </SimpleGrid>
          {error ? <ErrorState error={error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('app.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
