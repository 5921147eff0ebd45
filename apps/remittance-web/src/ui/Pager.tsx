import { Pagination } from '@mantine/core';
import { useI18n } from '../i18n/index.js';

export function Pager({ page, pages, onChange }: { page: number; pages: number; onChange: (p: number) => void }) {
  const { t } = useI18n();
  if (pages <= 1) return null;
  return (
    <Pagination
      total={pages}
      value={page}
      onChange={onChange}
      size="sm"
      getControlProps={(control) => ({ 'aria-label': t(`pager.${control}`) })}
      getItemProps={(p) => ({ 'aria-label': t('pager.page', { page: p }) })}
    />
  );
}
