import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { useI18n } from '../i18n/index.js';

type Contact = paths['/api/v1/contacts/{id}']['get']['responses'][200]['content']['application/json'];
export type PickedContact = Pick<Contact, 'id' | 'name' | 'paymentTerms' | 'currencyCode'>;
/** Customers are contacts of type customer or both; vendors of type vendor or both. */
type Side = 'customer' | 'vendor';

/** How many contacts a picker loads at once; past that it asks the server as the user types. */
const FIRST = 100;

async function contactPage(side: Side, search: string) {
  const page = unwrap(
    await api.GET('/api/v1/contacts', {
      params: {
        query: { perPage: String(FIRST), sort: 'name', order: 'asc', isActive: true, ...(search ? { search } : {}) },
      },
    }),
  );
  return {
    data: page.data.filter((c) => c.type === side || c.type === 'both'),
    complete: page.meta.total <= page.data.length,
  };
}

/** The organization's first 100 active customers or vendors by name. */
function useFirstContacts(side: Side) {
  return useQuery({ queryKey: ['contacts-first', side], staleTime: 30_000, queryFn: () => contactPage(side, '') });
}

/**
 * A customer or vendor picker that works past the first 100 contacts: those are loaded at once and filtered as the
 * user types; when there are more, what is typed is also looked up on the server (name or e-mail, after a 250 ms
 * pause). A chosen contact outside both lists (a bookmarked filter, a draft of a deactivated customer) is read by
 * id, so the field names it.
 */
export function ContactSelect({
  side,
  value,
  onChange,
  ...props
}: {
  side: Side;
  value: string | null;
  onChange: (contact: PickedContact | null) => void;
  label: string;
  required?: boolean;
  clearable?: boolean;
  placeholder?: string;
  error?: string;
}) {
  const { t } = useI18n();
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search.trim(), 250);
  const first = useFirstContacts(side);
  const found = useQuery({
    queryKey: ['contacts-search', side, typed],
    enabled: Boolean(typed) && first.data?.complete === false,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    queryFn: () => contactPage(side, typed),
  });
  const known: PickedContact[] = [...(first.data?.data ?? []), ...(found.data?.data ?? [])];
  const chosen = useQuery({
    queryKey: ['contact', value],
    enabled: Boolean(value) && first.isSuccess && !known.some((c) => c.id === value),
    staleTime: 30_000,
    queryFn: async () => unwrap(await api.GET('/api/v1/contacts/{id}', { params: { path: { id: value! } } })),
  });
  if (chosen.data) known.push(chosen.data);
  const options = known.filter((c, i) => known.findIndex((x) => x.id === c.id) === i);
  return (
    <Select
      {...props}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={found.isFetching ? t('app.loading') : t('contacts.noMatch')}
      data={options.map((c) => ({ value: c.id, label: c.name }))}
      value={value}
      onChange={(id) => onChange(options.find((c) => c.id === id) ?? null)}
    />
  );
}
