import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.js';

/** The organization's customers (type customer or both) for pickers: the first 100 by name. */
export function useCustomers() {
  return useQuery({
    queryKey: ['customers'],
    staleTime: 30_000,
    queryFn: async () => {
      const page = unwrap(
        await api.GET('/api/v1/contacts', {
          params: { query: { perPage: '100', sort: 'name', order: 'asc', isActive: true } },
        }),
      );
      return page.data.filter((c) => c.type !== 'vendor');
    },
  });
}
