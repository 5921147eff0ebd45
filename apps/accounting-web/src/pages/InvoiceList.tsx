import {
  Anchor,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { useFormat } from '../ui/format.js';
import { Pager } from '../ui/Pager.js';
import { ScrollTable } from '../ui/ScrollTable.js';
import { type InvoiceStatus, StatusBadge } from '../ui/StatusBadge.js';
import { Empty, ErrorState, Loading } from '../ui/states.js';
import { ContactSelect } from './ContactSelect.js';
import { EinvoiceBadge } from './einvoice/SefBadge.js';
import '@mantine/dates/styles.css';
import { DateField } from '../ui/DateField.js';

const STATUSES: InvoiceStatus[] = ['draft', 'sent', 'viewed', 'paid', 'overdue', 'cancelled'];
const PER_PAGE = 25;

/**
 * Filters live in the address (search, status, customer, from, to, page), so a filtered list can be bookmarked. The
 * search (part of the number or of the customer's name) goes to the server once typing pauses (300 ms).
 */
export default function InvoiceList() {
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite, me } = useAuth();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') as InvoiceStatus | null;
  const customerId = params.get('customer');
  const fromDate = params.get('from');
  const toDate = params.get('to');
  const page = Number(params.get('page') ?? '1') || 1;
  const q = params.get('q');
  const [search, setSearch] = useState(q ?? '');
  const [typed] = useDebouncedValue(search.trim(), 300);
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a pause in the typing moves the address.
  useEffect(() => {
    if (typed !== (q ?? '')) set('q', typed || null);
  }, [typed]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address changed by a link (the menu's Invoices) sets the field.
  useEffect(() => {
    if ((q ?? '') !== typed) setSearch(q ?? '');
  }, [q]);

  const query = useQuery({
    queryKey: ['invoices', q, status, customerId, fromDate, toDate, page],
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/invoices', {
          params: {
            query: {
              page: String(page),
              perPage: String(PER_PAGE),
              sort: 'invoiceDate',
              order: 'desc',
              ...(q ? { search: q } : {}),
              ...(status ? { status } : {}),
              ...(customerId ? { customerId } : {}),
              ...(fromDate ? { fromDate } : {}),
              ...(toDate ? { toDate } : {}),
            },
          },
        }),
      ),
  });

  // Serbian (SEF) and Croatian (Moj-eRačun delivery, fiscalization) organizations: each list item carries
  // `sef`, `intermediary` and `fiscalization`.
  const showEinvoice = me?.organization.country === 'RS' || me?.organization.country === 'HR';
  const narrow = useMediaQuery('(max-width: 40em)');
  const einvoiceBadges = (inv: NonNullable<typeof query.data>['data'][number]) => (
    <>
      {inv.sef ? <EinvoiceBadge status={inv.sef.status} /> : null}
      {inv.intermediary || inv.fiscalization ? (
        <Group gap={4} wrap="wrap">
          {inv.intermediary ? <EinvoiceBadge kind="mer" status={inv.intermediary.status} /> : null}
          {inv.fiscalization ? <EinvoiceBadge kind="fisc" status={inv.fiscalization.status} /> : null}
        </Group>
      ) : null}
    </>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('invoices.title')}
        </Title>
        {canWrite ? (
          <Button component={Link} to="/invoices/new">
            {t('invoices.new')}
          </Button>
        ) : null}
      </Group>
      {/* Five filters: one row on a wide screen, two columns on a tablet, one on a phone. */}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
        <TextInput
          type="search"
          label={t('app.search')}
          placeholder={t('invoices.searchHint')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <Select
          label={t('invoices.status')}
          clearable
          placeholder={t('app.all')}
          data={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={status}
          onChange={(v) => set('status', v)}
        />
        <ContactSelect
          side="customer"
          label={t('invoices.customer')}
          clearable
          placeholder={t('app.all')}
          value={customerId}
          onChange={(c) => set('customer', c?.id ?? null)}
        />
        <DateField label={t('invoices.from')} clearable value={fromDate} onChange={(v) => set('from', v)} />
        <DateField label={t('invoices.to')} clearable value={toDate} onChange={(v) => set('to', v)} />
      </SimpleGrid>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : query.data.data.length === 0 ? (
        <Empty>{t('invoices.empty')}</Empty>
      ) : (
        <>
          {narrow ? (
            // On a phone a card per invoice: the table would hide the total and the status past the edge.
            <section aria-label={t('invoices.title')}>
              <Stack gap="sm">
                {query.data.data.map((inv) => (
                  <Card key={inv.id} withBorder padding="sm" data-testid="invoice-card">
                    <Stack gap={4}>
                      <Group justify="space-between" wrap="nowrap">
                        <Anchor component={Link} to={`/invoices/${inv.id}`} fw={600} style={{ whiteSpace: 'nowrap' }}>
                          {inv.invoiceNumber}
                        </Anchor>
                        <StatusBadge status={inv.status} />
                      </Group>
                      <Text size="sm">{inv.customerName}</Text>
                      <Text size="sm" c="dimmed">
                        {`${t('invoices.date')} ${f.date(inv.invoiceDate)} · ${t('invoices.dueDate')} ${f.date(inv.dueDate)}`}
                      </Text>
                      <Group justify="space-between" gap="xs">
                        <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                          {f.money(inv.totalAmount, inv.currencyCode)}
                        </Text>
                        {showEinvoice ? <Group gap={4}>{einvoiceBadges(inv)}</Group> : null}
                      </Group>
                    </Stack>
                  </Card>
                ))}
              </Stack>
            </section>
          ) : (
            <ScrollTable minWidth={560} label={t('invoices.title')}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('invoices.number')}</Table.Th>
                    <Table.Th>{t('invoices.customer')}</Table.Th>
                    <Table.Th>{t('invoices.date')}</Table.Th>
                    <Table.Th>{t('invoices.dueDate')}</Table.Th>
                    <Table.Th ta="right">{t('invoices.total')}</Table.Th>
                    <Table.Th>{t('invoices.status')}</Table.Th>
                    {showEinvoice ? <Table.Th>{t('einvoice.listColumn')}</Table.Th> : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.data.map((inv) => (
                    <Table.Tr key={inv.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Anchor component={Link} to={`/invoices/${inv.id}`}>
                          {inv.invoiceNumber}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{inv.customerName}</Table.Td>
                      <Table.Td>{f.date(inv.invoiceDate)}</Table.Td>
                      <Table.Td>{f.date(inv.dueDate)}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {f.money(inv.totalAmount, inv.currencyCode)}
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={inv.status} />
                      </Table.Td>
                      {showEinvoice ? (
                        <Table.Td>
                          {einvoiceBadges(inv)}
                          {!inv.sef && !inv.fiscalization && !inv.intermediary ? (
                            <>
                              <Text span size="sm" c="dimmed" aria-hidden>
                                —
                              </Text>
                              <VisuallyHidden>{t('einvoice.listNone')}</VisuallyHidden>
                            </>
                          ) : null}
                        </Table.Td>
                      ) : null}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          )}
          <Pager page={page} pages={query.data.meta.totalPages} onPage={(p) => set('page', String(p))} />
        </>
      )}
    </Stack>
  );
}
