import { Alert, Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { FigureCards, NARROW } from '../../ui/FigureCards.js';
import { useFormat } from '../../ui/format.js';
import { today } from '../../ui/period.js';
import { ScrollTable } from '../../ui/ScrollTable.js';
import { ErrorState, Loading } from '../../ui/states.js';
import '@mantine/dates/styles.css';
import { DateField } from '../../ui/DateField.js';

type Posting =
  paths['/api/v1/transactions/entries/{id}']['get']['responses'][200]['content']['application/json']['data'][number];

/**
 * A manual journal entry (`/ledger/entries/:id`): its postings, each a debit and a credit account
 * with the amount, and their reversals; a writer reverses the whole entry on a date of their choice
 * (POST /transactions/entries/:id/reverse: every posting not reversed yet gets its reversing
 * posting, in one transaction). The entry and its reversal both stay in the ledger.
 */
export default function EntryPage() {
  const { id } = useParams() as { id: string };
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite, me } = useAuth();
  const narrow = useMediaQuery(NARROW);
  const queryClient = useQueryClient();
  const [date, setDate] = useState(() => today());
  // Arriving from the journal screen just after saving the entry.
  const posted = (useLocation().state as { posted?: boolean } | null)?.posted === true;
  const entry = useQuery({
    queryKey: ['entry', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/transactions/entries/{id}', { params: { path: { id } } })),
  });
  const reverse = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/v1/transactions/entries/{id}/reverse', {
          params: { path: { id } },
          body: { transactionDate: date },
        }),
      ),
    onSuccess: () => {
      for (const queryKey of [['entry', id], ['postings'], ['accounts'], ['account']])
        queryClient.invalidateQueries({ queryKey });
    },
  });
  if (entry.isPending) return <Loading />;
  if (entry.isError) return <ErrorState error={entry.error} retry={() => entry.refetch()} />;

  const postings = entry.data.data;
  const reversed = new Set(postings.map((p) => p.reversalOf).filter((v): v is string => v !== null));
  const originals = postings.filter((p) => p.reversalOf === null);
  const open = originals.filter((p) => !reversed.has(p.id));
  const head = originals[0] ?? postings[0];
  const base = me?.organization.baseCurrency ?? head.currencyCode;
  const state = (p: Posting) =>
    p.reversalOf ? t('books.entry.reversal') : reversed.has(p.id) ? t('books.entry.postingReversed') : null;
  // What the entry moved, in the base currency: its postings, not their reversals.
  const total = originals.reduce((sum, p) => sum.plus(p.baseAmount), new Decimal(0));
  const account = (code: string, name: string) => `${code} ${name}`;
  const amount = (p: Posting) =>
    p.currencyCode === base
      ? f.money(p.baseAmount, base)
      : `${f.money(p.amount, p.currencyCode)} (${f.money(p.baseAmount, base)})`;

  return (
    <Stack>
      <Anchor component={Link} to="/ledger" size="sm">
        ← {t('books.ledger.title')}
      </Anchor>
      <Stack gap={2}>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {t('books.entry.title')}: {head.description}
        </Title>
        <Group gap="xs">
          <Text c="dimmed">{f.date(head.transactionDate)}</Text>
          <Text c="dimmed" data-testid="entry-total">
            {t('books.entry.total')}: {f.money(total.toFixed(), base)}
          </Text>
          {open.length === 0 ? (
            <Badge variant="light" color="red.9" c="red.9">
              {t('books.entry.reversed')}
            </Badge>
          ) : null}
        </Group>
        {head.notes ? <Text size="sm">{head.notes}</Text> : null}
      </Stack>
      {posted && !reverse.isSuccess ? (
        <Alert color="green" role="status" data-testid="entry-posted">
          {t('books.entry.posted')}
        </Alert>
      ) : null}
      {narrow ? (
        <FigureCards
          label={t('books.postings')}
          testId="entry-posting"
          cards={postings.map((p) => ({
            key: p.id,
            title: f.date(p.transactionDate),
            aside: state(p) ?? undefined,
            lines: [
              `${t('books.debit')}: ${account(p.debitAccountCode, p.debitAccountName)}`,
              `${t('books.credit')}: ${account(p.creditAccountCode, p.creditAccountName)}`,
            ],
            figures: [[t('books.field.amount'), amount(p)]],
          }))}
        />
      ) : (
        <Card withBorder p="xs">
          <ScrollTable minWidth={720} label={t('books.postings')}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('books.date')}</Table.Th>
                  <Table.Th>{t('books.debit')}</Table.Th>
                  <Table.Th>{t('books.credit')}</Table.Th>
                  <Table.Th ta="right">{t('books.field.amount')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {postings.map((p) => (
                  <Table.Tr key={p.id} data-testid="entry-posting">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{f.date(p.transactionDate)}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/ledger/accounts/${p.debitAccountId}`}>
                        {account(p.debitAccountCode, p.debitAccountName)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/ledger/accounts/${p.creditAccountId}`}>
                        {account(p.creditAccountCode, p.creditAccountName)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {amount(p)}
                    </Table.Td>
                    <Table.Td>{state(p)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </Card>
      )}
      {canWrite && open.length > 0 ? (
        <Card withBorder>
          <Stack gap="xs">
            <Text size="sm">{t('books.entry.reverseHelp')}</Text>
            <Group align="flex-end">
              <DateField
                label={t('books.entry.reverseDate')}
                required
                value={date}
                onChange={(v) => setDate(v ?? today())}
              />
              <Button
                color="red"
                variant="light"
                loading={reverse.isPending}
                onClick={() => {
                  if (window.confirm(t('books.entry.confirmReverse', { date: f.date(date) }))) reverse.mutate();
                }}
              >
                {t('books.entry.reverse')}
              </Button>
            </Group>
            {reverse.error ? <ErrorState error={reverse.error} reasons="id" /> : null}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
