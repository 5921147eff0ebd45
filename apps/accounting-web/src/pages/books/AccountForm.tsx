import { Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { ErrorState, useFieldErrors } from '../../ui/states.js';
import { type Account, subtreeOf, TYPE_KEYS, treeRows } from './accounts.js';

interface Values {
  code: string;
  name: string;
  accountTypeId: string;
  parentAccountId: string;
  isActive: boolean;
}

/**
 * A new account (code, name, type, optional parent of the same type) or an existing one's name,
 * whether it is active and its parent: the API changes neither the code nor the type of an account
 * once it exists (PUT /accounts/:id takes name, isActive and parentAccountId), so those are shown,
 * not offered. An existing account's parent is offered among its type's accounts but itself and
 * those under it (the API refuses a loop too). An existing account can be deleted (after a
 * confirmation) when nothing refers to it; the API says what keeps it otherwise, shown in the dialog.
 */
export function AccountForm({
  account,
  accounts,
  onClose,
  onDeleted,
}: {
  account: Account | null;
  accounts: Account[];
  onClose: () => void;
  /** After a deletion, instead of onClose (the account's own page leaves for the chart). */
  onDeleted?: () => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    defaultValues: {
      code: account?.code ?? '',
      name: account?.name ?? '',
      accountTypeId: String(account?.accountTypeId ?? 5),
      parentAccountId: account?.parentAccountId ?? '',
      isActive: account?.isActive ?? true,
    },
  });
  const save = useMutation({
    mutationFn: async (v: Values) =>
      account
        ? unwrap(
            await api.PUT('/api/v1/accounts/{id}', {
              params: { path: { id: account.id } },
              body: { name: v.name.trim(), isActive: v.isActive, parentAccountId: v.parentAccountId || null },
            }),
          )
        : unwrap(
            await api.POST('/api/v1/accounts', {
              body: {
                code: v.code.trim(),
                name: v.name.trim(),
                accountTypeId: Number(v.accountTypeId),
                parentAccountId: v.parentAccountId || null,
              },
            }),
          ),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['accounts'] });
      queryClient.invalidateQueries({ queryKey: ['account'] });
      onClose();
    },
  });
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/v1/accounts/{id}', { params: { path: { id } } })),
    onMutate: () => save.reset(),
    onSuccess: (_, id) => {
      // Out of the cached chart at once: the chart the next screen shows from cache must not list it
      // until its refetch answers.
      queryClient.setQueryData<Account[]>(['accounts'], (old) => old?.filter((a) => a.id !== id));
      queryClient.invalidateQueries({ queryKey: ['accounts'] });
      (onDeleted ?? onClose)();
    },
  });
  const errors = useFieldErrors(save.error);
  const type = Number(form.watch('accountTypeId'));
  const below = account ? subtreeOf(accounts, account.id) : new Set<string>();
  const parents = treeRows(accounts.filter((a) => a.accountTypeId === type && !below.has(a.id)));
  const { errors: local } = form.formState;
  return (
    <Modal
      opened
      onClose={onClose}
      title={account ? t('books.account.editTitle', { code: account.code }) : t('books.account.new')}
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <form
        onSubmit={form.handleSubmit((v) => {
          remove.reset();
          save.mutate(v);
        })}
        noValidate
      >
        <Stack>
          {account ? (
            <Text size="sm" c="dimmed">
              {t('books.account.fixed', { code: account.code, type: t(TYPE_KEYS[account.accountTypeId]) })}
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <TextInput
                label={t('books.code')}
                description={t('books.account.codeHelp')}
                required
                maxLength={20}
                error={errors.code ?? (local.code ? t('books.account.codeInvalid') : undefined)}
                {...form.register('code', { validate: (v) => /^[0-9A-Za-z][0-9A-Za-z.-]*$/.test(v.trim()) })}
              />
              <NativeSelect
                label={t('books.account.type')}
                data={[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: t(TYPE_KEYS[n]) }))}
                error={errors.accountTypeId}
                {...form.register('accountTypeId', { onChange: () => form.setValue('parentAccountId', '') })}
              />
            </SimpleGrid>
          )}
          <TextInput
            label={t('books.account.name')}
            required
            maxLength={200}
            error={errors.name ?? (local.name ? t('books.account.nameRequired') : undefined)}
            {...form.register('name', { validate: (v) => v.trim().length > 0 })}
          />
          <NativeSelect
            label={t('books.account.parent')}
            data={[
              { value: '', label: t('books.account.noParent') },
              ...parents.map(({ account: a, depth }) => ({
                value: a.id,
                label: `${'\u00a0\u00a0'.repeat(depth)}${a.code} ${a.name}`,
              })),
            ]}
            error={errors.parentAccountId}
            {...form.register('parentAccountId')}
          />
          {account ? (
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <Switch
                  label={t('books.account.active')}
                  checked={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
          ) : null}
          {save.error ? <ErrorState error={save.error} /> : null}
          {remove.error ? <ErrorState error={remove.error} reasons="id" /> : null}
          <Group justify="space-between">
            {account ? (
              <Button
                variant="subtle"
                color="red"
                loading={remove.isPending}
                onClick={() => {
                  if (window.confirm(t('books.account.confirmDelete', { code: account.code, name: account.name })))
                    remove.mutate(account.id);
                }}
              >
                {t('books.account.delete')}
              </Button>
            ) : (
              <span />
            )}
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('app.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t('app.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
