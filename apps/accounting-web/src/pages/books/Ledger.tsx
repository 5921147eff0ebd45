import { ActionIcon, Anchor, Button, Card, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { useFormat } from '../../ui/format.js';
import { Empty, ErrorState, Loading } from '../../ui/states.js';
import { AccountForm } from './AccountForm.js';
import { type Account, TYPE_KEYS, treeRows, useAccounts } from './accounts.js';

/** The chart of accounts as a tree: one table per account type, children indented under their parent. */
export default function Ledger() {
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite, isAdmin, me } = useAuth();
  const currency = me?.organization.baseCurrency ?? '';
  const query = useAccounts();
  // null: closed; 'new': a new account; an account: its name and whether it is active.
  const [editing, setEditing] = useState<Account | 'new' | null>(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('books.ledger.title')}
        </Title>
        <Group gap="xs">
          {isAdmin ? (
            <Button variant="default" onClick={() => setEditing('new')}>
              {t('books.account.new')}
            </Button>
          ) : null}
          {canWrite ? (
            <Button component={Link} to="/ledger/journal">
              {t('books.journal.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {editing && query.data ? (
        <AccountForm
          account={editing === 'new' ? null : editing}
          accounts={query.data}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : query.data.length === 0 ? (
        <Empty>{t('books.ledger.empty')}</Empty>
      ) : (
        [1, 2, 3, 4, 5].map((type) => {
          const rows = treeRows(query.data.filter((a) => a.accountTypeId === type));
          if (rows.length === 0) return null;
          return (
            <Card withBorder p="xs" key={type}>
              <Table aria-label={t(TYPE_KEYS[type])} layout="fixed">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={60}>{t('books.code')}</Table.Th>
                    <Table.Th>{t(TYPE_KEYS[type])}</Table.Th>
                    <Table.Th ta="right" w={{ base: 104, sm: 180 }}>
                      {t('books.balance')} ({currency})
                    </Table.Th>
                    {isAdmin ? (
                      <Table.Th w={44} visibleFrom="sm">
                        <VisuallyHidden>{t('app.edit')}</VisuallyHidden>
                      </Table.Th>
                    ) : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map(({ account: a, depth }) => (
                    <Table.Tr key={a.id}>
                      <Table.Td>{a.code}</Table.Td>
                      <Table.Td>
                        <div style={{ paddingLeft: depth * 16 }}>
                          <Anchor
                            component={Link}
                            to={`/ledger/accounts/${a.id}`}
                            style={{ overflowWrap: 'break-word' }}
                          >
                            {a.name}
                          </Anchor>
                          {a.isActive ? null : (
                            <Text span size="xs" c="dimmed" ml="xs">
                              ({t('books.inactive')})
                            </Text>
                          )}
                        </div>
                      </Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {f.number(a.currentBalance)}
                      </Table.Td>
                      {isAdmin ? (
                        <Table.Td px={4} visibleFrom="sm">
                          <ActionIcon
                            variant="subtle"
                            color="gray.8"
                            c="gray.8"
                            aria-label={t('books.account.editTitle', { code: a.code })}
                            onClick={() => setEditing(a)}
                          >
                            ✎
                          </ActionIcon>
                        </Table.Td>
                      ) : null}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
          );
        })
      )}
    </Stack>
  );
}
