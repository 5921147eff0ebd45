import { Badge } from '@mantine/core';
import { type MessageKey, useI18n } from '../../i18n/index.js';
import { useFormat } from '../../ui/format.js';

/** SEF's statuses as the API carries them (SEF's own spelling, plus Pending and Failed of the delivery queue). */
const SEF_COLORS: Record<string, string> = {
  Pending: 'yellow.4',
  Failed: 'red.9',
  New: 'gray.7',
  Draft: 'gray.7',
  Sending: 'yellow.4',
  Sent: 'blue.8',
  Seen: 'indigo.8',
  Approved: 'teal.9',
  Rejected: 'red.9',
  Cancelled: 'dark.4',
  Storno: 'dark.4',
  Mistake: 'red.9',
  Paid: 'teal.9',
  OverDue: 'red.9',
  Archived: 'dark.4',
  Deleted: 'dark.4',
  ReNotified: 'indigo.8',
  Unknown: 'gray.7',
};

const FISC_COLORS: Record<string, string> = { Pending: 'yellow.4', Fiscalized: 'teal.9', Failed: 'red.9' };

/** The delivery through the information intermediary (Moj-eRačun, HR). */
const MER_COLORS: Record<string, string> = {
  Pending: 'yellow.4',
  Failed: 'red.9',
  Sent: 'blue.8',
  Delivered: 'indigo.8',
  Accepted: 'teal.9',
  Rejected: 'red.9',
  Undeliverable: 'red.9',
};
/** The payment report made through the intermediary (Moj-eRačun's markPaid). */
const MER_PAYMENT_COLORS: Record<string, string> = { Pending: 'yellow.4', Reported: 'teal.9', Failed: 'red.9' };
const KINDS = {
  sef: { colors: SEF_COLORS, prefix: 'einvoice.sefStatus' },
  fisc: { colors: FISC_COLORS, prefix: 'einvoice.fiscStatus' },
  mer: { colors: MER_COLORS, prefix: 'einvoice.merStatus' },
  merPayment: { colors: MER_PAYMENT_COLORS, prefix: 'einvoice.merPaymentStatus' },
} as const;

/** A status SEF (the Tax Administration, Moj-eRačun) gave the document; an unknown one is shown as SEF spells it. */
export function EinvoiceBadge({ status, kind = 'sef' }: { status: string; kind?: keyof typeof KINDS }) {
  const { t } = useI18n();
  const { colors, prefix } = KINDS[kind];
  const key = `${prefix}.${status}` as MessageKey;
  return (
    <Badge color={colors[status] ?? 'gray.7'} variant="filled" autoContrast>
      {status in colors ? t(key) : status}
    </Badge>
  );
}

/** A moment (ISO timestamp) in local time as the app writes dates, with hours and minutes: "27.11.2026. 17:21". */
export function useDateTime() {
  return useFormat().dateTime;
}
