import { Alert, Anchor, Card, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { dateTime, money } from '../ui/format.js';
import { Pager } from '../ui/Pager.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { Empty, QueryView } from '../ui/states.js';

const PAGE_SIZE = 10;
type TypeFilter = '' | 'remittance' | 'qr_payment';
type StatusFilter = '' | 'initiating' | 'processing' | 'completed' | 'failed';

/** Every payment, newest first, filtered by type and status (kept in the URL), ten a page. */
export default function History() {
  const { t, locale } = useI18n();
  const [params, setParams] = useSearchParams();
  const type = (params.get('type') ?? '') as TypeFilter;
  const status = (params.get('status') ?? '') as StatusFilter;
  const page = Number(params.get('page') ?? '1') || 1;
  const set = (patch: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const list = useQuery({
    queryKey: ['transactions', type, status, page],
    queryFn: async () =>
      unwrap(
        await api.GET('/api/transactions', {
          params: {
            query: { page, limit: PAGE_SIZE, ...(type ? { type } : {}), ...(status ? { status } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('history.title')}
      </Title>
      {params.get('error') === 'payment_unknown' ? (
        <Alert color="red" role="alert">
          {t('history.paymentUnknown')}
        </Alert>
      ) : null}
      <Group grow>
        <NativeSelect
          label={t('history.type')}
          value={type}
          onChange={(e) => set({ type: e.currentTarget.value, page: '' })}
          data={[
            { value: '', label: t('history.all') },
            { value: 'remittance', label: t('type.remittance') },
            { value: 'qr_payment', label: t('type.qr_payment') },
          ]}
        />
        <NativeSelect
          label={t('history.status')}
          value={status}
          onChange={(e) => set({ status: e.currentTarget.value, page: '' })}
          data={[
            { value: '', label: t('history.all') },
            { value: 'initiating', label: t('status.initiating') },
            { value: 'processing', label: t('status.processing') },
            { value: 'completed', label: t('status.completed') },
            { value: 'failed', label: t('status.failed') },
          ]}
        />
      </Group>
      <QueryView query={list}>
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Empty>{type || status ? t('history.noneFiltered') : t('history.empty')}</Empty>
          ) : (
            <Stack gap="xs">
              {data.map((r) => (
                <Card withBorder padding="sm" key={r.id}>
                  <Group justify="space-between" wrap="nowrap">
                    <div style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={`/history/${r.id}`} fw={600}>
                        {r.recipientName}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {t(`type.${r.type}`)} · {dateTime(r.createdAt, locale)}
                      </Text>
                    </div>
                    <Stack gap={2} align="flex-end">
                      <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                        {money(r.amount, r.currency, locale)}
                      </Text>
                      <StatusBadge status={r.status} />
                    </Stack>
                  </Group>
                </Card>
              ))}
              <Pager
                page={pagination.page}
                pages={Math.ceil(pagination.total / pagination.limit)}
                onChange={(p) => set({ page: String(p) })}
              />
            </Stack>
          )
        }
      </QueryView>
    </Stack>
  );
}
