import '@mantine/dates/styles.css';
import { INTL_LOCALE } from '@app/web-tools/format';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { DateField } from '../../ui/DateField.js';
import { useFormat } from '../../ui/format.js';
import { today } from '../../ui/period.js';
import { ScrollTable } from '../../ui/ScrollTable.js';
import { ErrorState, Loading } from '../../ui/states.js';

/** Currencies the service knows, the rate in force for a pair and date, and a manual rate (owners, admins). */
function displayNames(tag: string): (code: string, fallback: string) => string {
  try {
    const names = new Intl.DisplayNames([tag], { type: 'currency' });
    return (code, fallback) => names.of(code) ?? fallback;
  } catch {
    return (_code, fallback) => fallback;
  }
}

export default function Currencies() {
  const { t, locale } = useI18n();
  const currencies = useQuery({
    queryKey: ['currencies'],
    queryFn: async () => unwrap(await api.GET('/api/v1/currencies')).data,
  });
  if (currencies.isPending) return <Loading />;
  if (currencies.isError) return <ErrorState error={currencies.error} retry={() => currencies.refetch()} />;
  const codes = currencies.data.map((c) => c.code);
  // The service names currencies in English; the browser knows their names in the user's language.
  const names = displayNames(INTL_LOCALE[locale]);
  return (
    <Stack>
      <RateLookup codes={codes} />
      <Title order={2} size="h4">
        {t('books.settings.currencies')}
      </Title>
      <Card withBorder p="xs">
        <ScrollTable minWidth={420} label={t('books.settings.currencies')}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('books.code')}</Table.Th>
                <Table.Th>{t('contacts.name')}</Table.Th>
                <Table.Th>{t('books.currency.decimals')}</Table.Th>
                <Table.Th>{t('invoices.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {currencies.data.map((c) => (
                <Table.Tr key={c.code}>
                  <Table.Td>{c.code}</Table.Td>
                  <Table.Td>{names(c.code, c.name)}</Table.Td>
                  <Table.Td>{c.decimalPlaces}</Table.Td>
                  <Table.Td>{c.isActive ? t('books.active') : t('books.inactive')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      </Card>
    </Stack>
  );
}

function RateLookup({ codes }: { codes: string[] }) {
  const { t, locale } = useI18n();
  const f = useFormat();
  const { me, isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const baseCurrency = me?.organization.baseCurrency ?? 'EUR';
  const [base, setBase] = useState(baseCurrency === 'EUR' ? 'EUR' : 'EUR');
  const [target, setTarget] = useState(baseCurrency === 'EUR' ? 'RSD' : baseCurrency);
  const [date, setDate] = useState(today());
  const [manual, setManual] = useState<number | ''>('');
  const rate = useQuery({
    queryKey: ['exchange-rate', base, target, date],
    enabled: base !== target,
    queryFn: async () => unwrap(await api.GET('/api/v1/exchange-rates', { params: { query: { base, target, date } } })),
  });
  const record = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/v1/exchange-rates', {
          body: { baseCurrency: base, targetCurrency: target, rate: Number(manual), effectiveDate: date },
        }),
      ),
    onSuccess: () => {
      setManual('');
      queryClient.invalidateQueries({ queryKey: ['exchange-rate'] });
    },
  });
  const data = codes.map((c) => ({ value: c, label: c }));
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          {t('books.rates.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <Select
            label={t('books.rates.base')}
            data={data}
            value={base}
            allowDeselect={false}
            onChange={(v) => v && setBase(v)}
          />
          <Select
            label={t('books.rates.target')}
            data={data}
            value={target}
            allowDeselect={false}
            onChange={(v) => v && setTarget(v)}
          />
          <DateField label={t('books.date')} value={date} onChange={(v) => v && setDate(v)} />
        </SimpleGrid>
        {base === target ? null : rate.isPending ? (
          <Loading />
        ) : rate.isError ? (
          <Alert color="gray" role="status">
            {t('books.rates.none')}
          </Alert>
        ) : (
          <Group gap="sm" data-testid="exchange-rate">
            <Text fw={700}>
              1 {base} = {f.number(rate.data.rate, 6)} {target}
            </Text>
            <Text size="sm" c="dimmed">
              {t('books.rates.effective')}: {f.date(rate.data.effectiveDate)}
            </Text>
            <Badge variant="light" color="gray.8" c="gray.9" tt="none" data-testid="exchange-rate-source">
              {t(`books.rates.source.${rate.data.source}`)}
            </Badge>
          </Group>
        )}
        {isAdmin && base !== target ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (manual !== '' && manual > 0) record.mutate();
            }}
          >
            <Group align="flex-end" gap="sm">
              <NumberInput
                label={t('books.rates.manual', { base, target })}
                hideControls
                min={0}
                decimalScale={6}
                decimalSeparator={locale === 'en' ? '.' : ','}
                value={manual}
                onChange={(v) => setManual(typeof v === 'number' ? v : '')}
                w={{ base: '100%', xs: 240 }}
              />
              <Button type="submit" variant="default" loading={record.isPending}>
                {t('books.rates.record')}
              </Button>
            </Group>
            {record.error ? <ErrorState error={record.error} /> : null}
            {record.isSuccess ? (
              <Alert color="teal" role="status" mt="xs">
                {t('books.saved')}
              </Alert>
            ) : null}
          </form>
        ) : null}
      </Stack>
    </Card>
  );
}
