import { useQuery } from '@tanstack/react-query';
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

/** Today as YYYY-MM-DD in the browser's time zone. */
/** NumberInput separators for the locale (decimal comma outside English). */
export const numberSeparators = (locale: string) =>
  locale === 'en'
    ? { decimalSeparator: '.', thousandSeparator: ',' }
    : { decimalSeparator: ',', thousandSeparator: '.' };
