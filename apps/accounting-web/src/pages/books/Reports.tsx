import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import { BarChart } from '@mantine/charts';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import { type MessageKey, useI18n } from '../../i18n/index.js';
import { DateField } from '../../ui/DateField.js';
import { download } from '../../ui/download.js';
import { FigureCards, NARROW } from '../../ui/FigureCards.js';
import { useFormat } from '../../ui/format.js';
import { type PeriodPreset, presetRange, today } from '../../ui/period.js';
import { ScrollTable } from '../../ui/ScrollTable.js';
import { Empty, ErrorState, Loading } from '../../ui/states.js';

const KINDS = ['profit-loss', 'balance-sheet', 'cash-flow', 'vat', 'trial-balance', 'dashboard'] as const;
type Kind = (typeof KINDS)[number];
/** Reports of a period (from, to); the others are as of one date. */
const PERIOD: Record<Kind, 'range' | 'date' | 'none'> = {
  'profit-loss': 'range',
  'balance-sheet': 'date',
  'cash-flow': 'range',
  vat: 'range',
  'trial-balance': 'date',
  dashboard: 'none',
};
const TITLES: Record<Kind, MessageKey> = {
  'profit-loss': 'books.report.profitLoss',
  'balance-sheet': 'books.report.balanceSheet',
  'cash-flow': 'books.report.cashFlow',
  vat: 'books.report.vat',
  'trial-balance': 'books.report.trialBalance',
  dashboard: 'books.report.dashboard',
};
const PRESETS: Array<{ value: PeriodPreset; key: MessageKey }> = [
  { value: 'thisMonth', key: 'books.period.thisMonth' },
  { value: 'lastMonth', key: 'books.period.lastMonth' },
  { value: 'thisQuarter', key: 'books.period.thisQuarter' },
  { value: 'thisYear', key: 'books.period.thisYear' },
  { value: 'lastYear', key: 'books.period.lastYear' },
];

type Json<P extends keyof paths> = P extends keyof paths
  ? paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer T } } } } }
    ? T
    : never
  : never;

interface Query {
  from?: string;
  to?: string;
  date?: string;
}

/** The six reports of the service, each with its period, figures, charts where they help, and PDF/CSV export. */
export default function Reports() {
  const { kind: param } = useParams();
  const kind: Kind = (KINDS as readonly string[]).includes(param ?? '') ? (param as Kind) : 'profit-loss';
  const { t } = useI18n();
  const navigate = useNavigate();
  const [range, setRange] = useState(() => presetRange('thisMonth'));
  const [asOf, setAsOf] = useState(() => today());
  const mode = PERIOD[kind];
  const query: Query = mode === 'range' ? range : mode === 'date' ? { date: asOf } : {};
  const path = `/api/v1/reports/${kind}` as const;
  const report = useQuery({
    queryKey: ['report', kind, query],
    queryFn: async () => {
      const data = unwrap(await api.GET(path, { params: { query: { ...query, format: 'json' } } }));
      if (typeof data === 'string') throw new Error('unexpected CSV');
      return data;
    },
  });
  const exporter = useMutation({
    mutationFn: (format: 'pdf' | 'csv') => {
      const qs = new URLSearchParams({ ...query, format } as Record<string, string>).toString();
      const stamp = query.date ?? (query.from ? `${query.from}_${query.to}` : today());
      return download(`${path}?${qs}`, `${kind}-${stamp}.${format}`);
    },
  });

  const body = (
    <Stack>
      <Card withBorder p="sm">
        <Group align="flex-end" gap="sm" wrap="wrap">
          {mode === 'range' ? (
            <>
              <NativeSelect
                label={t('books.period')}
                data={[
                  { value: '', label: t('books.period.custom') },
                  ...PRESETS.map((p) => ({ value: p.value, label: t(p.key) })),
                ]}
                value={PRESETS.find((p) => sameRange(presetRange(p.value), range))?.value ?? ''}
                onChange={(e) => e.currentTarget.value && setRange(presetRange(e.currentTarget.value as PeriodPreset))}
              />
              <DateField
                label={t('invoices.from')}
                value={range.from}
                onChange={(v) => v && setRange((r) => ({ ...r, from: v }))}
                w={140}
              />
              <DateField
                label={t('invoices.to')}
                value={range.to}
                onChange={(v) => v && setRange((r) => ({ ...r, to: v }))}
                w={140}
              />
            </>
          ) : mode === 'date' ? (
            <DateField label={t('books.asOf')} value={asOf} onChange={(v) => v && setAsOf(v)} w={160} />
          ) : null}
          <Group gap="xs" ml={{ sm: 'auto' }}>
            <Button
              variant="default"
              onClick={() => exporter.mutate('pdf')}
              loading={exporter.isPending && exporter.variables === 'pdf'}
            >
              {t('books.export.pdf')}
            </Button>
            <Button
              variant="default"
              onClick={() => exporter.mutate('csv')}
              loading={exporter.isPending && exporter.variables === 'csv'}
            >
              {t('books.export.csv')}
            </Button>
          </Group>
        </Group>
      </Card>
      {exporter.error ? <ErrorState error={exporter.error} /> : null}
      <Title order={2} size="h3">
        {t(TITLES[kind])}
      </Title>
      {report.isPending ? (
        <Loading />
      ) : report.isError ? (
        <ErrorState error={report.error} retry={() => report.refetch()} />
      ) : (
        <ReportBody kind={kind} data={report.data} />
      )}
    </Stack>
  );
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('books.reports.title')}
      </Title>
      <Tabs value={kind} onChange={(v) => v && navigate(`/reports/${v}`)}>
        <Tabs.List>
          {KINDS.map((k) => (
            <Tabs.Tab key={k} value={k}>
              {t(TITLES[k])}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {KINDS.map((k) => (
          <Tabs.Panel key={k} value={k} pt="md">
            {k === kind ? body : null}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

function sameRange(a: { from: string; to: string }, b: { from: string; to: string }) {
  return a.from === b.from && a.to === b.to;
}

function ReportBody({ kind, data }: { kind: Kind; data: unknown }) {
  switch (kind) {
    case 'profit-loss':
      return <ProfitLoss r={data as Json<'/api/v1/reports/profit-loss'>} />;
    case 'balance-sheet':
      return <BalanceSheet r={data as Json<'/api/v1/reports/balance-sheet'>} />;
    case 'cash-flow':
      return <CashFlow r={data as Json<'/api/v1/reports/cash-flow'>} />;
    case 'vat':
      return <Vat r={data as Json<'/api/v1/reports/vat'>} />;
    case 'trial-balance':
      return <TrialBalance r={data as Json<'/api/v1/reports/trial-balance'>} />;
    case 'dashboard':
      return <Overview r={data as Json<'/api/v1/reports/dashboard'>} />;
  }
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId ?? 'figure'}>
        {value}
      </Text>
    </Card>
  );
}

/** Rows of (code, name, amount) with a total row. */
function AmountTable({
  label,
  rows,
  total,
  currency,
}: {
  label: string;
  rows: Array<{ code: string | null; name: string; amount: string }>;
  total?: string;
  currency: string;
}) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <Card withBorder p="xs">
      <Table aria-label={label} layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={64}>{t('books.code')}</Table.Th>
            <Table.Th>{label}</Table.Th>
            <Table.Th ta="right" w={{ base: 120, sm: 170 }}>
              {currency}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text size="sm" c="dimmed">
                  {t('books.report.noActivity')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((r) => (
              <Table.Tr key={`${r.code ?? ''}|${r.name}`}>
                <Table.Td>{r.code ?? ''}</Table.Td>
                <Table.Td style={{ overflowWrap: 'break-word' }}>{r.name}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {f.number(r.amount)}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
        {total !== undefined ? (
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th />
              <Table.Th>{t('invoices.total')}</Table.Th>
              <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
                {f.number(total)}
              </Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        ) : null}
      </Table>
    </Card>
  );
}

function ProfitLoss({ r }: { r: Json<'/api/v1/reports/profit-loss'> }) {
  const { t } = useI18n();
  const f = useFormat();
  const cur = r.baseCurrency;
  const chart = [
    ...r.revenue.accounts.map((a) => ({ name: a.accountName, revenue: Number(a.amount), expenses: 0 })),
    ...r.expenses.accounts.map((a) => ({ name: a.accountName, revenue: 0, expenses: Number(a.amount) })),
  ];
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Figure label={t('books.report.revenue')} value={f.money(r.revenue.total, cur)} />
        <Figure label={t('books.report.expenses')} value={f.money(r.expenses.total, cur)} />
        <Figure label={t('books.report.netProfit')} value={f.money(r.netProfit, cur)} testId="net-profit" />
      </SimpleGrid>
      {chart.length > 0 ? (
        <ChartCard title={t('books.report.byAccount')}>
          <BarChart
            h={Math.max(160, chart.length * 36)}
            data={chart}
            dataKey="name"
            orientation="vertical"
            type="stacked"
            yAxisProps={{ width: 130 }}
            series={[
              { name: 'revenue', label: t('books.report.revenue'), color: 'teal.8' },
              { name: 'expenses', label: t('books.report.expenses'), color: 'red.8' },
            ]}
            valueFormatter={(v) => f.number(v)}
            withLegend
          />
        </ChartCard>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <AmountTable
          label={t('books.report.revenue')}
          currency={cur}
          total={r.revenue.total}
          rows={r.revenue.accounts.map((a) => ({ code: a.accountCode, name: a.accountName, amount: a.amount }))}
        />
        <AmountTable
          label={t('books.report.expenses')}
          currency={cur}
          total={r.expenses.total}
          rows={r.expenses.accounts.map((a) => ({ code: a.accountCode, name: a.accountName, amount: a.amount }))}
        />
      </SimpleGrid>
    </Stack>
  );
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function BalanceSheet({ r }: { r: Json<'/api/v1/reports/balance-sheet'> }) {
  const { t } = useI18n();
  const f = useFormat();
  const cur = r.baseCurrency;
  const rows = (accounts: Array<{ accountCode: string | null; accountName: string; balance: string }>) =>
    accounts.map((a) => ({ code: a.accountCode, name: a.accountName, amount: a.balance }));
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Figure label={t('books.report.assets')} value={f.money(r.assets.total, cur)} />
        <Figure label={t('books.report.liabilities')} value={f.money(r.liabilities.total, cur)} />
        <Figure label={t('books.report.equity')} value={f.money(r.equity.total, cur)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack>
          <AmountTable
            label={t('books.report.currentAssets')}
            currency={cur}
            total={r.assets.current.total}
            rows={rows(r.assets.current.accounts)}
          />
          <AmountTable
            label={t('books.report.fixedAssets')}
            currency={cur}
            total={r.assets.fixed.total}
            rows={rows(r.assets.fixed.accounts)}
          />
        </Stack>
        <Stack>
          <AmountTable
            label={t('books.report.currentLiabilities')}
            currency={cur}
            total={r.liabilities.current.total}
            rows={rows(r.liabilities.current.accounts)}
          />
          <AmountTable
            label={t('books.report.longTermLiabilities')}
            currency={cur}
            total={r.liabilities.longTerm.total}
            rows={rows(r.liabilities.longTerm.accounts)}
          />
          <AmountTable
            label={t('books.report.equity')}
            currency={cur}
            total={r.equity.total}
            rows={rows(r.equity.accounts)}
          />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function CashFlow({ r }: { r: Json<'/api/v1/reports/cash-flow'> }) {
  const { t } = useI18n();
  const f = useFormat();
  const cur = r.baseCurrency;
  const sections = [
    { key: 'books.report.operating' as const, s: r.operating },
    { key: 'books.report.investing' as const, s: r.investing },
    { key: 'books.report.financing' as const, s: r.financing },
  ];
  const chart = sections.map(({ key, s }) => ({ name: t(key), amount: Number(s.total) }));
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Figure label={t('books.report.opening')} value={f.money(r.openingBalance, cur)} />
        <Figure label={t('books.report.netCashFlow')} value={f.money(r.netCashFlow, cur)} testId="net-cash-flow" />
        <Figure label={t('books.report.closing')} value={f.money(r.closingBalance, cur)} />
      </SimpleGrid>
      <ChartCard title={t('books.report.cashFlowChart')}>
        <BarChart
          h={220}
          data={chart}
          dataKey="name"
          series={[{ name: 'amount', label: t('books.report.netCashFlow'), color: 'blue.8' }]}
          valueFormatter={(v) => f.number(v)}
        />
      </ChartCard>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {sections.map(({ key, s }) => (
          <AmountTable
            key={key}
            label={t(key)}
            currency={cur}
            total={s.total}
            rows={s.items.map((i) => ({ code: i.accountCode, name: i.description, amount: i.amount }))}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function Vat({ r }: { r: Json<'/api/v1/reports/vat'> }) {
  const { t } = useI18n();
  const f = useFormat();
  const cur = r.baseCurrency;
  const s = r.reconciliationStatus;
  const narrow = useMediaQuery(NARROW);
  const docs = [
    ...(r.outputVAT.invoices ?? []).map((i) => ({
      kind: t('books.report.outputVat'),
      number: i.invoiceNumber,
      party: i.customerName,
      date: i.invoiceDate,
      base: i.baseAmount,
      rate: i.vatRate,
      vat: i.vatAmount,
    })),
    ...(r.inputVAT.expenses ?? []).map((e) => ({
      kind: t('books.report.inputVat'),
      number: e.expenseNumber,
      party: e.vendorName ?? '',
      date: e.expenseDate,
      base: e.baseAmount,
      rate: e.vatRate,
      vat: e.vatAmount,
    })),
  ];
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Figure label={t('books.report.outputVat')} value={f.money(r.outputVAT.total, cur)} />
        <Figure label={t('books.report.inputVat')} value={f.money(r.inputVAT.total, cur)} />
        <Figure label={t('books.report.netVat')} value={f.money(r.netVAT, cur)} testId="net-vat" />
      </SimpleGrid>
      <Group gap="xs">
        <Badge color={s.allInvoicesPaid ? 'teal.9' : 'red.9'} variant="filled" autoContrast>
          {s.allInvoicesPaid ? t('books.report.allPaid') : t('books.report.notAllPaid')}
        </Badge>
        <Badge color={s.allExpensesApproved ? 'teal.9' : 'red.9'} variant="filled" autoContrast>
          {s.allExpensesApproved ? t('books.report.allApproved') : t('books.report.notAllApproved')}
        </Badge>
        <Badge color={s.unmatchedTransactions === 0 ? 'teal.9' : 'red.9'} variant="filled" autoContrast>
          {t('books.report.unmatched', { n: s.unmatchedTransactions })}
        </Badge>
      </Group>
      {docs.length === 0 ? (
        <Empty>{t('books.report.noActivity')}</Empty>
      ) : narrow ? (
        // On a phone a card per document line: the table would hide the base and the VAT past the edge.
        <FigureCards
          label={t('books.report.vat')}
          testId="vat-card"
          cards={docs.map((d) => ({
            key: `${d.kind}|${d.number}|${d.rate}`,
            title: d.number,
            aside: d.kind,
            lines: [d.party, f.date(d.date)],
            figures: [
              [t('books.report.base'), f.number(d.base)],
              [t('invoices.taxRate'), `${f.number(d.rate)} %`],
              [t('invoices.tax'), f.number(d.vat)],
            ],
          }))}
        />
      ) : (
        <Card withBorder p="xs">
          <ScrollTable minWidth={720} label={t('books.report.vat')}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('books.report.vatKind')}</Table.Th>
                  <Table.Th>{t('invoices.number')}</Table.Th>
                  <Table.Th>{t('books.report.party')}</Table.Th>
                  <Table.Th>{t('books.date')}</Table.Th>
                  <Table.Th ta="right">{t('books.report.base')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.taxRate')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.tax')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {docs.map((d) => (
                  <Table.Tr key={`${d.kind}|${d.number}|${d.rate}`}>
                    <Table.Td>{d.kind}</Table.Td>
                    <Table.Td>{d.number}</Table.Td>
                    <Table.Td>{d.party}</Table.Td>
                    <Table.Td>{f.date(d.date)}</Table.Td>
                    <Table.Td ta="right">{f.number(d.base)}</Table.Td>
                    <Table.Td ta="right">{f.number(d.rate)} %</Table.Td>
                    <Table.Td ta="right">{f.number(d.vat)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </Card>
      )}
    </Stack>
  );
}

function TrialBalance({ r }: { r: Json<'/api/v1/reports/trial-balance'> }) {
  const { t } = useI18n();
  const f = useFormat();
  const narrow = useMediaQuery(NARROW);
  return (
    <Stack>
      {r.balanced ? (
        <Alert color="teal" role="status">
          {t('books.report.balanced')}
        </Alert>
      ) : (
        <Alert color="red" role="alert">
          {t('books.report.notBalanced')}
        </Alert>
      )}
      {r.accounts.length === 0 ? (
        <Empty>{t('books.report.noActivity')}</Empty>
      ) : narrow ? (
        // On a phone a card per account, and one for the totals: the table would hide the figures past the edge.
        <FigureCards
          label={t('books.report.trialBalance')}
          testId="trial-card"
          cards={[
            ...r.accounts.map((a) => ({
              key: a.accountCode,
              title: `${a.accountCode} ${a.accountName}`,
              figures: [
                [t('books.debit'), f.number(a.debitTotal)],
                [t('books.credit'), f.number(a.creditTotal)],
                [t('books.balance'), f.number(a.balance)],
              ] as Array<[string, string]>,
            })),
            {
              key: 'total',
              title: `${t('invoices.total')} (${r.baseCurrency})`,
              figures: [
                [t('books.debit'), f.number(r.totals.debit)],
                [t('books.credit'), f.number(r.totals.credit)],
              ],
            },
          ]}
        />
      ) : (
        <Card withBorder p="xs">
          <ScrollTable minWidth={560} label={t('books.report.trialBalance')}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('books.code')}</Table.Th>
                  <Table.Th>{t('books.account')}</Table.Th>
                  <Table.Th ta="right">{t('books.debit')}</Table.Th>
                  <Table.Th ta="right">{t('books.credit')}</Table.Th>
                  <Table.Th ta="right">{t('books.balance')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.accounts.map((a) => (
                  <Table.Tr key={a.accountCode}>
                    <Table.Td>{a.accountCode}</Table.Td>
                    <Table.Td>{a.accountName}</Table.Td>
                    <Table.Td ta="right">{f.number(a.debitTotal)}</Table.Td>
                    <Table.Td ta="right">{f.number(a.creditTotal)}</Table.Td>
                    <Table.Td ta="right">{f.number(a.balance)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th />
                  <Table.Th>
                    {t('invoices.total')} ({r.baseCurrency})
                  </Table.Th>
                  <Table.Th ta="right" data-testid="trial-debit">
                    {f.number(r.totals.debit)}
                  </Table.Th>
                  <Table.Th ta="right">{f.number(r.totals.credit)}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </ScrollTable>
        </Card>
      )}
    </Stack>
  );
}

function Overview({ r }: { r: Json<'/api/v1/reports/dashboard'> }) {
  const { t } = useI18n();
  const f = useFormat();
  const cur = r.baseCurrency;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        <Figure label={t('dash.cash')} value={f.money(r.cashBalance, cur)} />
        <Figure label={t('dash.revenue')} value={f.money(r.revenueMTD, cur)} />
        <Figure label={t('dash.expenses')} value={f.money(r.expensesMTD, cur)} />
        <Figure label={t('dash.profit')} value={f.money(r.profitMTD, cur)} />
        <Figure label={t('dash.unpaid')} value={f.money(r.unpaidInvoices, cur)} />
      </SimpleGrid>
      <AmountTable
        label={t('books.report.monthly')}
        currency={cur}
        rows={r.monthlyPL.map((m) => ({ code: null, name: m.month, amount: m.profit }))}
      />
    </Stack>
  );
}
