import { Badge } from '@mantine/core';
import { useI18n } from '../i18n/index.js';

const COLORS: Record<string, string> = {
  draft: 'gray.7',
  sent: 'blue.8',
  viewed: 'indigo.8',
  paid: 'teal.9',
  overdue: 'red.9',
  cancelled: 'dark.4',
};

export type InvoiceStatus = 'draft' | 'sent' | 'viewed' | 'paid' | 'overdue' | 'cancelled';

export function StatusBadge({ status }: { status: InvoiceStatus }) {
  const { t } = useI18n();
  return (
    <Badge color={COLORS[status]} variant="filled" autoContrast>
      {t(`status.${status}`)}
    </Badge>
  );
}
