import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';

export type BankAccount =
  paths['/api/v1/bank-accounts']['get']['responses'][200]['content']['application/json']['data'][number];

/** The organization's bank accounts (not paginated, oldest first). */
export function useBankAccounts() {
  return useQuery({
    queryKey: ['bank-accounts'],
    queryFn: async () => unwrap(await api.GET('/api/v1/bank-accounts')).data,
  });
}

/** The organization's vendors (type vendor or both) for pickers: the first 100 by name. */
export function useVendors() {
  return useQuery({
    queryKey: ['vendors'],
    staleTime: 30_000,
    queryFn: async () => {
      const page = unwrap(
        await api.GET('/api/v1/contacts', {
          params: { query: { perPage: '100', sort: 'name', order: 'asc', isActive: true } },
        }),
      );
      return page.data.filter((c) => c.type !== 'customer');
    },
  });
}

/** Today as YYYY-MM-DD in the browser's time zone. */
export const today = () => dayjs().format('YYYY-MM-DD');

/** NumberInput separators for the locale (decimal comma outside English). */
export const numberSeparators = (locale: string) =>
  locale === 'en'
    ? { decimalSeparator: '.', thousandSeparator: ',' }
    : { decimalSeparator: ',', thousandSeparator: '.' };
