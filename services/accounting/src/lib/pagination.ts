import { pageNumberParam, readPage, totalPages } from '@app/shared/pagination';
import { type Static, type TSchema, Type } from 'typebox';
import { AppError } from './errors.js';
import { literalUnion } from './schemas.js';

/**
 * Listing conventions shared by every paginated endpoint: page (>= 1), perPage (1-100, default
 * 20), sort from a per-endpoint allow-list, order asc|desc (default desc); bad values answer
 * 400 SVC-9008; results come as { data, meta }.
 */
export function listQuery<S extends readonly string[], P extends Record<string, TSchema>>(sortable: S, filters: P) {
  return Type.Object({
    // pageRequest checks the range, so every bad value answers 400 SVC-9008.
    page: pageNumberParam('integer >= 1, default 1'),
    perPage: pageNumberParam('integer 1-100, default 20'),
    // Enums (issue 25 item 6): the document lists the values; another one is 400 SVC-9008 naming them.
    sort: Type.Optional(literalUnion([...sortable])),
    order: Type.Optional(literalUnion(['asc', 'desc'])),
    ...filters,
  });
}

export interface PageRequest<S extends string> {
  page: number;
  perPage: number;
  offset: number;
  sort: S;
  order: 'asc' | 'desc';
}

export function pageRequest<S extends string>(
  q: { page?: number | string; perPage?: number | string; sort?: string; order?: 'asc' | 'desc' },
  sortable: readonly S[],
  defaultSort: S,
): PageRequest<S> {
  const read = readPage({ page: q.page, size: q.perPage }, 20, 100);
  if (!read.ok) {
    throw new AppError(
      'SVC-9008',
      read.invalid[0] === 'page'
        ? { page: ['must be an integer of at least 1'] }
        : { perPage: ['must be an integer between 1 and 100'] },
    );
  }
  const { page, size: perPage, offset } = read.window;
  const sort = (q.sort ?? defaultSort) as S;
  if (!sortable.includes(sort)) {
    throw new AppError('SVC-9008', { sort: [`must be one of ${sortable.join(', ')}`] });
  }
  return { page, perPage, offset, sort, order: q.order ?? 'desc' };
}

export function pageMeta(total: number, p: { page: number; perPage: number }) {
  return { total, page: p.page, perPage: p.perPage, totalPages: totalPages(total, p.perPage) };
}

export const PageMeta = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  perPage: Type.Integer(),
  totalPages: Type.Integer(),
});

export function Paginated<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), meta: PageMeta });
}

export type ListQuery = Static<ReturnType<typeof listQuery>>;
