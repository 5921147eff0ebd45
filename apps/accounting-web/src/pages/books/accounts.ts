import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import type { MessageKey } from '../../i18n/index.js';

export type Account = paths['/api/v1/accounts']['get']['responses'][200]['content']['application/json']['data'][number];

/** The chart of accounts (ordered by code by the service). */
export function useAccounts() {
  return useQuery({
    queryKey: ['accounts'],
    staleTime: 30_000,
    queryFn: async () => unwrap(await api.GET('/api/v1/accounts')).data,
  });
}

/** Account type ids (A7): 1 asset, 2 liability, 3 equity, 4 revenue, 5 expense. */
export const TYPE_KEYS: Record<number, MessageKey> = {
  1: 'books.type.asset',
  2: 'books.type.liability',
  3: 'books.type.equity',
  4: 'books.type.revenue',
  5: 'books.type.expense',
};

export interface TreeRow {
  account: Account;
  depth: number;
}

/** Accounts of one type in tree order: each parent followed by its children (any depth), by code. */
export function treeRows(accounts: Account[]): TreeRow[] {
  const ids = new Set(accounts.map((a) => a.id));
  const children = new Map<string | null, Account[]>();
  for (const a of accounts) {
    const parent = a.parentAccountId && ids.has(a.parentAccountId) ? a.parentAccountId : null;
    children.set(parent, [...(children.get(parent) ?? []), a]);
  }
  const rows: TreeRow[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const a of (children.get(parent) ?? []).sort((x, y) => x.code.localeCompare(y.code))) {
      rows.push({ account: a, depth });
      if (depth < 8) walk(a.id, depth + 1);
    }
  };
  walk(null, 0);
  return rows;
}

/** The account and every account under it (an account cannot move under any of these). */
export function subtreeOf(accounts: Account[], id: string): Set<string> {
  const seen = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const a of accounts) {
      if (a.parentAccountId && seen.has(a.parentAccountId) && !seen.has(a.id)) {
        seen.add(a.id);
        grew = true;
      }
    }
  }
  return seen;
}
