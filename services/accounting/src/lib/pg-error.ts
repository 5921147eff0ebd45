/** The SQLSTATE of a PostgreSQL error (pg and PGlite both set `code`), or undefined for any other error. */
export function pgCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** 23505: a unique key refused the row (two writers raced for one value). */
export const isUniqueViolation = (err: unknown): boolean => pgCode(err) === '23505';
