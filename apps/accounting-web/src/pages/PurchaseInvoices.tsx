import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { useAuth } from '../auth.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { download } from '../ui/download.js';
import { useFormat } from '../ui/format.js';
import { Pager } from '../ui/Pager.js';
import { ScrollTable } from '../ui/ScrollTable.js';
import { Empty, ErrorState, Loading } from '../ui/states.js';
import { ActionError } from './einvoice/ActionError.js';
import { FiscMessage } from './einvoice/FiscDetails.js';
import { EinvoiceBadge } from './einvoice/SefBadge.js';

type Purchase = paths['/api/v1/purchase-invoices/{id}']['get']['responses'][200]['content']['application/json'];

const STATUSES = ['New', 'Seen', 'Approved', 'Rejected', 'Cancelled', 'Storno'];
/** A received Croatian e-invoice is New until the organization accepts or rejects it. */
const HR_STATUSES = ['New', 'Approved', 'Rejected'];
const REASON_TYPES = ['O', 'N', 'U'] as const;
/** SEF takes a decision (accept or reject) only while the buyer has not given one. */
const UNDECIDED = new Set(['New', 'Seen', 'ReNotified', 'Unknown']);
const PER_PAGE = 25;

/**
 * /purchase-invoices (the list) and /purchase-invoices/:id (one, with accept, reject and the expense).
 * Serbian organizations receive them from SEF, Croatian ones from the information intermediary; a
 * Croatian one also shows its fiscalization (the receipt and the rejection report).
 */
export default function PurchaseInvoices() {
  const { id } = useParams();
  return id ? <PurchaseInvoiceView id={id} /> : <PurchaseInvoiceList />;
}

function PurchaseInvoiceList() {
  const { t } = useI18n();
  const hr = useAuth().me?.organization.country === 'HR';
  const f = useFormat();
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const page = Number(params.get('page') ?? '1') || 1;
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  // A phone: one stacked card per invoice (number and status, supplier, date and total) instead of a wide table.
  const narrow = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const query = useQuery({
    queryKey: ['purchase-invoices', status, page],
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/purchase-invoices', {
          params: {
            query: {
              page: String(page),
              perPage: String(PER_PAGE),
              sort: 'issueDate',
              order: 'desc',
              ...(status ? { status } : {}),
            },
          },
        }),
      ),
  });
  return (
    <Stack>
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('purchases.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {hr ? t('purchases.introHr') : t('purchases.intro')}
        </Text>
      </Stack>
      <Group>
        <Select
          label={t('purchases.status')}
          clearable
          placeholder={t('app.all')}
          data={(hr ? HR_STATUSES : STATUSES).map((s) => ({
            value: s,
            label: t(`einvoice.sefStatus.${s}` as MessageKey),
          }))}
          value={status}
          onChange={(v) => set('status', v)}
        />
      </Group>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : query.data.data.length === 0 ? (
        <Empty>{status ? t('purchases.empty') : hr ? t('purchases.noneHr') : t('purchases.none')}</Empty>
      ) : narrow ? (
        <>
          <Stack gap="xs" component="section" aria-label={t('purchases.title')}>
            {query.data.data.map((p) => (
              <Card key={p.id} withBorder p="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Anchor component={Link} to={`/purchase-invoices/${p.id}`} fw={700}>
                    {p.invoiceNumber}
                  </Anchor>
                  <EinvoiceBadge status={p.status} />
                </Group>
                <Text size="sm">{p.supplierName}</Text>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    {p.issueDate ? f.date(p.issueDate) : ''}
                  </Text>
                  <Text size="sm" fw={700} style={{ whiteSpace: 'nowrap' }}>
                    {f.money(p.totalAmount, p.currencyCode)}
                  </Text>
                </Group>
              </Card>
            ))}
          </Stack>
          <Pager page={page} pages={query.data.meta.totalPages} onPage={(p) => set('page', String(p))} />
        </>
      ) : (
        <>
          <ScrollTable minWidth={600} label={t('purchases.title')}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('purchases.number')}</Table.Th>
                  <Table.Th>{t('purchases.supplier')}</Table.Th>
                  <Table.Th>{t('purchases.issueDate')}</Table.Th>
                  <Table.Th ta="right">{t('purchases.total')}</Table.Th>
                  <Table.Th>{t('purchases.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.data.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/purchase-invoices/${p.id}`}>
                        {p.invoiceNumber}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {p.supplierName}
                      {p.supplierVatNumber ? (
                        <Text span size="xs" c="dimmed" display="block">
                          {p.supplierVatNumber}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{p.issueDate ? f.date(p.issueDate) : ''}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {f.money(p.totalAmount, p.currencyCode)}
                    </Table.Td>
                    <Table.Td>
                      <EinvoiceBadge status={p.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          <Pager page={page} pages={query.data.meta.totalPages} onPage={(p) => set('page', String(p))} />
        </>
      )}
    </Stack>
  );
}

function PurchaseInvoiceView({ id }: { id: string }) {
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite } = useAuth();
  const queryClient = useQueryClient();
  const [deciding, setDeciding] = useState<'accept' | 'reject' | null>(null);
  const narrow = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const query = useQuery({
    queryKey: ['purchase-invoice', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/purchase-invoices/{id}', { params: { path: { id } } })),
    // A Croatian report still waiting for the Tax Administration: asked again every few seconds.
    refetchInterval: (q) =>
      q.state.data?.fiscalization?.received?.status === 'Pending' ||
      q.state.data?.fiscalization?.rejection?.status === 'Pending'
        ? 4000
        : false,
  });
  const saved = (p: Purchase) => {
    queryClient.setQueryData(['purchase-invoice', id], p);
    queryClient.invalidateQueries({ queryKey: ['purchase-invoices'] });
  };
  const expense = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/v1/purchase-invoices/{id}/expense', { params: { path: { id } }, body: {} })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['purchase-invoice', id] });
      queryClient.invalidateQueries({ queryKey: ['expenses'] });
    },
  });
  const file = useMutation({
    mutationFn: (p: Purchase) => download(`/api/v1/purchase-invoices/${p.id}/ubl`, `${p.invoiceNumber}.xml`),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  const p = query.data;
  const cur = p.currencyCode;
  const open = UNDECIDED.has(p.status);
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1} size="h2">
              {p.invoiceNumber}
            </Title>
            <EinvoiceBadge status={p.status} />
          </Group>
          <Text fw={700}>{p.supplierName}</Text>
          <Text size="sm" c="dimmed">
            {p.supplierVatNumber ? `${t('purchases.supplierVat')}: ${p.supplierVatNumber}` : null}
          </Text>
          <Text size="sm" c="dimmed">
            {p.issueDate ? `${t('purchases.issueDate')}: ${f.date(p.issueDate)}` : ''}
            {p.dueDate ? ` · ${t('purchases.dueDate')}: ${f.date(p.dueDate)}` : ''}
            {` · ${t('purchases.received')}: ${f.day(p.createdAt)}`}
          </Text>
        </Stack>
        {canWrite ? (
          <Group gap="xs">
            {open ? (
              <>
                <Button onClick={() => setDeciding('accept')}>{t('purchases.accept')}</Button>
                <Button variant="outline" color="red.9" onClick={() => setDeciding('reject')}>
                  {t('purchases.reject')}
                </Button>
              </>
            ) : null}
            {!p.expenseId && p.status !== 'Rejected' ? (
              <Button variant="default" loading={expense.isPending} onClick={() => expense.mutate()}>
                {t('purchases.toExpense')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Group>
      {expense.error ? <ActionError error={expense.error} /> : null}
      {p.expenseId ? (
        <Alert color="teal" role="status" p="xs">
          <Group gap="xs">
            <Text size="sm">{t('purchases.expenseMade')}</Text>
            <Anchor component={Link} to="/expenses" size="sm" fw={700} c="dark.9" underline="always">
              {t('purchases.openExpenses')}
            </Anchor>
          </Group>
        </Alert>
      ) : null}
      {p.comment ? (
        <Card withBorder p="sm">
          <Text size="sm" c="dimmed">
            {t('purchases.comment')}
          </Text>
          <Text size="sm">{p.comment}</Text>
        </Card>
      ) : null}
      {p.source === 'hr-intermediary' ? <PurchaseFiscalization purchase={p} /> : null}
      <Card withBorder p="xs">
        {p.lines.length === 0 ? (
          <Empty>{t('purchases.noLines')}</Empty>
        ) : narrow ? (
          // A phone: each line stacked (quantity, unit and rate under the description, the amount beside).
          <Stack gap={0} component="section" aria-label={t('purchases.lines')}>
            {p.lines.map((l, n) => (
              <Group
                // biome-ignore lint/suspicious/noArrayIndexKey: the e-invoice's lines in its order, never reordered.
                key={n}
                justify="space-between"
                align="flex-start"
                wrap="nowrap"
                py="xs"
                style={n > 0 ? { borderTop: '1px solid var(--mantine-color-gray-3)' } : undefined}
              >
                <Stack gap={2}>
                  <Text size="sm">{l.description}</Text>
                  <Text size="xs" c="dimmed">
                    {f.number(l.quantity, 2)} {l.unitCode ?? ''}
                    {l.taxRate != null ? ` · ${t('purchases.rate')} ${f.number(l.taxRate, 0)} %` : ''}
                  </Text>
                </Stack>
                <Text size="sm" fw={700} style={{ whiteSpace: 'nowrap' }}>
                  {f.number(l.lineTotal)}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <ScrollTable minWidth={520} label={t('purchases.lines')}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('purchases.description')}</Table.Th>
                  <Table.Th ta="right">{t('purchases.quantity')}</Table.Th>
                  <Table.Th>{t('purchases.unit')}</Table.Th>
                  <Table.Th ta="right">{t('purchases.rate')}</Table.Th>
                  <Table.Th ta="right">{t('purchases.lineTotal')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.lines.map((l, n) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the lines are the e-invoice's, in its order, never reordered.
                  <Table.Tr key={n}>
                    <Table.Td>{l.description}</Table.Td>
                    <Table.Td ta="right">{f.number(l.quantity, 2)}</Table.Td>
                    <Table.Td>{l.unitCode ?? ''}</Table.Td>
                    <Table.Td ta="right">{l.taxRate != null ? `${f.number(l.taxRate, 0)} %` : ''}</Table.Td>
                    <Table.Td ta="right">{f.number(l.lineTotal)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder>
          <TotalRow label={t('purchases.net')} value={f.money(p.netAmount, cur)} />
          <TotalRow label={t('purchases.tax')} value={f.money(p.taxAmount, cur)} />
          <TotalRow label={t('purchases.total')} value={f.money(p.totalAmount, cur)} strong testId="purchase-total" />
        </Card>
        <Card withBorder>
          <Stack gap="xs" align="flex-start">
            <Button variant="default" size="xs" loading={file.isPending} onClick={() => file.mutate(p)}>
              {t('purchases.downloadUbl')}
            </Button>
            {file.error ? <ErrorState error={file.error} /> : null}
          </Stack>
        </Card>
      </SimpleGrid>
      <Anchor component={Link} to="/purchase-invoices">
        ← {t('purchases.back')}
      </Anchor>
      {deciding ? (
        <DecisionDialog
          purchase={p}
          action={deciding}
          onClose={() => setDeciding(null)}
          onDone={(saved_) => {
            saved(saved_);
            setDeciding(null);
          }}
        />
      ) : null}
    </Stack>
  );
}

function DecisionDialog({
  purchase,
  action,
  onClose,
  onDone,
}: {
  purchase: Purchase;
  action: 'accept' | 'reject';
  onClose: () => void;
  onDone: (p: Purchase) => void;
}) {
  const { t } = useI18n();
  const [comment, setComment] = useState('');
  const [reasonType, setReasonType] = useState<(typeof REASON_TYPES)[number]>('O');
  const [touched, setTouched] = useState(false);
  const hr = purchase.source === 'hr-intermediary';
  const run = useMutation({
    mutationFn: async () => {
      const body = { comment: comment.trim(), ...(hr && action === 'reject' ? { reasonType } : {}) };
      const opts = { params: { path: { id: purchase.id } }, body };
      return unwrap(
        action === 'accept'
          ? await api.POST('/api/v1/purchase-invoices/{id}/accept', opts)
          : await api.POST('/api/v1/purchase-invoices/{id}/reject', opts),
      );
    },
    onSuccess: onDone,
  });
  const title = t(action === 'accept' ? 'purchases.acceptTitle' : 'purchases.rejectTitle', {
    number: purchase.invoiceNumber,
  });
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('app.close') }}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (comment.trim()) run.mutate();
        }}
      >
        <Stack>
          <Textarea
            label={t('purchases.comment')}
            description={
              hr
                ? t(action === 'accept' ? 'purchases.acceptHelpHr' : 'purchases.rejectHelpHr')
                : t('purchases.commentHelp')
            }
            required
            autosize
            minRows={2}
            maxLength={1000}
            value={comment}
            error={touched && !comment.trim() ? t('app.invalidField') : undefined}
            onChange={(e) => setComment(e.currentTarget.value)}
            data-autofocus
          />
          {hr && action === 'reject' ? (
            <NativeSelect
              label={t('purchases.reasonType')}
              data={REASON_TYPES.map((r) => ({ value: r, label: t(`purchases.reasonType.${r}` as MessageKey) }))}
              value={reasonType}
              onChange={(e) => setReasonType(e.currentTarget.value as (typeof REASON_TYPES)[number])}
            />
          ) : null}
          {run.error ? <ActionError error={run.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" color={action === 'reject' ? 'red.9' : undefined} loading={run.isPending}>
              {action === 'accept' ? t('purchases.accept') : t('purchases.reject')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A received Croatian e-invoice's fiscalization: its receipt (EvidentirajERacun U, recorded at intake
 * when fiscalization is on) and, once rejected, the rejection report (EvidentirajOdbijanje). The
 * service retries a pending one by itself; the API has no route to send a refused one again.
 */
function PurchaseFiscalization({ purchase }: { purchase: Purchase }) {
  const { t } = useI18n();
  const { received, rejection } = purchase.fiscalization ?? { received: null, rejection: null };
  const refused = received?.status === 'Failed' || rejection?.status === 'Failed';
  return (
    <Card withBorder data-testid="purchase-fiscalization">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('purchases.fiscTitle')}
        </Title>
        <FiscMessage
          title={t('purchases.fisc.received')}
          state={received}
          none={t('purchases.fisc.receivedNone')}
          testId="fisc-received"
        />
        {rejection ? (
          <FiscMessage title={t('purchases.fisc.rejection')} state={rejection} testId="fisc-rejection" />
        ) : null}
        {refused ? (
          <Alert color="orange" role="status" p="xs">
            <Text size="sm">{t('purchases.fisc.failedNoRetry')}</Text>
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

function TotalRow({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <Group justify="space-between" py={2}>
      <Text fw={strong ? 700 : 400}>{label}</Text>
      <Text fw={strong ? 700 : 400} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}
