/**
 * G14: PostgreSQL text cannot hold U+0000, and its JSON types refuse lone UTF-16 surrogates, so
 * such a string must be refused as a validation error before any handler runs, never reach the
 * database as a query error. One check for every route of both services: a preValidation hook
 * (createHttp) walks the decoded body, path parameters and query values.
 */

/** The keyword of the validation issue this check raises; each service's error handler formats it. */
export const UNSAFE_TEXT_KEYWORD = 'unsafeText';

export interface UnsafeTextIssue {
  keyword: typeof UNSAFE_TEXT_KEYWORD;
  /** JSON pointer of the field, as Ajv/TypeBox write it: '/items/0/description'. */
  instancePath: string;
  message: string;
  params: Record<string, never>;
}

export type RequestPart = 'body' | 'params' | 'querystring';

/** Shaped like Fastify's own validation error, so both services' handlers format it as one. */
export class UnsafeTextError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
  readonly validation: UnsafeTextIssue[];
  constructor(
    readonly validationContext: RequestPart,
    instancePath: string,
  ) {
    super(`${validationContext}${instancePath} must not contain U+0000 or unpaired surrogates`);
    this.validation = [
      {
        keyword: UNSAFE_TEXT_KEYWORD,
        instancePath,
        message: 'must not contain U+0000 or unpaired surrogates',
        params: {},
      },
    ];
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is this pattern's purpose.
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** A string PostgreSQL cannot store as text or JSON: a NUL, or a surrogate without its pair. */
export function isUnsafeText(s: string): boolean {
  if (!SUSPECT.test(s)) return false;
  return s.includes('\u0000') || !(s as string & { isWellFormed(): boolean }).isWellFormed();
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isOpaque(v: object): boolean {
  // Bytes, dates and streams (a multipart file) are not text to check.
  return (
    ArrayBuffer.isView(v) ||
    v instanceof ArrayBuffer ||
    v instanceof Date ||
    typeof (v as { pipe?: unknown }).pipe === 'function'
  );
}

/**
 * The JSON pointer of the first unsafe string (object keys included) in a decoded value, or
 * null. Iterative so a hostile body cannot overflow the stack. Query and params objects have
 * no Object prototype, and multipart parts refer to each other, hence the opaque and seen checks.
 */
export function findUnsafeText(value: unknown): string | null {
  if (typeof value === 'string') return isUnsafeText(value) ? '' : null;
  if (value === null || typeof value !== 'object') return null;
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (isUnsafeText(v)) return path;
      continue;
    }
    if (v === null || typeof v !== 'object' || seen.has(v) || isOpaque(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}/${i}`]);
      continue;
    }
    for (const key of Object.keys(v)) {
      const child = `${path}/${escapePointer(key)}`;
      if (isUnsafeText(key)) return child;
      stack.push([(v as Record<string, unknown>)[key], child]);
    }
  }
  return null;
}

/**
 * True when a value certainly holds no unsafe string: a string, number, boolean, null or
 * undefined, or an object whose keys and values are such scalars (path parameters, query
 * strings and most bodies). Nothing allocated, so the hot path of every request stays cheap;
 * anything else (nested values, bytes, streams) answers false and takes the full walk.
 */
function flatAndSafe(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return !SUSPECT.test(value);
  if (typeof value !== 'object') return true;
  if (Array.isArray(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (SUSPECT.test(key)) return false;
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'string') {
      if (SUSPECT.test(v)) return false;
    } else if (v !== null && typeof v === 'object') return false;
  }
  return true;
}

/** Throws UnsafeTextError naming the first unsafe field of a request's decoded parts. */
export function assertSafeText(parts: { body?: unknown; params?: unknown; query?: unknown }): void {
  checkPart('params', parts.params);
  checkPart('querystring', parts.query);
  checkPart('body', parts.body);
}

function checkPart(part: RequestPart, value: unknown): void {
  if (flatAndSafe(value)) return;
  const path = findUnsafeText(value);
  if (path !== null) throw new UnsafeTextError(part, path);
}
