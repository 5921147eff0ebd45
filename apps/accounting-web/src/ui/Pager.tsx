import { Button, Group, Text } from '@mantine/core';
import { useI18n } from '../i18n/index.js';

export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (p: number) => void }) {
  const { t } = useI18n();
  if (pages <= 1) return null;
  return (
    <Group justify="center" gap="sm">
      <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('app.previous')}
      </Button>
      <Text size="sm">{t('app.page', { page, pages })}</Text>
      <Button size="xs" variant="default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('app.next')}
      </Button>
    </Group>
  );
}
