import {
  Anchor,
  Autocomplete,
  Badge,
  Button,
  Card,
  Group,
  Image,
  Modal,
  NumberInput,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Dropzone, type FileWithPath } from '@mantine/dropzone';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { api, fetchBlob, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { upload } from '../api/upload.js';
import { useAuth } from '../auth.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { useFormat } from '../ui/format.js';
import { Pager } from '../ui/Pager.js';
import { today } from '../ui/period.js';
import { ScrollTable } from '../ui/ScrollTable.js';
import { Empty, ErrorState, Loading, useFieldErrors } from '../ui/states.js';
import { ContactSelect } from './ContactSelect.js';
import { numberSeparators, useBankAccounts } from './money.js';
import '@mantine/dates/styles.css';
import '@mantine/dropzone/styles.css';
import { DateField } from '../ui/DateField.js';

type Expense = paths['/api/v1/expenses']['get']['responses'][200]['content']['application/json']['data'][number];
type ExpenseDetail = paths['/api/v1/expenses/{id}']['get']['responses'][200]['content']['application/json'];
type ExpenseStatus = 'pending' | 'approved' | 'paid' | 'rejected';

const STATUSES: ExpenseStatus[] = ['pending', 'approved', 'paid', 'rejected'];
const STATUS_COLORS: Record<ExpenseStatus, string> = {
  pending: 'gray.7',
  approved: 'blue.8',
  paid: 'teal.9',
  rejected: 'red.9',
};
const CATEGORIES: MessageKey[] = [
  'expenses.cat.office',
  'expenses.cat.rent',
  'expenses.cat.utilities',
  'expenses.cat.travel',
  'expenses.cat.fuel',
  'expenses.cat.services',
  'expenses.cat.software',
];
const PER_PAGE = 20;
const MAX_RECEIPT = 10 * 1024 * 1024;
const RECEIPT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'];

export function ExpenseStatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  const s = (STATUSES as string[]).includes(status) ? (status as ExpenseStatus) : 'pending';
  return (
    <Badge color={STATUS_COLORS[s]} variant="filled" autoContrast>
      {t(`expStatus.${s}`)}
    </Badge>
  );
}

/** Expenses: filters in the address (status, category, from, to, page), create with a receipt, approve, reject, pay. */
export default function Expenses() {
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite, isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') as ExpenseStatus | null;
  const category = params.get('category');
  const fromDate = params.get('from');
  const toDate = params.get('to');
  const page = Number(params.get('page') ?? '1') || 1;
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const [categoryText, setCategoryText] = useState(category ?? '');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Expense | null>(null);
  const [preview, setPreview] = useState<Expense | null>(null);
  const [paying, setPaying] = useState<Expense | null>(null);
  const [rejecting, setRejecting] = useState<Expense | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  // A phone shows each expense as a card: a seven-column table would hide status and actions sideways.
  const narrow = useMediaQuery('(max-width: 40em)');

  const query = useQuery({
    queryKey: ['expenses', status, category, fromDate, toDate, page],
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/expenses', {
          params: {
            query: {
              page: String(page),
              perPage: String(PER_PAGE),
              sort: 'expenseDate',
              order: 'desc',
              ...(status ? { status } : {}),
              ...(category ? { category } : {}),
              ...(fromDate ? { fromDate } : {}),
              ...(toDate ? { toDate } : {}),
            },
          },
        }),
      ),
  });
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: ['expenses'] });
    queryClient.invalidateQueries({ queryKey: ['dashboard'] });
  };
  const approve = useMutation({
    mutationFn: async (e: Expense) =>
      unwrap(await api.PATCH('/api/v1/expenses/{id}/approve', { params: { path: { id: e.id } } })),
    onMutate: () => setActionError(null),
    onError: setActionError,
    onSuccess: refresh,
  });

  const receiptButton = (e: Expense, long = false) =>
    e.receiptUrl ? (
      <Button
        size="xs"
        variant="subtle"
        aria-label={t('expenses.showReceipt', { number: e.expenseNumber })}
        onClick={() => setPreview(e)}
      >
        {long ? t('expenses.showLong') : t('expenses.show')}
      </Button>
    ) : (
      <Text size="sm" c="dimmed">
        {t('expenses.noReceipt')}
      </Text>
    );
  const editButton = (e: Expense) =>
    canWrite && e.status === 'pending' ? (
      <Button
        size="xs"
        variant="subtle"
        aria-label={t('expenses.editNumber', { number: e.expenseNumber })}
        onClick={() => setEditing(e)}
      >
        {t('app.edit')}
      </Button>
    ) : null;
  const actions = (e: Expense) =>
    !isAdmin ? (
      editButton(e)
    ) : e.status === 'pending' ? (
      <>
        {editButton(e)}
        <Button
          size="xs"
          variant="outline"
          aria-label={t('expenses.approveNumber', { number: e.expenseNumber })}
          loading={approve.isPending && approve.variables?.id === e.id}
          onClick={() => approve.mutate(e)}
        >
          {t('expenses.approve')}
        </Button>
        <Button
          size="xs"
          variant="subtle"
          color="red.9"
          c="red.9"
          aria-label={t('expenses.rejectNumber', { number: e.expenseNumber })}
          onClick={() => setRejecting(e)}
        >
          {t('expenses.reject')}
        </Button>
      </>
    ) : e.status === 'approved' ? (
      <Button
        size="xs"
        variant="outline"
        aria-label={t('expenses.payNumber', { number: e.expenseNumber })}
        onClick={() => setPaying(e)}
      >
        {t('expenses.pay')}
      </Button>
    ) : null;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('expenses.title')}
        </Title>
        {canWrite ? <Button onClick={() => setCreating(true)}>{t('expenses.new')}</Button> : null}
      </Group>
      <Group grow preventGrowOverflow={false} wrap="wrap" align="flex-end">
        <Select
          label={t('expenses.status')}
          clearable
          placeholder={t('app.all')}
          data={STATUSES.map((s) => ({ value: s, label: t(`expStatus.${s}`) }))}
          value={status}
          onChange={(v) => set('status', v)}
        />
        <TextInput
          label={t('expenses.category')}
          value={categoryText}
          onChange={(e) => setCategoryText(e.currentTarget.value)}
          onBlur={() => set('category', categoryText.trim() || null)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') set('category', categoryText.trim() || null);
          }}
        />
        <DateField label={t('invoices.from')} clearable value={fromDate} onChange={(v) => set('from', v)} />
        <DateField label={t('invoices.to')} clearable value={toDate} onChange={(v) => set('to', v)} />
      </Group>
      {actionError ? <ErrorState error={actionError} /> : null}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : query.data.data.length === 0 ? (
        <Empty>{status || category || fromDate || toDate ? t('expenses.empty') : t('expenses.none')}</Empty>
      ) : (
        <>
          {narrow ? (
            <section aria-label={t('expenses.title')}>
              <Stack gap="sm">
                {query.data.data.map((e) => (
                  <Card key={e.id} withBorder padding="sm">
                    <Stack gap={4}>
                      <Group justify="space-between" wrap="nowrap">
                        <Text fw={600}>{e.expenseNumber}</Text>
                        <ExpenseStatusBadge status={e.status} />
                      </Group>
                      <Text size="sm" c="dimmed">
                        {[f.date(e.expenseDate), e.vendorName, e.category].filter(Boolean).join(' · ')}
                      </Text>
                      <Text fw={700}>{f.money(e.amount, e.currencyCode)}</Text>
                      <Group gap={4}>
                        {e.receiptUrl ? receiptButton(e, true) : null}
                        {canWrite ? actions(e) : null}
                      </Group>
                    </Stack>
                  </Card>
                ))}
              </Stack>
            </section>
          ) : (
            <ScrollTable minWidth={720} label={t('expenses.title')}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('invoices.number')}</Table.Th>
                    <Table.Th>{t('expenses.date')}</Table.Th>
                    <Table.Th>{t('expenses.vendor')}</Table.Th>
                    <Table.Th>{t('expenses.category')}</Table.Th>
                    <Table.Th ta="right">{t('expenses.amount')}</Table.Th>
                    <Table.Th>{t('expenses.status')}</Table.Th>
                    <Table.Th>{t('expenses.receipt')}</Table.Th>
                    {canWrite ? <Table.Th>{t('expenses.actions')}</Table.Th> : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.data.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{e.expenseNumber}</Table.Td>
                      <Table.Td>{f.date(e.expenseDate)}</Table.Td>
                      <Table.Td>{e.vendorName ?? '—'}</Table.Td>
                      <Table.Td>{e.category}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {f.money(e.amount, e.currencyCode)}
                      </Table.Td>
                      <Table.Td>
                        <ExpenseStatusBadge status={e.status} />
                      </Table.Td>
                      <Table.Td>{receiptButton(e)}</Table.Td>
                      {canWrite ? (
                        <Table.Td>
                          <Group gap={4} wrap="nowrap">
                            {actions(e)}
                          </Group>
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
      {creating ? (
        <ExpenseForm
          onClose={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            refresh();
          }}
        />
      ) : null}
      {editing ? (
        <ExpenseEdit
          id={editing.id}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
            queryClient.invalidateQueries({ queryKey: ['receipt', editing.id] });
          }}
        />
      ) : null}
      {preview ? <ReceiptPreview expense={preview} onClose={() => setPreview(null)} /> : null}
      {paying ? (
        <PayForm
          expense={paying}
          onClose={() => setPaying(null)}
          onDone={() => {
            setPaying(null);
            refresh();
            queryClient.invalidateQueries({ queryKey: ['bank-accounts'] });
          }}
        />
      ) : null}
      {rejecting ? (
        <RejectForm
          expense={rejecting}
          onClose={() => setRejecting(null)}
          onDone={() => {
            setRejecting(null);
            refresh();
          }}
        />
      ) : null}
    </Stack>
  );
}

interface ExpenseValues {
  vendorId: string | null;
  expenseDate: string;
  category: string;
  amount: number | undefined;
  taxAmount: number | undefined;
  description: string;
}

/** A pending expense, read in full (the list has no tax or description), then the same form as a new one. */
function ExpenseEdit({ id, onClose, onSaved }: { id: string; onClose: () => void; onSaved: () => void }) {
  const { t } = useI18n();
  const query = useQuery({
    queryKey: ['expense', id],
    gcTime: 0,
    queryFn: async () => unwrap(await api.GET('/api/v1/expenses/{id}', { params: { path: { id } } })),
  });
  if (query.data) return <ExpenseForm expense={query.data} onClose={onClose} onSaved={onSaved} />;
  return (
    <Modal opened onClose={onClose} title={t('app.edit')} closeButtonProps={{ 'aria-label': t('app.close') }}>
      {query.isError ? <ErrorState error={query.error} retry={() => query.refetch()} /> : <Loading />}
    </Modal>
  );
}

/**
 * A new expense (POST, multipart with the receipt) or a pending one changed (PUT). An edit sends the
 * fields as JSON, where a cleared vendor or description is a null the service stores (a multipart
 * form cannot say "cleared"), then the new receipt, if one was dropped, as its own multipart PUT.
 */
function ExpenseForm({
  expense,
  onClose,
  onSaved,
}: {
  expense?: ExpenseDetail;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, locale } = useI18n();
  const { me } = useAuth();
  const [file, setFile] = useState<FileWithPath | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const form = useForm<ExpenseValues>({
    defaultValues: expense
      ? {
          vendorId: expense.vendorId,
          expenseDate: expense.expenseDate,
          category: expense.category,
          amount: Number(expense.amount),
          taxAmount: Number(expense.taxAmount) || undefined,
          description: expense.description ?? '',
        }
      : {
          vendorId: null,
          expenseDate: today(),
          category: '',
          amount: undefined,
          taxAmount: undefined,
          description: '',
        },
  });

  const errors = useFieldErrors(error);
  const separators = numberSeparators(locale);
  const currency = expense?.currencyCode ?? me?.organization.baseCurrency ?? '';

  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    if (expense) {
      try {
        // The same fields again on a retry after a failed receipt upload: a PUT replaces, so no harm.
        unwrap(
          await api.PUT('/api/v1/expenses/{id}', {
            params: { path: { id: expense.id } },
            body: {
              vendorId: v.vendorId,
              expenseDate: v.expenseDate,
              category: v.category.trim(),
              ...(v.amount !== undefined ? { amount: v.amount } : {}),
              taxAmount: v.taxAmount ?? 0,
              description: v.description.trim() || null,
            },
          }),
        );
        if (file) {
          const body = new FormData();
          body.set('receiptFile', file, file.name);
          setProgress(0);
          await upload('PUT', `/api/v1/expenses/${expense.id}`, body, setProgress);
        }
        onSaved();
      } catch (err) {
        setError(err);
        setProgress(null);
      }
      return;
    }
    const body = new FormData();
    if (v.vendorId) body.set('vendorId', v.vendorId);
    body.set('expenseDate', v.expenseDate);
    body.set('category', v.category.trim());
    if (v.amount !== undefined) body.set('amount', String(v.amount));
    if (v.taxAmount !== undefined) body.set('taxAmount', String(v.taxAmount));
    if (v.description.trim()) body.set('description', v.description.trim());
    // The file goes last: the service reads the text fields before it streams the receipt.
    if (file) body.set('receiptFile', file, file.name);
    setProgress(file ? 0 : null);
    try {
      await upload('POST', '/api/v1/expenses', body, file ? setProgress : undefined);
      onSaved();
    } catch (err) {
      setError(err);
      setProgress(null);
    }
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={expense ? t('expenses.editTitle', { number: expense.expenseNumber }) : t('expenses.new')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Controller
              control={form.control}
              name="vendorId"
              render={({ field }) => (
                <ContactSelect
                  side="vendor"
                  label={t('expenses.vendor')}
                  clearable
                  placeholder={t('expenses.noVendor')}
                  error={errors.vendorId}
                  value={field.value}
                  onChange={(c) => field.onChange(c?.id ?? null)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="expenseDate"
              rules={{ required: true }}
              render={({ field }) => (
                <DateField
                  label={t('expenses.date')}
                  required
                  error={errors.expenseDate}
                  value={field.value}
                  onChange={(d) => field.onChange(d ?? '')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="category"
              rules={{ validate: (v) => v.trim().length > 0 }}
              render={({ field, fieldState }) => (
                <Autocomplete
                  label={t('expenses.category')}
                  required
                  data={CATEGORIES.map((k) => t(k))}
                  error={errors.category ?? (fieldState.invalid ? t('expenses.required') : undefined)}
                  value={field.value}
                  onChange={field.onChange}
                />
              )}
            />
            <Controller
              control={form.control}
              name="amount"
              rules={{ validate: (v) => v !== undefined && v > 0 }}
              render={({ field, fieldState }) => (
                <NumberInput
                  label={`${t('expenses.amount')} (${currency})`}
                  required
                  hideControls
                  min={0}
                  decimalScale={2}
                  {...separators}
                  error={errors.amount ?? (fieldState.invalid ? t('expenses.required') : undefined)}
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="taxAmount"
              render={({ field }) => (
                <NumberInput
                  label={t('expenses.taxAmount')}
                  description={t('expenses.taxHelp')}
                  hideControls
                  min={0}
                  decimalScale={2}
                  {...separators}
                  error={errors.taxAmount}
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                />
              )}
            />
          </SimpleGrid>
          <Textarea
            label={t('expenses.description')}
            autosize
            minRows={2}
            error={errors.description}
            {...form.register('description')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="receipt-label">
              {t('expenses.receipt')}
            </Text>
            <Dropzone
              onDrop={(files) => {
                setFile(files[0] ?? null);
                setFileError(null);
              }}
              onReject={() => setFileError(t('expenses.receiptRejected'))}
              accept={RECEIPT_TYPES}
              maxSize={MAX_RECEIPT}
              multiple={false}
              aria-labelledby="receipt-label"
              inputProps={{ 'aria-label': t('expenses.receipt') }}
            >
              <Stack gap={2} align="center" py="md" style={{ pointerEvents: 'none' }}>
                <Text size="sm" ta="center">
                  {file ? file.name : expense?.receiptUrl ? t('expenses.replaceReceipt') : t('expenses.dropHere')}
                </Text>
                <Text size="xs" c="dimmed" ta="center">
                  {t('expenses.receiptTypes')}
                </Text>
              </Stack>
            </Dropzone>
            {fileError ? (
              <Text size="sm" c="red.9" role="alert">
                {fileError}
              </Text>
            ) : null}
            {progress !== null ? (
              <Progress
                value={Math.round(progress * 100)}
                aria-label={t('expenses.uploading')}
                size="lg"
                animated={progress < 1}
              />
            ) : null}
          </Stack>
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

/** The receipt in the page: an image inline, a PDF embedded with a link to open it. */
function ReceiptPreview({ expense, onClose }: { expense: Expense; onClose: () => void }) {
  const { t } = useI18n();
  const path = expense.receiptUrl ?? `/api/v1/expenses/${expense.id}/receipt`;
  const query = useQuery({ queryKey: ['receipt', expense.id], queryFn: () => fetchBlob(path), gcTime: 0 });
  useEffect(() => () => (query.data ? URL.revokeObjectURL(query.data.url) : undefined), [query.data]);
  const title = t('expenses.receiptOf', { number: expense.expenseNumber });
  return (
    <Modal opened onClose={onClose} title={title} size="xl" closeButtonProps={{ 'aria-label': t('app.close') }}>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : (
        <Stack>
          {query.data.type.startsWith('image/') ? (
            <Image src={query.data.url} alt={title} fit="contain" mah={640} />
          ) : (
            <iframe title={title} src={query.data.url} style={{ width: '100%', height: 560, border: 0 }} />
          )}
          <Anchor href={query.data.url} target="_blank" rel="noopener" download={query.data.filename ?? undefined}>
            {t('expenses.openReceipt')}
          </Anchor>
        </Stack>
      )}
    </Modal>
  );
}

function PayForm({ expense, onClose, onDone }: { expense: Expense; onClose: () => void; onDone: () => void }) {
  const { t } = useI18n();
  const f = useFormat();
  const banks = useBankAccounts();
  const [paidAt, setPaidAt] = useState<string | null>(today() < expense.expenseDate ? expense.expenseDate : today());
  const [bankAccountId, setBankAccountId] = useState<string | null>(null);
  const pay = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PATCH('/api/v1/expenses/{id}/pay', {
          params: { path: { id: expense.id } },
          body: { paidAt: paidAt ?? today(), bankAccountId },
        }),
      ),
    onSuccess: onDone,
  });
  useEffect(() => {
    if (bankAccountId === null && banks.data?.[0]) setBankAccountId(banks.data[0].id);
  }, [banks.data, bankAccountId]);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('expenses.payTitle', { number: expense.expenseNumber })}
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <Stack>
        <Text size="sm">{f.money(expense.amount, expense.currencyCode)}</Text>
        <DateField
          label={t('expenses.paidAt')}
          required
          minDate={expense.expenseDate}
          value={paidAt}
          onChange={setPaidAt}
        />
        <Select
          label={t('expenses.payFrom')}
          description={banks.data?.length === 0 ? t('expenses.noBankAccount') : undefined}
          data={(banks.data ?? []).map((b) => ({
            value: b.id,
            label: `${b.bankName}${b.accountNumber ? ` · ${b.accountNumber}` : ''}`,
          }))}
          value={bankAccountId}
          onChange={setBankAccountId}
        />
        {pay.isError ? <ErrorState error={pay.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('app.cancel')}
          </Button>
          <Button loading={pay.isPending} onClick={() => pay.mutate()}>
            {t('expenses.pay')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RejectForm({ expense, onClose, onDone }: { expense: Expense; onClose: () => void; onDone: () => void }) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const reject = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PATCH('/api/v1/expenses/{id}/reject', {
          params: { path: { id: expense.id } },
          body: reason.trim() ? { reason: reason.trim() } : {},
        }),
      ),
    onSuccess: onDone,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('expenses.rejectTitle', { number: expense.expenseNumber })}
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <Stack>
        <Textarea label={t('expenses.reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        {reject.isError ? <ErrorState error={reject.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('app.cancel')}
          </Button>
          <Button color="red.9" loading={reject.isPending} onClick={() => reject.mutate()}>
            {t('expenses.reject')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
