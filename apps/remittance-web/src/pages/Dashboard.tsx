import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { ago, money, rate } from '../ui/format.js';
import { useBankAccounts, useNotifications, useRates } from '../ui/queries.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { Empty, QueryView } from '../ui/states.js';

const KYC: Record<string, MessageKey> = {
  approved: 'kyc.verified',
  pending: 'kyc.pending',
  rejected: 'kyc.rejected',
};

export default function Dashboard() {
  const { t, locale } = useI18n();
  const { me } = useAuth();
  const accounts = useBankAccounts();
  const rates = useRates();
  const notifications = useNotifications();
  const recent = useQuery({
    queryKey: ['transactions', 'recent'],
    queryFn: async () => unwrap(await api.GET('/api/transactions', { params: { query: { limit: 5 } } })).data,
  });
  const kyc = me ? (KYC[me.kycStatus] ?? 'kyc.pending') : null;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {t('dashboard.hello', { name: me?.firstName ?? '' })}
        </Title>
        {kyc ? (
          <Text size="sm" c="dimmed">
            {t(kyc)}
          </Text>
        ) : null}
      </div>

      <section aria-labelledby="accounts">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="accounts">
            {t('dashboard.accounts')}
          </Title>
          <Anchor component={Link} to="/bank-accounts" size="sm">
            {t('dashboard.manageBanks')}
          </Anchor>
        </Group>
        <QueryView query={accounts}>
          {({ data, totalBalance }) =>
            data.length === 0 ? (
              <Card withBorder>
                <Stack gap="xs" align="flex-start">
                  <Text>{t('dashboard.noBank')}</Text>
                  <Button component={Link} to="/bank-accounts">
                    {t('banks.link')}
                  </Button>
                </Stack>
              </Card>
            ) : (
              <Stack gap="xs">
                {data.map((a) => (
                  <Card withBorder key={a.id} padding="sm">
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <div>
                        <Text fw={600}>
                          {a.accountName ?? a.bankName}
                          {a.isPrimary ? ` · ${t('banks.primary')}` : ''}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {a.bankName} · {a.accountNumber}
                        </Text>
                      </div>
                      <div style={{ textAlign: 'end' }}>
                        <Text fw={700} style={{ whiteSpace: 'nowrap' }} data-testid={`balance-${a.id}`}>
                          {money(a.balance, a.currency, locale)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {a.stale ? t('banks.stale') : t('banks.readAgo', { when: ago(a.balanceUpdatedAt, locale) })}
                        </Text>
                      </div>
                    </Group>
                  </Card>
                ))}
                <Text size="sm" ta="end">
                  {t('dashboard.total')}: <b style={{ whiteSpace: 'nowrap' }}>{money(totalBalance, 'NOK', locale)}</b>
                </Text>
              </Stack>
            )
          }
        </QueryView>
      </section>

      <Group gap="sm">
        <Button component={Link} to="/send">
          {t('nav.send')}
        </Button>
        <Button component={Link} to="/pay" variant="default">
          {t('nav.pay')}
        </Button>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <section aria-labelledby="recent">
          <Group justify="space-between" mb="xs">
            <Title order={2} size="h4" id="recent">
              {t('dashboard.recent')}
            </Title>
            <Anchor component={Link} to="/history" size="sm">
              {t('dashboard.allHistory')}
            </Anchor>
          </Group>
          <QueryView query={recent}>
            {(rows) =>
              rows.length === 0 ? (
                <Empty>{t('history.empty')}</Empty>
              ) : (
                <Stack gap={4}>
                  {rows.map((r) => (
                    <Group key={r.id} justify="space-between" wrap="nowrap" py={4}>
                      <div style={{ minWidth: 0 }}>
                        <Anchor component={Link} to={`/history/${r.id}`} fw={600} size="sm">
                          {r.recipientName}
                        </Anchor>
                        <div>
                          <StatusBadge status={r.status} />
                        </div>
                      </div>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {money(r.amount, r.currency, locale)}
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )
            }
          </QueryView>
        </section>

        <section aria-labelledby="unread">
          <Group justify="space-between" mb="xs">
            <Title order={2} size="h4" id="unread">
              {t('dashboard.unread')}
            </Title>
            <Anchor component={Link} to="/notifications" size="sm">
              {t('nav.notifications')}
            </Anchor>
          </Group>
          <QueryView query={notifications}>
            {(list) => {
              const unread = list.filter((n) => !n.read).slice(0, 3);
              return unread.length === 0 ? (
                <Empty>{t('notifications.noneUnread')}</Empty>
              ) : (
                <Stack gap="xs">
                  {unread.map((n) => (
                    <Alert key={n.id} color="teal" variant="light" title={n.title}>
                      {n.body}
                    </Alert>
                  ))}
                </Stack>
              );
            }}
          </QueryView>
        </section>
      </SimpleGrid>

      <section aria-labelledby="rates">
        <Title order={2} size="h4" id="rates" mb="xs">
          {t('dashboard.rates')}
        </Title>
        <QueryView query={rates}>
          {(r) => (
            <>
              {r.stale ? (
                <Alert color="yellow" mb="xs">
                  {t('rates.stale')}
                </Alert>
              ) : null}
              <Table striped withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('rates.currency')}</Table.Th>
                    <Table.Th style={{ textAlign: 'end' }}>{t('rates.perNok')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {Object.entries(r.rates).map(([cur, value]) => (
                    <Table.Tr key={cur}>
                      <Table.Td>{cur}</Table.Td>
                      <Table.Td style={{ textAlign: 'end' }}>{rate(value, locale)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Text size="xs" c="dimmed" mt={4}>
                {t('rates.updated', { when: ago(r.updatedAt, locale) })}
              </Text>
            </>
          )}
        </QueryView>
      </section>
    </Stack>
  );
}
