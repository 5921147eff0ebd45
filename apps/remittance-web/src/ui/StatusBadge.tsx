import { Badge } from '@mantine/core';
import { type MessageKey, useI18n } from '../i18n/index.js';

const COLORS: Record<string, string> = { processing: 'yellow.9', completed: 'teal.9', failed: 'red.9' };

export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  return (
    <Badge color={COLORS[status] ?? 'gray.8'} variant="filled">
      {t(`status.${status}` as MessageKey)}
    </Badge>
  );
}
