import { Badge } from '@mantine/core';
import { type MessageKey, useI18n } from '../i18n/index.js';

// Processing on yellow with dark text (autoContrast): white on any yellow or orange shade is below 4.5:1.
const COLORS: Record<string, string> = {
  initiating: 'blue.8',
  processing: 'yellow.4',
  completed: 'teal.9',
  failed: 'red.9',
};

export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  return (
    <Badge color={COLORS[status] ?? 'gray.8'} variant="filled" autoContrast>
      {t(`status.${status}` as MessageKey)}
    </Badge>
  );
}
