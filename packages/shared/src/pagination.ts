import { Type } from 'typebox';

/**
 * A page number or page size in a query string, as digits: the query-string conversion would
 * turn "1.5" into 1 and "0x10" into 16. readPage checks the range.
 */
export function pageNumberParam(description: string) {
  return Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description }));
}

export interface PageWindow {
  page: number;
  size: number;
  offset: number;
}

/**
 * Page (>= 1, default 1) and page size (1-maxSize, default defaultSize) of a listing. Out of
 * range: the fields at fault, page first, for the service to answer in its own words.
 */
export function readPage(
  raw: { page?: string | number; size?: string | number },
  defaultSize: number,
  maxSize: number,
): { ok: true; window: PageWindow } | { ok: false; invalid: Array<'page' | 'size'> } {
  const page = raw.page === undefined ? 1 : Number(raw.page);
  const size = raw.size === undefined ? defaultSize : Number(raw.size);
  const invalid: Array<'page' | 'size'> = [];
  if (!Number.isInteger(page) || page < 1) invalid.push('page');
  if (!Number.isInteger(size) || size < 1 || size > maxSize) invalid.push('size');
  if (invalid.length) return { ok: false, invalid };
  return { ok: true, window: { page, size, offset: (page - 1) * size } };
}

export function totalPages(total: number, size: number): number {
  return Math.ceil(total / size);
}
