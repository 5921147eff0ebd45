import { Table } from '@mantine/core';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { money, rate } from './format.js';

export interface DisclosureData {
  amount: number;
  fee: number;
  feePercentage: number;
  exchangeRate: number;
  receiveAmount: number;
  receiveCurrency: string;
  estimatedDelivery: string;
  totalCost: number;
}

/** The API's delivery estimates (R10) in the user's language. */
const ETA: Record<string, MessageKey> = {
  '1-2 business days': 'eta.short',
  '2-4 business days': 'eta.long',
  Instant: 'eta.instant',
};

/** What the payment costs, shown before the user confirms it (price disclosure). */
export function Disclosure({ d, payee }: { d: DisclosureData; payee: string }) {
  const { t, locale } = useI18n();
  const rows: [string, string][] = [
    [t('disclosure.to'), payee],
    [t('disclosure.amount'), money(d.amount, 'NOK', locale)],
    [
      t('disclosure.fee', {
        percent: String(d.feePercentage).replace('.', locale === 'en' || locale === 'ur' ? '.' : ','),
      }),
      money(d.fee, 'NOK', locale),
    ],
    [t('disclosure.total'), money(d.totalCost, 'NOK', locale)],
  ];
  if (d.receiveCurrency !== 'NOK' || d.exchangeRate !== 1) {
    rows.push([t('disclosure.rate'), `1 NOK = ${rate(d.exchangeRate, locale)} ${d.receiveCurrency}`]);
  }
  rows.push([t('disclosure.receives'), money(d.receiveAmount, d.receiveCurrency, locale)]);
  rows.push([t('disclosure.delivery'), ETA[d.estimatedDelivery] ? t(ETA[d.estimatedDelivery]) : d.estimatedDelivery]);
  return (
    <Table withTableBorder variant="vertical" aria-label={t('disclosure.title')}>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w="45%">{k}</Table.Th>
            <Table.Td
              fw={k === t('disclosure.total') ? 700 : undefined}
              // Figures stay on one line; a long name (a shop's, up to 200 characters) wraps.
              style={k === t('disclosure.to') ? { overflowWrap: 'anywhere' } : { whiteSpace: 'nowrap' }}
            >
              {v}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
