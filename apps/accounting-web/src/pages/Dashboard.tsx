import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { useFormat } from '../ui/format.js';
import { Empty, ErrorState, Loading } from '../ui/states.js';

const PALETTE = ['teal.8', 'blue.8', 'grape.8', 'orange.9', 'red.9', 'indigo.8', 'lime.9', 'cyan.9'];

export default function Dashboard() {
  const { t } = useI18n();
  const f = useFormat();
  const query = useQuery({
    queryKey: ['dashboard'],
    queryFn: async () => {
      const data = unwrap(await api.GET('/api/v1/reports/dashboard', { params: { query: { format: 'json' } } }));
      // The CSV variant is a string; this page asks for JSON.
      if (typeof data === 'string') throw new Error('unexpected CSV');
      return data;
    },
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  const d = query.data;
  const cur = d.baseCurrency;
  const tiles = [
    { label: t('dash.cash'), value: d.cashBalance },
    { label: t('dash.revenue'), value: d.revenueMTD },
    { label: t('dash.expenses'), value: d.expensesMTD },
    { label: t('dash.profit'), value: d.profitMTD },
    { label: t('dash.unpaid'), value: d.unpaidInvoices },
  ];
  const chart = d.monthlyPL.map((m) => ({ month: m.month, profit: Number(m.profit) }));
  const aging = [
    { label: t('dash.current'), value: d.receivablesAging.current },
    { label: t('dash.days30'), value: d.receivablesAging.days30 },
    { label: t('dash.days60'), value: d.receivablesAging.days60 },
    { label: t('dash.days90'), value: d.receivablesAging.days90plus },
  ];
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('dash.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
        {tiles.map((tile) => (
          <Card key={tile.label} withBorder>
            <Text size="sm" c="dimmed">
              {tile.label}
            </Text>
            <Text fw={700} size="lg" data-testid="tile">
              {f.money(tile.value, cur)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('dash.chart')}
        </Title>
        <BarChart
          h={240}
          data={chart}
          dataKey="month"
          series={[{ name: 'profit', label: t('dash.profit'), color: 'teal.8' }]}
          valueFormatter={(v) => f.number(v)}
          withTooltip
        />
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t('dash.aging')}
          </Title>
          <Table>
            <Table.Tbody>
              {aging.map((a) => (
                <Table.Tr key={a.label}>
                  <Table.Td>{a.label}</Table.Td>
                  <Table.Td ta="right">{f.money(a.value, cur)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t('dash.byCategory')}
          </Title>
          {d.expensesByCategory.length === 0 ? (
            <Empty>{t('dash.noExpenses')}</Empty>
          ) : (
            <Group align="flex-start" wrap="wrap">
              {/* The table beside it says the same in words: the ring is decoration to a screen reader. */}
              <div aria-hidden="true">
                <DonutChart
                  size={140}
                  thickness={24}
                  pieProps={{ rootTabIndex: -1 }}
                  data={d.expensesByCategory.map((e, i) => ({
                    name: e.category,
                    value: Number(e.amount),
                    color: PALETTE[i % PALETTE.length],
                  }))}
                  valueFormatter={(v) => f.number(v)}
                />
              </div>
              <Table style={{ flex: 1 }}>
                <Table.Tbody>
                  {d.expensesByCategory.map((e) => (
                    <Table.Tr key={e.category}>
                      <Table.Td>{e.category}</Table.Td>
                      <Table.Td ta="right">{f.money(e.amount, e.currencyCode)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Group>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
