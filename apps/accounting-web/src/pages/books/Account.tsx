import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { FigureCards, NARROW } from '../../ui/FigureCards.js';
import { useFormat } from '../../ui/format.js';
import { Pager } from '../../ui/Pager.js';
import { ScrollTable } from '../../ui/ScrollTable.js';
import { Empty, ErrorState, Loading } from '../../ui/states.js';
import { AccountForm } from './AccountForm.js';
import { TYPE_KEYS, useAccounts } from './accounts.js';

type Posting = paths['/api/v1/transactions']['get']['responses'][200]['content']['application/json']['data'][number];

/** Postings read per account page at most (10 pages of 100); a larger ledger shows its latest postings. */
const MAX_PAGES = 10;
const PER_VIEW = 50;

/** Every posting on the account, oldest first (the running balance needs them all). */
async function allPostings(accountId: string): Promise<{ postings: Posting[]; complete: boolean }> {
  const postings: Posting[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = unwrap(
      await api.GET('/api/v1/transactions', {
        params: {
          query: { accountId, page: String(page), perPage: '100', sort: 'transactionDate', order: 'desc' },
        },
      }),
    );
    postings.push(...res.data);
    if (page >= res.meta.totalPages) return { postings: chronological(postings), complete: true };
  }
  return { postings: chronological(postings), complete: false };
}

/** Oldest first: by date, then by when they were recorded. */
function chronological(postings: Posting[]): Posting[] {
  return [...postings].sort(
    (a, b) => a.transactionDate.localeCompare(b.transactionDate) || a.createdAt.localeCompare(b.createdAt),
  );
}

/** An account with its postings and the running balance after each, on the account's normal side (A9). */
export default function AccountPage() {
  const { id } = useParams() as { id: string };
  const navigate = useNavigate();
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite, isAdmin, me } = useAuth();
  const [editing, setEditing] = useState(false);
  const accounts = useAccounts();
  const [page, setPage] = useState<number | null>(null);
  const narrow = useMediaQuery(NARROW);
  const account = useQuery({
    queryKey: ['account', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/accounts/{id}', { params: { path: { id } } })),
  });
  const postings = useQuery({ queryKey: ['postings', id], queryFn: () => allPostings(id) });
  if (account.isPending) return <Loading />;
  if (account.isError) return <ErrorState error={account.error} retry={() => account.refetch()} />;
  const a = account.data;
  const base = me?.organization.baseCurrency ?? a.currencyCode;
  const sign = a.normalBalance === 'credit' ? -1 : 1;

  let rows: Array<{ p: Posting; debit: string | null; credit: string | null; balance: Decimal }> = [];
  if (postings.data) {
    const list = postings.data.postings;
    // An incomplete read starts from the balance the service keeps, walked back over the postings read.
    let running = new Decimal(0);
    if (!postings.data.complete) {
      running = new Decimal(a.currentBalance);
      for (const p of list) running = running.minus(effect(p, id, sign));
    }
    rows = list.map((p) => {
      running = running.plus(effect(p, id, sign));
      const isDebit = p.debitAccountId === id;
      return { p, debit: isDebit ? p.baseAmount : null, credit: isDebit ? null : p.baseAmount, balance: running };
    });
  }
  // Newest first on screen, pages of 50.
  const shown = [...rows].reverse();
  const pages = Math.max(1, Math.ceil(shown.length / PER_VIEW));
  const current = Math.min(page ?? 1, pages);
  const slice = shown.slice((current - 1) * PER_VIEW, current * PER_VIEW);

  return (
    <Stack>
      <Anchor component={Link} to="/ledger" size="sm">
        ← {t('books.ledger.title')}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {a.code} {a.name}
          </Title>
          <Group gap="xs">
            <Badge variant="light" color="gray.8" c="gray.9">
              {t(TYPE_KEYS[a.accountTypeId] ?? 'books.type.asset')}
            </Badge>
            {a.isActive ? null : (
              <Badge variant="light" color="red.9" c="red.9">
                {t('books.inactive')}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs">
          {isAdmin ? (
            <Button variant="default" onClick={() => setEditing(true)}>
              {t('books.account.edit')}
            </Button>
          ) : null}
          {canWrite ? (
            <Button component={Link} to={`/ledger/journal?account=${id}`}>
              {t('books.journal.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {editing && accounts.data ? (
        <AccountForm
          account={a}
          accounts={accounts.data}
          onClose={() => setEditing(false)}
          onDeleted={() => navigate('/ledger', { replace: true })}
        />
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            {t('books.balance')}
          </Text>
          <Text fw={700} size="lg" data-testid="account-balance">
            {f.money(a.currentBalance, base)}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            {t('books.normalSide')}
          </Text>
          <Text fw={700} size="lg">
            {a.normalBalance === 'credit' ? t('books.credit') : t('books.debit')}
          </Text>
        </Card>
      </SimpleGrid>
      <Title order={2} size="h4">
        {t('books.postings')}
      </Title>
      {postings.isPending ? (
        <Loading />
      ) : postings.isError ? (
        <ErrorState error={postings.error} retry={() => postings.refetch()} />
      ) : rows.length === 0 ? (
        <Empty>{t('books.postings.empty')}</Empty>
      ) : narrow ? (
        <>
          <FigureCards
            label={t('books.postings')}
            testId="posting-card"
            cards={slice.map(({ p, debit, credit, balance }) => ({
              key: p.id,
              title: f.date(p.transactionDate),
              aside: p.entryId ? (
                <Anchor component={Link} to={`/ledger/entries/${p.entryId}`} size="sm">
                  {t('books.entry.open')}
                </Anchor>
              ) : undefined,
              lines: [
                p.description,
                `${t('books.counterAccount')}: ${
                  p.debitAccountId === id
                    ? `${p.creditAccountCode} ${p.creditAccountName}`
                    : `${p.debitAccountCode} ${p.debitAccountName}`
                }`,
                ...(p.currencyCode !== base ? [f.money(p.amount, p.currencyCode)] : []),
              ],
              figures: [
                [t('books.debit'), debit ? f.number(debit) : ''],
                [t('books.credit'), credit ? f.number(credit) : ''],
                [t('books.runningBalance'), f.number(balance.toFixed(2))],
              ],
            }))}
          />
          {postings.data && !postings.data.complete ? (
            <Text size="xs" c="dimmed">
              {t('books.postings.truncated', { n: MAX_PAGES * 100 })}
            </Text>
          ) : null}
        </>
      ) : (
        <Card withBorder p="xs">
          <ScrollTable minWidth={720} label={t('books.postings')}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('books.date')}</Table.Th>
                  <Table.Th>{t('books.description')}</Table.Th>
                  <Table.Th>{t('books.counterAccount')}</Table.Th>
                  <Table.Th ta="right">{t('books.debit')}</Table.Th>
                  <Table.Th ta="right">{t('books.credit')}</Table.Th>
                  <Table.Th ta="right">{t('books.runningBalance')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {slice.map(({ p, debit, credit, balance }) => (
                  <Table.Tr key={p.id} data-testid="posting">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{f.date(p.transactionDate)}</Table.Td>
                    <Table.Td>
                      {p.entryId ? (
                        <Anchor component={Link} to={`/ledger/entries/${p.entryId}`}>
                          {p.description}
                        </Anchor>
                      ) : (
                        p.description
                      )}
                      {p.currencyCode !== base ? (
                        <Text size="xs" c="dimmed">
                          {f.money(p.amount, p.currencyCode)}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {p.debitAccountId === id
                        ? `${p.creditAccountCode} ${p.creditAccountName}`
                        : `${p.debitAccountCode} ${p.debitAccountName}`}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {debit ? f.number(debit) : ''}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {credit ? f.number(credit) : ''}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="running-balance">
                      {f.number(balance.toFixed(2))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          {postings.data && !postings.data.complete ? (
            <Text size="xs" c="dimmed" mt="xs">
              {t('books.postings.truncated', { n: MAX_PAGES * 100 })}
            </Text>
          ) : null}
        </Card>
      )}
      <Pager page={current} pages={pages} onPage={setPage} />
    </Stack>
  );
}

/** A posting's effect on the account's balance on its normal side, in base currency. */
function effect(p: Posting, accountId: string, sign: number): Decimal {
  const amount = new Decimal(p.baseAmount);
  return (p.debitAccountId === accountId ? amount : amount.negated()).times(sign);
}
