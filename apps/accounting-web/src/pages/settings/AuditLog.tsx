import '@mantine/dates/styles.css';
import { Badge, Card, Group, NativeSelect, SimpleGrid, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client.js';
import { auditFieldsEn } from '../../i18n/areas/audit-fields.js';
import type { MessageKey } from '../../i18n/index.js';
import { useI18n } from '../../i18n/index.js';
import { DateField } from '../../ui/DateField.js';
import { FigureCards, NARROW } from '../../ui/FigureCards.js';
import { useFormat } from '../../ui/format.js';
import { Pager } from '../../ui/Pager.js';
import { ScrollTable } from '../../ui/ScrollTable.js';
import { Empty, ErrorState, Loading } from '../../ui/states.js';

/** Tables the audit trail records (database triggers), with their names on screen. */
const TABLES: Array<{ value: string; key: MessageKey }> = [
  { value: 'invoices', key: 'nav.invoices' },
  { value: 'contacts', key: 'nav.contacts' },
  { value: 'ledger_transactions', key: 'books.audit.transactions' },
  { value: 'accounts', key: 'books.audit.accounts' },
  { value: 'expenses', key: 'books.audit.expenses' },
  { value: 'organizations', key: 'books.settings.organization' },
  { value: 'users', key: 'books.settings.users' },
  { value: 'invitations', key: 'books.audit.invitations' },
  { value: 'tax_rates', key: 'books.settings.taxRates' },
  { value: 'bank_accounts', key: 'books.audit.bankAccounts' },
  { value: 'bank_transactions', key: 'books.audit.bankTransactions' },
  { value: 'invoice_items', key: 'books.audit.invoiceItems' },
  { value: 'exchange_rates', key: 'books.rates.title' },
  { value: 'sessions', key: 'books.audit.sessions' },
  { value: 'refresh_tokens', key: 'books.audit.sessions' },
  { value: 'alerts', key: 'books.audit.alerts' },
];
const ACTIONS = ['INSERT', 'UPDATE', 'DELETE'] as const;
const ACTION_KEYS: Record<string, MessageKey> = {
  INSERT: 'books.audit.insert',
  UPDATE: 'books.audit.update',
  DELETE: 'books.audit.delete',
};

interface Filters {
  tableName: string;
  action: string;
  fromDate: string;
  toDate: string;
  recordId: string;
  /** 'false' (the default) leaves out the sign-in records; '' shows them. */
  sessions: string;
}

/**
 * The audit trail, newest first, filtered by table, action, dates and record (owners and admins).
 * Sign-ins and session renewals (a row each) are left out until asked for: they buried the changes
 * to the books; choosing their area shows them too.
 */
export default function AuditLog() {
  const { t } = useI18n();
  const f = useFormat();
  const [filters, setFilters] = useState<Filters>({
    tableName: '',
    action: '',
    fromDate: '',
    toDate: '',
    recordId: '',
    sessions: 'false',
  });
  const [page, setPage] = useState(1);
  const narrow = useMediaQuery(NARROW);
  const set = (patch: Partial<Filters>) => {
    setFilters((x) => ({ ...x, ...patch }));
    setPage(1);
  };
  const users = useQuery({
    queryKey: ['users'],
    queryFn: async () => unwrap(await api.GET('/api/v1/users')).data,
  });
  const query = useQuery({
    queryKey: ['audit', filters, page],
    placeholderData: (prev) => prev,
    queryFn: async () => {
      const q = Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== '')) as Record<
        string,
        string
      >;
      return unwrap(
        await api.GET('/api/v1/audit-log', {
          params: { query: { ...q, page: String(page), perPage: '25' } as never },
        }),
      );
    },
  });
  const userName = (id: string | null) =>
    id ? (users.data?.find((u) => u.id === id)?.fullName ?? id.slice(0, 8)) : '—';
  // A column's name as a person reads it; a column the catalog does not know is shown as stored.
  const fieldName = (column: string) => {
    const key = `books.field.${column}`;
    return key in auditFieldsEn ? t(key as keyof typeof auditFieldsEn) : column;
  };
  const tableName = (name: string) => {
    const k = TABLES.find((x) => x.value === name)?.key;
    return k ? t(k) : name;
  };
  return (
    <Stack>
      <Card withBorder p="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
          <NativeSelect
            label={t('books.audit.table')}
            data={[{ value: '', label: t('app.all') }, ...TABLES.map((x) => ({ value: x.value, label: t(x.key) }))]}
            value={filters.tableName}
            onChange={(e) => set({ tableName: e.currentTarget.value })}
          />
          <NativeSelect
            label={t('books.audit.action')}
            data={[{ value: '', label: t('app.all') }, ...ACTIONS.map((a) => ({ value: a, label: t(ACTION_KEYS[a]) }))]}
            value={filters.action}
            onChange={(e) => set({ action: e.currentTarget.value })}
          />
          <DateField
            label={t('invoices.from')}
            clearable
            value={filters.fromDate || null}
            onChange={(v) => set({ fromDate: v ?? '' })}
          />
          <DateField
            label={t('invoices.to')}
            clearable
            value={filters.toDate || null}
            onChange={(v) => set({ toDate: v ?? '' })}
          />
          <TextInput
            label={t('books.audit.record')}
            value={filters.recordId}
            onChange={(e) => set({ recordId: e.currentTarget.value.trim() })}
          />
        </SimpleGrid>
        <Switch
          mt="sm"
          label={t('books.audit.showSessions')}
          checked={filters.sessions === ''}
          onChange={(e) => set({ sessions: e.currentTarget.checked ? '' : 'false' })}
        />
      </Card>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : query.data.data.length === 0 ? (
        <Empty>{t('books.audit.empty')}</Empty>
      ) : (
        <Card withBorder p="xs">
          {narrow ? (
            // On a phone a card per entry: the table kept the action and the changed fields past the edge.
            <FigureCards
              label={t('books.settings.audit')}
              testId="audit-card"
              cards={query.data.data.map((e) => ({
                key: e.id,
                title: f.dateTime(e.createdAt),
                aside: <ActionBadge action={e.action} />,
                lines: [
                  `${tableName(e.tableName)} · ${userName(e.userId)}`,
                  changed(e.oldValues, e.newValues).map(fieldName).join(', '),
                ],
                figures: [],
              }))}
            />
          ) : (
            <ScrollTable minWidth={720} label={t('books.settings.audit')}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('books.audit.when')}</Table.Th>
                    <Table.Th>{t('books.audit.table')}</Table.Th>
                    <Table.Th>{t('books.audit.action')}</Table.Th>
                    <Table.Th>{t('books.audit.user')}</Table.Th>
                    <Table.Th>{t('books.audit.changes')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.data.map((e) => (
                    <Table.Tr key={e.id} data-testid="audit-row">
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{f.dateTime(e.createdAt)}</Table.Td>
                      <Table.Td>{tableName(e.tableName)}</Table.Td>
                      <Table.Td>
                        <ActionBadge action={e.action} />
                      </Table.Td>
                      <Table.Td>{userName(e.userId)}</Table.Td>
                      <Table.Td>
                        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                          {changed(e.oldValues, e.newValues).map(fieldName).join(', ')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          )}
          <Group justify="space-between" mt="xs">
            <Text size="xs" c="dimmed">
              {t('books.audit.total', { n: query.data.meta.total })}
            </Text>
          </Group>
        </Card>
      )}
      {query.data ? <Pager page={page} pages={query.data.meta.totalPages} onPage={setPage} /> : null}
    </Stack>
  );
}

/** The fields an entry changed (for an insert or delete: the fields it holds), without bookkeeping columns. */
function changed(oldValues: Record<string, unknown> | null, newValues: Record<string, unknown> | null): string[] {
  const skip = new Set([
    'id',
    'created_at',
    'updated_at',
    'organization_id',
    // Kept by the system for its own work; nothing a person changed.
    'amount_key',
    'seq',
    'send_claimed_at',
    'email_id',
    'receipt_content_type',
    'occurrence',
    'token_hash',
    'two_factor_last_step',
    'family_id',
  ]);
  const keys = new Set([...Object.keys(oldValues ?? {}), ...Object.keys(newValues ?? {})]);
  return [...keys]
    .filter((k) => !skip.has(k))
    .filter((k) => !oldValues || !newValues || JSON.stringify(oldValues[k]) !== JSON.stringify(newValues[k]))
    .slice(0, 8);
}

function ActionBadge({ action }: { action: string }) {
  const { t } = useI18n();
  return (
    // The label keeps its width: clipped by default, the wide "fields" column squeezed it to "KREIRA…".
    <Badge variant="light" color="gray.8" c="gray.9" styles={{ label: { overflow: 'visible' } }}>
      {ACTION_KEYS[action] ? t(ACTION_KEYS[action]) : action}
    </Badge>
  );
}
