import { type PageWindow, pageNumberParam, readPage, totalPages } from '@app/shared/pagination';
import { badRequest } from '../errors.js';

/** page and limit (R2: every bad value is 400 bad_request). */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return {
    page: pageNumberParam('integer >= 1, default 1'),
    limit: pageNumberParam(`integer 1-${maxLimit}, default ${defaultLimit}`),
  };
}

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

const MESSAGES = { page: () => 'must be at least 1', size: (max: number) => `must be between 1 and ${max}` };

/**
 * The page a listing asks for: raw query strings, or the numbers a route's PageQuery schema has
 * already checked and defaulted (then no check below can fail).
 */
export function pageOf(
  q: { page?: string | number; limit?: string | number },
  defaultLimit: number,
  maxLimit: number,
): Page {
  const read = readPage({ page: q.page, size: q.limit }, defaultLimit, maxLimit);
  if (!read.ok) {
    throw badRequest(
      'Invalid pagination',
      read.invalid.map((f) => ({ field: f === 'size' ? 'limit' : 'page', message: MESSAGES[f](maxLimit) })),
    );
  }
  const { page, size, offset }: PageWindow = read.window;
  return { page, limit: size, offset };
}

export function pagination(p: Page, total: number) {
  return { page: p.page, limit: p.limit, total, totalPages: totalPages(total, p.limit) };
}
