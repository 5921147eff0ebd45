import { Type } from 'typebox';
import { badRequest } from '../errors.js';

/**
 * page and limit as digit strings: the query-string conversion would turn "1.5" into 1 and
 * "0x10" into 16. pageOf checks the range; every bad value is 400 bad_request (R2).
 */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return {
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'integer >= 1, default 1' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: `integer 1-${maxLimit}, default ${defaultLimit}` })),
  };
}

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(q: { page?: string; limit?: string }, defaultLimit: number, maxLimit: number): Page {
  const page = q.page === undefined ? 1 : Number(q.page);
  const limit = q.limit === undefined ? defaultLimit : Number(q.limit);
  const details = [];
  if (page < 1) details.push({ field: 'page', message: 'must be at least 1' });
  if (limit < 1 || limit > maxLimit) details.push({ field: 'limit', message: `must be between 1 and ${maxLimit}` });
  if (details.length) throw badRequest('Invalid pagination', details);
  return { page, limit, offset: (page - 1) * limit };
}

export function pagination(p: Page, total: number) {
  return { page: p.page, limit: p.limit, total, totalPages: Math.ceil(total / p.limit) };
}
