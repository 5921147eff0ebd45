import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Dropzone, type FileWithPath } from '@mantine/dropzone';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { upload } from '../api/upload.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { useFormat } from '../ui/format.js';
import { Pager } from '../ui/Pager.js';
import { Empty, ErrorState, Loading } from '../ui/states.js';
import { type BankAccount as Bank, useBankAccounts } from './money.js';
import '@mantine/dropzone/styles.css';

type LinesPage =
  paths['/api/v1/bank-accounts/{id}/transactions']['get']['responses'][200]['content']['application/json'];
type Line = LinesPage['data'][number];
type Posting = paths['/api/v1/transactions/{id}']['get']['responses'][200]['content']['application/json'];
type ImportSummary =
  paths['/api/v1/bank-accounts/{id}/import']['post']['responses'][200]['content']['application/json'];

const PER_PAGE = 20;
const MAX_STATEMENT = 5 * 1024 * 1024;

/** One bank account: statement import with its summary, and reconciliation of each statement line. */
export default function BankAccountPage() {
  const { id = '' } = useParams();
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite } = useAuth();
  const banks = useBankAccounts();
  const bank = banks.data?.find((b) => b.id === id);
  if (banks.isPending) return <Loading />;
  if (banks.isError) return <ErrorState error={banks.error} retry={() => banks.refetch()} />;
  if (!bank) return <Empty>{t('app.notFound')}</Empty>;
  return (
    <Stack>
      <Anchor component={Link} to="/banking" size="sm">
        ← {t('banking.title')}
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {bank.bankName}
          </Title>
          <Text size="sm" c="dimmed">
            {bank.iban ?? bank.accountNumber ?? bank.accountCode}
          </Text>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            {t('banking.balance')}
          </Text>
          <Text fw={700} size="lg" data-testid="bank-balance">
            {f.money(bank.currentBalance, bank.currencyCode)}
          </Text>
        </div>
      </Group>
      {canWrite ? <StatementImport bank={bank} /> : null}
      <Lines bank={bank} />
    </Stack>
  );
}

function StatementImport({ bank }: { bank: Bank }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<FileWithPath | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const run = useMutation({
    mutationFn: async (statement: File) => {
      const body = new FormData();
      body.set('file', statement, statement.name);
      setProgress(0);
      return upload<ImportSummary>('POST', `/api/v1/bank-accounts/${bank.id}/import`, body, setProgress);
    },
    onSuccess: () => {
      setFile(null);
      queryClient.invalidateQueries({ queryKey: ['bank-lines', bank.id] });
      queryClient.invalidateQueries({ queryKey: ['bank-accounts'] });
    },
    onSettled: () => setProgress(null),
  });
  const summary = run.data;
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4" id="import-title">
          {t('banking.import')}
        </Title>
        <Dropzone
          onDrop={(files) => {
            setFile(files[0] ?? null);
            setFileError(null);
            run.reset();
          }}
          onReject={() => setFileError(t('banking.fileRejected'))}
          accept={['text/csv', 'text/plain', 'application/vnd.ms-excel', '.csv']}
          maxSize={MAX_STATEMENT}
          multiple={false}
          aria-labelledby="import-title"
          inputProps={{ 'aria-label': t('banking.statementFile') }}
        >
          <Stack gap={2} align="center" py="sm" style={{ pointerEvents: 'none' }}>
            <Text size="sm" ta="center">
              {file ? file.name : t('banking.dropHere')}
            </Text>
            <Text size="xs" c="dimmed" ta="center">
              {t('banking.csvHelp')}
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
            size="lg"
            animated
            aria-label={t('banking.importing')}
            aria-valuetext={`${Math.round(progress * 100)} %`}
          />
        ) : null}
        <Group>
          <Button disabled={!file} loading={run.isPending} onClick={() => file && run.mutate(file)}>
            {t('banking.importButton')}
          </Button>
        </Group>
        {run.isError ? <ErrorState error={run.error} /> : null}
        {summary ? <ImportResult summary={summary} /> : null}
      </Stack>
    </Card>
  );
}

/**
 * The import's outcome: green when every row came in, orange when lines were imported and some rows
 * were skipped, red only when nothing was imported. Row problems are shown as the service words them
 * (in the organization's language), marked with that language.
 */
function ImportResult({ summary }: { summary: ImportSummary }) {
  const { t } = useI18n();
  const { me } = useAuth();
  const errors = summary.errors.length;
  const failed = errors > 0 && summary.imported === 0 && summary.duplicates === 0;
  const color = failed ? 'red.9' : errors ? 'orange.9' : 'teal.9';
  const title = failed
    ? t('banking.importFailed')
    : errors
      ? t('banking.importPartly', { n: errors })
      : t('banking.importDone');
  return (
    <Alert
      variant="outline"
      color={color}
      title={title}
      role="status"
      data-testid="import-summary"
      data-outcome={failed ? 'failed' : errors ? 'partly' : 'done'}
      // Mantine's orange 9 is 3.9:1 on white: the title takes a darker orange (6.5:1).
      styles={failed || !errors ? undefined : { title: { color: '#a63b00' } }}
    >
      <Stack gap="xs">
        <Group gap="lg">
          <Text size="sm">{t('banking.imported', { n: summary.imported })}</Text>
          <Text size="sm">{t('banking.duplicates', { n: summary.duplicates })}</Text>
          <Text size="sm">{t('banking.errorCount', { n: errors })}</Text>
        </Group>
        {errors ? (
          // Two columns fit a phone: no sideways scrolling box (it pushed the title past the edge at 375 px).
          <Table layout="fixed" aria-label={t('banking.rowErrors')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={64}>{t('banking.line')}</Table.Th>
                <Table.Th>{t('banking.problem')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {summary.errors.map((e) => (
                <Table.Tr key={`${e.line}-${e.error}`} data-testid="import-row-error">
                  <Table.Td>{e.line}</Table.Td>
                  <Table.Td lang={me?.organization.language} style={{ overflowWrap: 'anywhere' }}>
                    {e.error}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** Postings on the bank's ledger account around the page's dates: the candidates a line can be matched with. */
function useCandidates(bank: Bank, lines: Line[], suggested: string[]) {
  const dates = lines.map((l) => l.transactionDate).sort();
  const from = dates.length ? dayjs(dates[0]).subtract(7, 'day').format('YYYY-MM-DD') : null;
  const to = dates.length
    ? dayjs(dates[dates.length - 1])
        .add(7, 'day')
        .format('YYYY-MM-DD')
    : null;
  const near = useQuery({
    queryKey: ['bank-postings', bank.accountId, from, to],
    enabled: from !== null,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/transactions', {
          params: {
            query: {
              accountId: bank.accountId,
              fromDate: from ?? undefined,
              toDate: to ?? undefined,
              perPage: '100',
              sort: 'transactionDate',
              order: 'asc',
            },
          },
        }),
      ).data as Posting[],
  });
  const known = new Set((near.data ?? []).map((p) => p.id));
  // A suggestion matched on the amount alone may lie further away than a week: read it by id.
  const far = useQueries({
    queries: suggested
      .filter((id) => near.data && !known.has(id))
      .map((id) => ({
        queryKey: ['posting', id],
        queryFn: async () => unwrap(await api.GET('/api/v1/transactions/{id}', { params: { path: { id } } })),
      })),
  });
  const all = new Map<string, Posting>();
  for (const p of near.data ?? []) all.set(p.id, p);
  for (const q of far) if (q.data) all.set(q.data.id, q.data);
  return { postings: all, isPending: near.isPending && from !== null };
}

/** Candidates for one line, best first: the service's suggestion (its score), then same amount on the right side, then closest date. */
function rank(line: Line, bank: Bank, postings: Map<string, Posting>, suggestion?: { glTxId: string; score: number }) {
  const amount = Number(line.amount);
  const rows = [...postings.values()]
    .filter((p) => !p.reconciled && (p.id === suggestion?.glTxId || rightSide(p, bank, amount)))
    .map((p) => ({
      posting: p,
      score: p.id === suggestion?.glTxId ? suggestion.score : null,
      sameAmount: rightSide(p, bank, amount) && Number(p.amount) === Math.abs(amount),
      days: Math.abs(dayjs(p.transactionDate).diff(line.transactionDate, 'day')),
    }));
  rows.sort(
    (a, b) => (b.score ?? -1) - (a.score ?? -1) || Number(b.sameAmount) - Number(a.sameAmount) || a.days - b.days,
  );
  return rows.slice(0, 10);
}

const rightSide = (p: Posting, bank: Bank, amount: number) =>
  amount > 0 ? p.debitAccountId === bank.accountId : p.creditAccountId === bank.accountId;

function Lines({ bank }: { bank: Bank }) {
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite } = useAuth();
  const [filter, setFilter] = useState<'open' | 'all'>('open');
  const [page, setPage] = useState(1);
  const [matching, setMatching] = useState<Line | null>(null);
  const query = useQuery({
    queryKey: ['bank-lines', bank.id, filter, page],
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/bank-accounts/{id}/transactions', {
          params: {
            path: { id: bank.id },
            query: {
              page: String(page),
              perPage: String(PER_PAGE),
              sort: 'transactionDate',
              order: 'desc',
              ...(filter === 'open' ? { reconciled: 'false' as const } : {}),
            },
          },
        }),
      ),
  });
  const lines = query.data?.data ?? [];
  const suggestions = new Map((query.data?.suggestions ?? []).map((s) => [s.bankTxId, s]));
  const candidates = useCandidates(
    bank,
    lines.filter((l) => !l.reconciled),
    [...suggestions.values()].map((s) => s.glTxId),
  );
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: async (v: { line: Line; postingId: string }) =>
      unwrap(
        await api.POST('/api/v1/bank-accounts/{id}/reconcile', {
          params: { path: { id: bank.id } },
          body: { bankTransactionId: v.line.id, transactionId: v.postingId },
        }),
      ),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['bank-lines', bank.id] });
      queryClient.invalidateQueries({ queryKey: ['bank-postings'] });
    },
  });

  const undo = useMutation({
    mutationFn: async (line: Line) =>
      unwrap(
        await api.POST('/api/v1/bank-accounts/{id}/unreconcile', {
          params: { path: { id: bank.id } },
          body: { bankTransactionId: line.id },
        }),
      ),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['bank-lines', bank.id] });
      queryClient.invalidateQueries({ queryKey: ['bank-postings'] });
    },
  });

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4">
          {t('recon.title')}
        </Title>
        <SegmentedControl
          aria-label={t('recon.show')}
          value={filter}
          onChange={(v) => {
            setFilter(v as 'open' | 'all');
            setPage(1);
          }}
          data={[
            { value: 'open', label: t('recon.open') },
            { value: 'all', label: t('recon.all') },
          ]}
        />
      </Group>
      {accept.isError ? <ErrorState error={accept.error} /> : null}
      {undo.isError ? <ErrorState error={undo.error} /> : null}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : lines.length === 0 ? (
        <Empty>{filter === 'open' ? t('recon.allDone') : t('recon.empty')}</Empty>
      ) : (
        <>
          <Stack gap="sm">
            {lines.map((line) => {
              const ranked = line.reconciled ? [] : rank(line, bank, candidates.postings, suggestions.get(line.id));
              // Inline only a real match: the service's suggestion or a posting of the same amount.
              const best = ranked[0] && (ranked[0].score !== null || ranked[0].sameAmount) ? ranked[0] : undefined;
              return (
                <Card key={line.id} withBorder padding="sm" data-testid="bank-line">
                  <Stack gap={6}>
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <div style={{ minWidth: 0 }}>
                        <Text size="sm" c="dimmed">
                          {f.date(line.transactionDate)}
                          {line.reference ? ` · ${line.reference}` : ''}
                        </Text>
                        <Text style={{ overflowWrap: 'anywhere' }}>{line.description ?? '—'}</Text>
                      </div>
                      <Text fw={700} style={{ whiteSpace: 'nowrap' }} c={Number(line.amount) < 0 ? 'red.9' : 'teal.9'}>
                        {f.money(line.amount, bank.currencyCode)}
                      </Text>
                    </Group>
                    {line.reconciled ? (
                      <Group gap="xs" justify="space-between">
                        <Badge color="teal.9" variant="filled" autoContrast>
                          {t('recon.reconciled')}
                        </Badge>
                        {canWrite ? (
                          <Button
                            size="xs"
                            variant="subtle"
                            loading={undo.isPending && undo.variables?.id === line.id}
                            onClick={() => {
                              if (window.confirm(t('recon.undoConfirm'))) undo.mutate(line);
                            }}
                          >
                            {t('recon.undo')}
                          </Button>
                        ) : null}
                      </Group>
                    ) : candidates.isPending ? (
                      <Text size="sm" c="dimmed">
                        {t('app.loading')}
                      </Text>
                    ) : (
                      <Group justify="space-between" gap="xs" align="center">
                        {best ? (
                          <Text size="sm" style={{ flex: 1, minWidth: 180 }}>
                            {t('recon.suggested')}: {best.posting.description}
                            {best.score !== null ? (
                              <Badge ml="xs" variant="outline" color="blue.9">
                                {t('recon.score', { score: best.score })}
                              </Badge>
                            ) : null}
                          </Text>
                        ) : (
                          <Text size="sm" c="dimmed" style={{ flex: 1, minWidth: 180 }}>
                            {t('recon.noSuggestion')}
                          </Text>
                        )}
                        {canWrite ? (
                          <Group gap={6} wrap="nowrap">
                            {best ? (
                              <Button
                                size="xs"
                                loading={accept.isPending && accept.variables?.line.id === line.id}
                                onClick={() => accept.mutate({ line, postingId: best.posting.id })}
                              >
                                {t('recon.accept')}
                              </Button>
                            ) : null}
                            <Button size="xs" variant="default" onClick={() => setMatching(line)}>
                              {t('recon.more')}
                            </Button>
                          </Group>
                        ) : null}
                      </Group>
                    )}
                  </Stack>
                </Card>
              );
            })}
          </Stack>
          <Pager page={page} pages={query.data.meta.totalPages} onPage={setPage} />
        </>
      )}
      {matching ? (
        <MatchDialog
          bank={bank}
          line={matching}
          ranked={rank(matching, bank, candidates.postings, suggestions.get(matching.id))}
          onClose={() => setMatching(null)}
          onDone={() => {
            setMatching(null);
            queryClient.invalidateQueries({ queryKey: ['bank-lines', bank.id] });
            queryClient.invalidateQueries({ queryKey: ['bank-postings'] });
            queryClient.invalidateQueries({ queryKey: ['invoices'] });
            queryClient.invalidateQueries({ queryKey: ['expenses'] });
          }}
        />
      ) : null}
    </Stack>
  );
}

/** An open document (unpaid invoice for money in, approved expense for money out) the line may pay. */
interface OpenDocument {
  kind: 'invoice' | 'expense';
  id: string;
  number: string;
  party: string | null;
  date: string;
  amount: string;
  currencyCode: string;
}

function useOpenDocuments(line: Line) {
  const incoming = Number(line.amount) > 0;
  return useQuery({
    queryKey: ['open-documents', incoming],
    queryFn: async (): Promise<OpenDocument[]> => {
      if (incoming) {
        // The open invoices of each open status (the newest 100 of each): not the newest 100 invoices of any
        // status, where a busy month's drafts and paid ones hid an older invoice still waiting for its money.
        const pages = await Promise.all(
          (['sent', 'viewed', 'overdue'] as const).map(async (status) =>
            unwrap(
              await api.GET('/api/v1/invoices', {
                params: { query: { perPage: '100', status, sort: 'invoiceDate', order: 'desc' } },
              }),
            ),
          ),
        );
        return pages
          .flatMap((page) => page.data)
          .sort((a, b) => b.invoiceDate.localeCompare(a.invoiceDate))
          .map((i) => ({
            kind: 'invoice',
            id: i.id,
            number: i.invoiceNumber,
            party: i.customerName,
            date: i.invoiceDate,
            amount: i.totalAmount,
            currencyCode: i.currencyCode,
          }));
      }
      const page = unwrap(
        await api.GET('/api/v1/expenses', {
          params: { query: { perPage: '100', status: 'approved', sort: 'expenseDate', order: 'desc' } },
        }),
      );
      return page.data.map((e) => ({
        kind: 'expense',
        id: e.id,
        number: e.expenseNumber,
        party: e.vendorName,
        date: e.expenseDate,
        amount: e.amount,
        currencyCode: e.currencyCode,
      }));
    },
  });
}

function MatchDialog({
  bank,
  line,
  ranked,
  onClose,
  onDone,
}: {
  bank: Bank;
  line: Line;
  ranked: ReturnType<typeof rank>;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const f = useFormat();
  const documents = useOpenDocuments(line);
  const narrow = useMediaQuery('(max-width: 40em)');
  const amount = Math.abs(Number(line.amount));
  const text = `${line.reference ?? ''} ${line.description ?? ''}`.toLowerCase();
  const docs = (documents.data ?? [])
    .filter((d) => d.currencyCode === bank.currencyCode)
    .map((d) => ({ ...d, sameAmount: Number(d.amount) === amount, named: text.includes(d.number.toLowerCase()) }))
    .sort((a, b) => Number(b.named) - Number(a.named) || Number(b.sameAmount) - Number(a.sameAmount))
    .slice(0, 8);

  const reconcile = async (
    match:
      | { transactionId: string }
      | { invoiceId: string }
      | { expenseId: string }
      | { entry: { accountId: string; description: string } },
  ) =>
    unwrap(
      await api.POST('/api/v1/bank-accounts/{id}/reconcile', {
        params: { path: { id: bank.id } },
        body: { bankTransactionId: line.id, ...match },
      }),
    );
  const acceptPosting = useMutation({
    mutationFn: (transactionId: string) => reconcile({ transactionId }),
    onSuccess: onDone,
  });
  /** Pays the document from this bank account on the line's date and matches its payment: one request, one transaction. */
  const payDocument = useMutation({
    mutationFn: (d: OpenDocument) => reconcile(d.kind === 'invoice' ? { invoiceId: d.id } : { expenseId: d.id }),
    onSuccess: onDone,
  });
  const busy = acceptPosting.isPending || payDocument.isPending;
  const error = acceptPosting.error ?? payDocument.error;

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      fullScreen={narrow}
      title={t('recon.matchTitle')}
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <Stack>
        <Card withBorder padding="sm">
          <Group justify="space-between" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              <Text size="sm" c="dimmed">
                {f.date(line.transactionDate)}
                {line.reference ? ` · ${line.reference}` : ''}
              </Text>
              <Text style={{ overflowWrap: 'anywhere' }}>{line.description ?? '—'}</Text>
            </div>
            <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
              {f.money(line.amount, bank.currencyCode)}
            </Text>
          </Group>
        </Card>
        {error ? <ErrorState error={error} /> : null}

        <Title order={3} size="h5">
          {t('recon.candidates')}
        </Title>
        {ranked.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('recon.noCandidates')}
          </Text>
        ) : (
          <Stack gap={6}>
            {ranked.map((r) => (
              <Group key={r.posting.id} justify="space-between" wrap="wrap" gap="xs">
                <div style={{ flex: 1, minWidth: 200 }}>
                  <Text size="sm">{r.posting.description}</Text>
                  <Text size="xs" c="dimmed">
                    {f.date(r.posting.transactionDate)} · {f.money(r.posting.amount, r.posting.currencyCode)}
                    {r.score !== null ? ` · ${t('recon.score', { score: r.score })}` : ''}
                    {r.sameAmount ? ` · ${t('recon.sameAmount')}` : ''}
                  </Text>
                </div>
                <Button
                  size="xs"
                  disabled={busy}
                  loading={acceptPosting.isPending && acceptPosting.variables === r.posting.id}
                  onClick={() => acceptPosting.mutate(r.posting.id)}
                >
                  {t('recon.accept')}
                </Button>
              </Group>
            ))}
          </Stack>
        )}

        <Title order={3} size="h5">
          {Number(line.amount) > 0 ? t('recon.openInvoices') : t('recon.approvedExpenses')}
        </Title>
        {documents.isPending ? (
          <Loading />
        ) : documents.isError ? (
          <ErrorState error={documents.error} retry={() => documents.refetch()} />
        ) : docs.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('recon.noDocuments')}
          </Text>
        ) : (
          <Stack gap={6}>
            {docs.map((d) => (
              <Group key={d.id} justify="space-between" wrap="wrap" gap="xs">
                <div style={{ flex: 1, minWidth: 200 }}>
                  <Text size="sm">
                    {d.number}
                    {d.party ? ` · ${d.party}` : ''}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {f.date(d.date)} · {f.money(d.amount, d.currencyCode)}
                    {d.sameAmount ? ` · ${t('recon.sameAmount')}` : ''}
                  </Text>
                </div>
                <Button
                  size="xs"
                  variant="outline"
                  disabled={busy}
                  loading={payDocument.isPending && payDocument.variables?.id === d.id}
                  aria-label={t('recon.payAndMatchNumber', { number: d.number })}
                  onClick={() => payDocument.mutate(d)}
                >
                  {t('recon.payAndMatch')}
                </Button>
              </Group>
            ))}
          </Stack>
        )}

        <NewEntry bank={bank} line={line} disabled={busy} onDone={onDone} reconcile={(entry) => reconcile({ entry })} />
      </Stack>
    </Modal>
  );
}

/** Posts a new journal entry for the line (bank against the chosen account) and matches it, in one request. */
function NewEntry({
  bank,
  line,
  disabled,
  onDone,
  reconcile,
}: {
  bank: Bank;
  line: Line;
  disabled: boolean;
  onDone: () => void;
  reconcile: (entry: { accountId: string; description: string }) => Promise<unknown>;
}) {
  const { t } = useI18n();
  const [accountId, setAccountId] = useState<string | null>(null);
  const [description, setDescription] = useState(line.description ?? line.reference ?? '');
  const accounts = useQuery({
    queryKey: ['accounts', 'active'],
    queryFn: async () => unwrap(await api.GET('/api/v1/accounts', { params: { query: { isActive: true } } })).data,
  });
  /** The posting and its match: one request, one transaction (the service picks the sides by the line's sign). */
  const post = useMutation({
    mutationFn: () => reconcile({ accountId: accountId ?? '', description: description.trim() || t('recon.bankLine') }),
    onSuccess: onDone,
  });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('recon.newEntry')}
      </Title>
      <Text size="xs" c="dimmed">
        {Number(line.amount) > 0 ? t('recon.newEntryIn') : t('recon.newEntryOut')}
      </Text>
      <Select
        label={t('recon.counterAccount')}
        searchable
        data={(accounts.data ?? [])
          .filter((a) => a.id !== bank.accountId)
          .map((a) => ({ value: a.id, label: `${a.code} ${a.name}` }))}
        value={accountId}
        onChange={setAccountId}
      />
      <TextInput
        label={t('expenses.description')}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
      />
      {post.isError ? <ErrorState error={post.error} /> : null}
      <Group>
        <Button
          variant="default"
          disabled={disabled || !accountId}
          loading={post.isPending}
          onClick={() => post.mutate()}
        >
          {t('recon.postAndMatch')}
        </Button>
      </Group>
    </Stack>
  );
}
