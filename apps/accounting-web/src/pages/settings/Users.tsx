import {
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client.js';
import { type Role, useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { useFormat } from '../../ui/format.js';
import { ScrollTable } from '../../ui/ScrollTable.js';
import { ErrorState, Loading, useFieldErrors } from '../../ui/states.js';

type InviteRole = 'admin' | 'accountant' | 'viewer';
const ROLES: InviteRole[] = ['accountant', 'viewer', 'admin'];

/** Users of the organization and invitations (owners and admins); the owner changes roles and removes users. */
export default function Users() {
  const { t } = useI18n();
  const f = useFormat();
  const { me } = useAuth();
  const queryClient = useQueryClient();
  const isOwner = me?.role === 'owner';
  const users = useQuery({
    queryKey: ['users'],
    queryFn: async () => unwrap(await api.GET('/api/v1/users')).data,
  });
  const role = useMutation({
    mutationFn: async ({ id, role }: { id: string; role: InviteRole }) =>
      unwrap(await api.PUT('/api/v1/users/{id}/role', { params: { path: { id } }, body: { role } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/v1/users/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      // The user leaves the list at once, not when the refetch answers.
      queryClient.setQueryData<typeof users.data>(['users'], (old) => old?.filter((u) => u.id !== id));
      return queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const roleName = (r: Role) => t(`role.${r}`);
  // A phone shows each user as a card: six columns squeezed into 375 px left names and e-mails unreadable.
  const narrow = useMediaQuery('(max-width: 40em)');
  type User = NonNullable<typeof users.data>[number];
  const roleCell = (u: User) =>
    isOwner && u.role !== 'owner' ? (
      <NativeSelect
        aria-label={`${t('books.users.role')}: ${u.fullName}`}
        size="xs"
        data={ROLES.map((r) => ({ value: r, label: roleName(r) }))}
        value={u.role}
        onChange={(e) => role.mutate({ id: u.id, role: e.currentTarget.value as InviteRole })}
      />
    ) : (
      roleName(u.role)
    );
  const removeButton = (u: User) =>
    isOwner && u.role !== 'owner' && u.id !== me?.id ? (
      <Button
        size="xs"
        variant="subtle"
        color="red.9"
        c="red.9"
        aria-label={`${t('books.users.remove')}: ${u.fullName}`}
        onClick={() => {
          if (window.confirm(t('books.users.confirmRemove', { name: u.fullName }))) remove.mutate(u.id);
        }}
      >
        {t('books.users.remove')}
      </Button>
    ) : null;
  return (
    <Stack>
      <Invite />
      <Title order={2} size="h4">
        {t('books.users.title')}
      </Title>
      {role.error ? <ErrorState error={role.error} /> : null}
      {remove.error ? <ErrorState error={remove.error} /> : null}
      {users.isPending ? (
        <Loading />
      ) : users.isError ? (
        <ErrorState error={users.error} retry={() => users.refetch()} />
      ) : narrow ? (
        <section aria-label={t('books.users.title')}>
          <Stack gap="sm">
            {users.data.map((u) => (
              <Card key={u.id} withBorder padding="sm" data-testid="user-card">
                <Stack gap={6}>
                  <Text fw={600}>{u.fullName}</Text>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {u.email}
                  </Text>
                  <SimpleGrid cols={2} spacing="xs" verticalSpacing={4}>
                    <Text size="sm" c="dimmed">
                      {t('books.users.role')}
                    </Text>
                    <Text size="sm" component="div">
                      {roleCell(u)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t('books.users.twoFactor')}
                    </Text>
                    <Text size="sm">{u.twoFactorEnabled ? t('books.yes') : t('books.no')}</Text>
                    <Text size="sm" c="dimmed">
                      {t('books.users.lastLogin')}
                    </Text>
                    <Text size="sm">{u.lastLoginAt ? f.day(u.lastLoginAt) : t('books.users.invited')}</Text>
                  </SimpleGrid>
                  {removeButton(u) ? <Group justify="flex-end">{removeButton(u)}</Group> : null}
                </Stack>
              </Card>
            ))}
          </Stack>
        </section>
      ) : (
        <Card withBorder p="xs">
          <ScrollTable minWidth={640} label={t('books.users.title')}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('books.users.fullName')}</Table.Th>
                  <Table.Th>{t('auth.email')}</Table.Th>
                  <Table.Th>{t('books.users.role')}</Table.Th>
                  <Table.Th>{t('books.users.twoFactor')}</Table.Th>
                  <Table.Th>{t('books.users.lastLogin')}</Table.Th>
                  {isOwner ? <Table.Th /> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.data.map((u) => (
                  <Table.Tr key={u.id}>
                    <Table.Td>{u.fullName}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{u.email}</Table.Td>
                    <Table.Td>{roleCell(u)}</Table.Td>
                    <Table.Td>{u.twoFactorEnabled ? t('books.yes') : t('books.no')}</Table.Td>
                    <Table.Td>{u.lastLoginAt ? f.day(u.lastLoginAt) : t('books.users.invited')}</Table.Td>
                    {isOwner ? <Table.Td>{removeButton(u)}</Table.Td> : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </Card>
      )}
    </Stack>
  );
}

function Invite() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const form = useForm<{ email: string; fullName: string; role: InviteRole }>({
    defaultValues: { email: '', fullName: '', role: 'accountant' },
  });
  const invite = useMutation({
    mutationFn: async (body: { email: string; fullName: string; role: InviteRole }) =>
      unwrap(await api.POST('/api/v1/users/invite', { body })),
    onSuccess: () => {
      form.reset();
      queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const errors = useFieldErrors(invite.error);
  return (
    <Card withBorder>
      <form onSubmit={form.handleSubmit((v) => invite.mutate(v))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            {t('books.users.invite')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label={t('books.users.fullName')}
              required
              error={errors.fullName}
              {...form.register('fullName')}
            />
            <TextInput label={t('auth.email')} type="email" required error={errors.email} {...form.register('email')} />
            <NativeSelect
              label={t('books.users.role')}
              data={ROLES.map((r) => ({ value: r, label: t(`role.${r}`) }))}
              {...form.register('role')}
            />
          </SimpleGrid>
          {invite.error ? <ErrorState error={invite.error} /> : null}
          {invite.data ? (
            <Alert color="teal" role="status">
              <Stack gap="xs">
                <Text size="sm" fw={700}>
                  {t('books.users.invited.title', { email: invite.data.user.email })}
                </Text>
                <Text size="sm">{t('books.users.invited.help')}</Text>
                <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="invite-link">
                  {invite.data.inviteLink}
                </Code>
                <CopyButton value={invite.data.inviteLink}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="default" onClick={copy}>
                      {copied ? t('books.copied') : t('books.copy')}
                    </Button>
                  )}
                </CopyButton>
              </Stack>
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={invite.isPending}>
              {t('books.users.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
