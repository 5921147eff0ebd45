import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { Pager } from '../ui/Pager.js';
import { ScrollTable } from '../ui/ScrollTable.js';
import { Empty, ErrorState, Loading, useFieldErrors } from '../ui/states.js';

type Contact = paths['/api/v1/contacts/{id}']['get']['responses'][200]['content']['application/json'];
type ContactBody = paths['/api/v1/contacts']['post']['requestBody']['content']['application/json'];
type ContactType = ContactBody['type'];

const PER_PAGE = 20;

export default function Contacts() {
  const { t } = useI18n();
  const { canWrite } = useAuth();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [type, setType] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);

  const query = useQuery({
    queryKey: ['contacts', debounced, type, page],
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/contacts', {
          params: {
            query: {
              page: String(page),
              perPage: String(PER_PAGE),
              sort: 'name',
              order: 'asc',
              ...(debounced ? { search: debounced } : {}),
              ...(type ? { type: type as ContactType } : {}),
            },
          },
        }),
      ),
  });
  const remove = useMutation({
    mutationFn: async (c: Contact) =>
      unwrap(await api.DELETE('/api/v1/contacts/{id}', { params: { path: { id: c.id } } })),
    onMutate: () => setDeleteError(null),
    onError: setDeleteError,
    onSuccess: (_, c) => {
      // The row leaves every cached page at once; the refetch then brings the counts and the next row up.
      queryClient.setQueriesData<typeof query.data>({ queryKey: ['contacts'] }, (old) =>
        old ? { ...old, data: old.data.filter((x) => x.id !== c.id) } : old,
      );
      return queryClient.invalidateQueries({ queryKey: ['contacts'] });
    },
  });

  const typeLabel = (v: string) =>
    t(v === 'vendor' ? 'contacts.vendor' : v === 'both' ? 'contacts.both' : 'contacts.customer');

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('contacts.title')}
        </Title>
        {canWrite ? <Button onClick={() => setEditing('new')}>{t('contacts.new')}</Button> : null}
      </Group>
      <Group grow preventGrowOverflow={false} wrap="wrap">
        <TextInput
          label={t('app.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label={t('contacts.type')}
          clearable
          placeholder={t('app.all')}
          data={(['customer', 'vendor', 'both'] as const).map((v) => ({ value: v, label: typeLabel(v) }))}
          value={type}
          onChange={(v) => {
            setType(v);
            setPage(1);
          }}
        />
      </Group>
      {deleteError ? <ErrorState error={deleteError} /> : null}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} retry={() => query.refetch()} />
      ) : query.data.data.length === 0 ? (
        <Empty>{t('contacts.empty')}</Empty>
      ) : (
        <>
          <ScrollTable minWidth={520} label={t('contacts.title')}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('contacts.name')}</Table.Th>
                  <Table.Th>{t('contacts.type')}</Table.Th>
                  <Table.Th>{t('contacts.vatNumber')}</Table.Th>
                  <Table.Th>{t('auth.email')}</Table.Th>
                  {canWrite ? <Table.Th aria-label={t('app.edit')} /> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.data.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{c.name}</Table.Td>
                    <Table.Td>{typeLabel(c.type)}</Table.Td>
                    <Table.Td>{c.vatNumber}</Table.Td>
                    <Table.Td>{c.email}</Table.Td>
                    {canWrite ? (
                      <Table.Td>
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          <Button size="xs" variant="subtle" onClick={() => setEditing(c as Contact)}>
                            {t('app.edit')}
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red.9"
                            c="red.9"
                            loading={remove.isPending && remove.variables?.id === c.id}
                            onClick={() => {
                              if (window.confirm(t('contacts.confirmDelete', { name: c.name })))
                                remove.mutate(c as Contact);
                            }}
                          >
                            {t('app.delete')}
                          </Button>
                        </Group>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          <Pager page={page} pages={query.data.meta.totalPages} onPage={setPage} />
        </>
      )}
      {editing ? (
        <ContactForm
          contact={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            queryClient.invalidateQueries({ queryKey: ['contacts'] });
          }}
        />
      ) : null}
    </Stack>
  );
}

function ContactForm({
  contact,
  onClose,
  onSaved,
}: {
  contact: Contact | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const { me } = useAuth();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<ContactBody>({
    defaultValues: contact
      ? {
          type: contact.type as ContactType,
          name: contact.name,
          email: contact.email,
          phone: contact.phone,
          vatNumber: contact.vatNumber,
          registrationNumber: contact.registrationNumber,
          addressLine1: contact.addressLine1,
          city: contact.city,
          postalCode: contact.postalCode,
          country: contact.country,
          paymentTerms: contact.paymentTerms,
        }
      : { type: 'customer', name: '', country: me?.organization.country ?? 'RS', paymentTerms: 15 },
  });
  const errors = useFieldErrors(error);
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    // Empty optional fields are sent as null, not as "" the API would validate.
    const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' ? null : v])) as ContactBody;
    try {
      if (contact) unwrap(await api.PUT('/api/v1/contacts/{id}', { params: { path: { id: contact.id } }, body }));
      else unwrap(await api.POST('/api/v1/contacts', { body }));
      onSaved();
    } catch (err) {
      setError(err);
    }
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(contact ? 'contacts.edit' : 'contacts.new')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <Select
                label={t('contacts.type')}
                allowDeselect={false}
                data={[
                  { value: 'customer', label: t('contacts.customer') },
                  { value: 'vendor', label: t('contacts.vendor') },
                  { value: 'both', label: t('contacts.both') },
                ]}
                value={field.value}
                onChange={(v) => field.onChange(v ?? 'customer')}
              />
            )}
          />
          <TextInput label={t('contacts.name')} required error={errors.name} {...form.register('name')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput label={t('contacts.vatNumber')} error={errors.vatNumber} {...form.register('vatNumber')} />
            <TextInput
              label={t('contacts.registrationNumber')}
              error={errors.registrationNumber}
              {...form.register('registrationNumber')}
            />
            <TextInput label={t('auth.email')} type="email" error={errors.email} {...form.register('email')} />
            <TextInput label={t('contacts.phone')} error={errors.phone} {...form.register('phone')} />
            <TextInput label={t('contacts.address')} error={errors.addressLine1} {...form.register('addressLine1')} />
            <TextInput label={t('contacts.city')} error={errors.city} {...form.register('city')} />
            <TextInput label={t('contacts.postalCode')} error={errors.postalCode} {...form.register('postalCode')} />
            <Controller
              control={form.control}
              name="paymentTerms"
              render={({ field }) => (
                <NumberInput
                  label={t('contacts.paymentTerms')}
                  min={0}
                  max={365}
                  error={errors.paymentTerms}
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                />
              )}
            />
          </SimpleGrid>
          {error ? <ErrorState error={error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('app.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
