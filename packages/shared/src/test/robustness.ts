import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { expect } from 'vitest';

/**
 * The robustness walk (issue 8): fetch a service's own OpenAPI document and, for every
 * operation, send hostile values to every path parameter, query parameter and body field, one
 * at a time, the rest of the request valid. Each answer must be below 500, an error must carry
 * the service's envelope, and a refused request must not have written a row. Routes added later
 * are covered without editing the suite: the walk reads the document, not a list.
 */

type Schema = Record<string, any>;

export interface RobustnessTarget {
  app: FastifyInstance;
  /** Headers/cookies that authenticate a request to `url` (a signed-in owner or user). */
  credentials(url: string): InjectOptions;
  /** Called when an authenticated route answered 401: the walk signed itself out; sign in again. */
  reauthenticate(): Promise<void>;
  /** Why `body` is not the service's error envelope for `status`, or null when it is. */
  envelopeProblem(status: number, body: unknown): string | null;
  /** Rows written so far (see installWriteCounter). */
  writes(): Promise<number>;
  /** Operations not to walk (documentation, the document itself). */
  skip?(method: string, path: string): boolean;
}

export interface Finding {
  operation: string;
  variant: string;
  status: number;
  problem: string;
  body: string;
}

// --- write counter -------------------------------------------------------------------------

/**
 * Installs, in the test's own database, a row trigger on every table that counts writes into
 * one counter row: "no row written" is then one cheap read before and after a request.
 */
export async function installWriteCounter(db: Kysely<any>): Promise<() => Promise<number>> {
  await sql`CREATE TABLE IF NOT EXISTS robustness_writes (n bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO robustness_writes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM robustness_writes)`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION robustness_count_write() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public AS $$ BEGIN UPDATE robustness_writes SET n = n + 1; RETURN NULL; END $$`.execute(db);
  const tables = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'robustness_writes'
      AND NOT c.relispartition`.execute(db);
  for (const { name } of tables.rows) {
    await sql
      .raw(
        `CREATE OR REPLACE TRIGGER robustness_count_write AFTER INSERT OR UPDATE OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION robustness_count_write()`,
      )
      .execute(db);
  }
  return async () => Number((await sql<{ n: string | number }>`SELECT n FROM robustness_writes`.execute(db)).rows[0].n);
}

// --- sample values from a JSON Schema ------------------------------------------------------

function resolve(doc: Schema, s: Schema | undefined): Schema {
  let cur = s ?? {};
  for (let i = 0; i < 10 && cur.$ref; i++) {
    const path = String(cur.$ref).replace(/^#\//, '').split('/');
    cur = path.reduce((acc: any, k) => acc?.[k], doc) ?? {};
  }
  return cur;
}

const STRING_CANDIDATES = [
  'abc',
  'Test',
  'ABC',
  'RS',
  'EUR',
  'NOK',
  '2026-01-15',
  '12345678',
  '1',
  'a1',
  '+4712345678',
  'web',
  'mobile',
];

function sampleString(s: Schema): string {
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'email') return `robust.${Date.now().toString(36)}@example.test`;
  if (s.format === 'date') return '2026-01-15';
  if (s.format === 'date-time') return '2026-01-15T10:00:00.000Z';
  if (s.format === 'uri' || s.format === 'url') return 'https://example.test/x';
  let value = 'abc';
  if (s.pattern) {
    const re = new RegExp(s.pattern, 'u');
    value = STRING_CANDIDATES.find((c) => re.test(c)) ?? '';
    if (!value) {
      try {
        value = fc.sample(fc.stringMatching(re), { numRuns: 1, seed: 42 })[0];
      } catch {
        value = 'abc';
      }
    }
  }
  if (s.minLength && value.length < s.minLength) value = value.padEnd(s.minLength, 'x');
  if (s.maxLength !== undefined && value.length > s.maxLength) value = value.slice(0, s.maxLength);
  return value;
}

function sampleNumber(s: Schema, integer: boolean): number {
  let n =
    typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
  if (typeof s.maximum === 'number' && n > s.maximum) n = s.maximum;
  return integer ? Math.ceil(n) : n;
}

/** A value the schema accepts, as far as a generator without the service's rules can tell. */
export function sample(doc: Schema, schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (depth > 6) return null;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((x: Schema) => sample(doc, x, depth + 1)));
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) {
      const options = s[key].map((x: Schema) => resolve(doc, x));
      const pick = options.find((o: Schema) => o.type !== 'null') ?? options[0];
      return sample(doc, pick, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return sampleString(s);
    case 'integer':
      return sampleNumber(s, true);
    case 'number':
      return sampleNumber(s, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(1, s.minItems ?? 1);
      return Array.from({ length: count }, () => sample(doc, s.items, depth + 1));
    }
    default: {
      if (!s.properties) return type === 'object' ? {} : 'abc';
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties)) out[k] = sample(doc, v, depth + 1);
      return out;
    }
  }
}

// --- hostile values ------------------------------------------------------------------------

/** A body value written as raw JSON text, so -0 and 1e308 reach the parser as sent. */
interface Raw {
  raw: string;
  label: string;
}
const raw = (label: string, text: string): Raw => ({ label, raw: text });

const LONG = 'x'.repeat(100_000);
export const HOSTILE_STRINGS: Raw[] = [
  raw('NUL', JSON.stringify('a\u0000b')),
  raw('lone surrogate', '"a\\ud800b"'),
  raw('100,000 characters', JSON.stringify(LONG)),
  raw('number for a string', '12345'),
  raw('object for a string', '{"a":1}'),
];
export const HOSTILE_NUMBERS: Raw[] = [
  raw('1e308', '1e308'),
  raw('-1e308', '-1e308'),
  raw('-0', '-0'),
  raw('0.1+0.2', '0.30000000000000004'),
  raw('2^53+1', '9007199254740993'),
  raw('string for a number', '"1"'),
  raw('"Infinity"', '"Infinity"'),
];
const HOSTILE_OTHER: Raw[] = [raw('array for a value', '[]'), raw('NUL string', JSON.stringify('\u0000'))];
const HOSTILE_OBJECTS: Raw[] = [raw('array for an object', '[{}]'), raw('string for an object', '"x"')];
const HOSTILE_ARRAYS: Raw[] = [raw('object for an array', '{"0":"a"}'), raw('string for an array', '"x"')];

export const HOSTILE_PATH = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['bad percent-encoding', '%E0%A4%A'],
  ['encoded lone surrogate', '%ED%A0%80'],
  ['3,000-character id', 'a'.repeat(3000)],
  ['1e308', '1e308'],
  ['-0', '-0'],
] as const;

export const HOSTILE_QUERY = [
  ['NUL', 'a%00b'],
  ['bad percent-encoding', '%E0%A4%A'],
  ['encoded lone surrogate', '%ED%A0%80'],
  ['100,000 characters', LONG],
  ['1e308', '1e308'],
  ['-0', '-0'],
  ['0.1+0.2', '0.30000000000000004'],
] as const;

// --- multipart forms -----------------------------------------------------------------------

const BOUNDARY = 'robustnessBoundary';
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

function multipartForm(fields: Record<string, unknown>, files: Array<{ field: string; data: Buffer }>, end = true) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`),
    );
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${f.field}"; filename="robust.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  if (end) parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(parts), headers: MULTIPART };
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** The broken forms of issue 25 item 1, built around the operation's own fields and file field. */
function malformedForms(
  fields: Record<string, unknown>,
  fileField: string,
): Array<[string, ReturnType<typeof multipartForm>]> {
  const good = multipartForm(fields, [{ field: fileField, data: PDF }]);
  const unclosed = multipartForm(fields, [{ field: fileField, data: PDF }], false);
  return [
    ['no closing boundary', unclosed],
    ['no boundary in the content type', { payload: good.payload, headers: { 'content-type': 'multipart/form-data' } }],
    [
      'a part without Content-Disposition',
      {
        payload: Buffer.concat([
          multipartForm(fields, [], false).payload,
          Buffer.from(`--${BOUNDARY}\r\nContent-Type: application/pdf\r\n\r\n`),
          PDF,
          Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
        ]),
        headers: MULTIPART,
      },
    ],
    [
      'two file parts',
      multipartForm(fields, [
        { field: fileField, data: PDF },
        { field: `${fileField}2`, data: PDF },
      ]),
    ],
    ['an empty file', multipartForm(fields, [{ field: fileField, data: Buffer.alloc(0) }])],
    ['a text field instead of the file', multipartForm({ ...fields, [fileField]: 'not a file' }, [])],
    [
      'a body cut off inside the file',
      { payload: unclosed.payload.subarray(0, unclosed.payload.length - 8), headers: MULTIPART },
    ],
  ];
}

/** The file field of a multipart schema (a property with format binary), else "file". */
function fileFieldOf(doc: Schema, schema: Schema | undefined): string {
  const s = resolve(doc, schema);
  for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
    if (resolve(doc, prop).format === 'binary') return name;
  }
  return 'file';
}

/** The first example of a request body content, if the operation documents one. */
function exampleOf(content: Schema | undefined): unknown {
  if (!content) return undefined;
  if (content.example !== undefined) return structuredClone(content.example);
  const first = Object.values<Schema>(content.examples ?? {})[0];
  return first?.value !== undefined ? structuredClone(first.value) : undefined;
}

// --- the walk ------------------------------------------------------------------------------

interface Operation {
  method: string;
  path: string;
  op: Schema;
}

function operations(doc: Schema, skip?: (m: string, p: string) => boolean): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op || skip?.(method.toUpperCase(), path)) continue;
      out.push({
        method: method.toUpperCase(),
        path,
        op: { ...op, parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])] },
      });
    }
  }
  return out;
}

/** Leaves and containers of a sample body, as paths, at most `limit` of them. */
function positions(value: unknown, limit: number): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  const walk = (v: unknown, path: Array<string | number>) => {
    if (out.length >= limit) return;
    if (path.length) out.push(path);
    if (Array.isArray(v)) {
      for (const [i, x] of v.slice(0, 1).entries()) walk(x, [...path, i]);
    } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(value, []);
  return out;
}

const MARK = '__robustness_hostile__';

function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  const copy = structuredClone(root) as any;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k];
  cur[path[path.length - 1]] = value;
  return copy;
}

function getAt(root: unknown, path: Array<string | number>): unknown {
  return path.reduce((acc: any, k) => acc?.[k], root);
}

function hostileFor(value: unknown): Raw[] {
  if (typeof value === 'string') return HOSTILE_STRINGS;
  if (typeof value === 'number') return HOSTILE_NUMBERS;
  if (Array.isArray(value)) return HOSTILE_ARRAYS;
  if (value && typeof value === 'object') return HOSTILE_OBJECTS;
  return HOSTILE_OTHER;
}

function describePath(path: Array<string | number>): string {
  return path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${k}` : k), '');
}

export interface WalkOptions {
  /** Body positions tried per operation (keeps the run to a couple of minutes on PGlite). */
  maxBodyPositions?: number;
  /** A JSON body over the service's body limit (default 1 MiB + 1 KiB of text). */
  oversizeJsonBytes?: number;
  /** A multipart file over every upload limit (default 12 MiB). */
  oversizeFileBytes?: number;
}

export interface WalkResult {
  findings: Finding[];
  requests: number;
  operations: number;
  /** Requests sent per operation (`METHOD /path`), for the report. */
  perOperation: Map<string, number>;
  /** Operations whose baseline request was accepted (2xx), so the mutations reached the handler. */
  baselineAccepted: string[];
}

export async function walkOpenApi(target: RobustnessTarget, opts: WalkOptions = {}): Promise<WalkResult> {
  const { app } = target;
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Schema;
  const ops = operations(doc, target.skip);
  const findings: Finding[] = [];
  let requests = 0;
  const perOperation = new Map<string, number>();
  const baselineAccepted: string[] = [];

  async function send(
    operation: string,
    variant: string,
    req: InjectOptions & { url: string },
    expect?: { refused?: boolean; status?: number; orNotFound?: boolean },
  ): Promise<number> {
    const inject = () =>
      app.inject({
        ...target.credentials(req.url),
        ...req,
        headers: { ...target.credentials(req.url).headers, ...req.headers },
      });
    let before = await target.writes();
    let res: LightMyRequestResponse = await inject();
    requests++;
    perOperation.set(operation, (perOperation.get(operation) ?? 0) + 1);
    if (res.statusCode === 401) {
      // An earlier accepted request (logout, password change) may have ended the session: sign
      // in again (its writes are not the request's) and send the request once more.
      await target.reauthenticate();
      before = await target.writes();
      res = await inject();
    }
    const after = await target.writes();
    // ROBUSTNESS_TRACE=1 prints every answer (to see which handlers a walk reaches).
    if (process.env.ROBUSTNESS_TRACE)
      console.log(`${res.statusCode} ${operation} [${variant}] ${res.body.slice(0, 160)}`);
    const note = (problem: string) =>
      findings.push({ operation, variant, status: res.statusCode, problem, body: res.body.slice(0, 300) });
    if (res.statusCode >= 500) note('server error');
    if (res.statusCode >= 400) {
      let body: unknown;
      try {
        body = res.json();
      } catch {
        body = res.body;
      }
      const problem = target.envelopeProblem(res.statusCode, body);
      if (problem) note(`not the envelope: ${problem}`);
      if (after !== before) note(`refused request wrote ${after - before} row(s)`);
    }
    if (res.statusCode < 300 && variant.includes('100,000 characters') && variant.startsWith('body')) {
      note('accepted a 100,000-character string (G14: strings have length limits)');
    }
    if (expect?.refused && res.statusCode < 400) note('accepted a request it must refuse');
    if (
      expect?.status &&
      res.statusCode < 500 &&
      res.statusCode !== expect.status &&
      !(expect.orNotFound && res.statusCode === 404)
    )
      note(`answered ${res.statusCode}, not ${expect.status}`);
    return res.statusCode;
  }

  // A path parameter gets an id that exists when the collection above it lists one, so handlers
  // run with real rows (GET /contacts gives the id for /contacts/{id}/...).
  const listed = new Map<string, string | null>();
  async function existingId(path: string, name: string): Promise<string | null> {
    const at = path.indexOf(`{${name}}`);
    const collection = path.slice(0, at).replace(/\/$/, '');
    if (/\{/.test(collection)) return null;
    if (!listed.has(collection)) {
      let id: string | null = null;
      const res = await app.inject({ method: 'GET', url: collection, ...target.credentials(collection) });
      if (res.statusCode === 200) {
        const body = res.json() as any;
        const list = Array.isArray(body)
          ? body
          : Array.isArray(body?.data)
            ? body.data
            : Array.isArray(body?.items)
              ? body.items
              : [];
        const first = list.find((x: any) => x && (typeof x.id === 'string' || typeof x.code === 'string'));
        id = first ? String(first.id ?? first.code) : null;
      }
      listed.set(collection, id);
    }
    return listed.get(collection) ?? null;
  }

  for (const { method, path, op } of ops) {
    const operation = `${method} ${path}`;
    const params = (op.parameters ?? []) as Schema[];
    const pathParams = params.filter((p) => p.in === 'path');
    const queryParams = params.filter((p) => p.in === 'query');
    const jsonContent = op.requestBody?.content?.['application/json'];
    const multipartContent = op.requestBody?.content?.['multipart/form-data'];
    const bodySchema = jsonContent?.schema ?? multipartContent?.schema;
    // The baseline body: the operation's own example (a request the service accepts), else one
    // generated from the schema; every mutation below changes one field of it.
    const body = bodySchema ? (exampleOf(jsonContent) ?? sample(doc, bodySchema)) : undefined;

    const pathValues: Record<string, string> = {};
    for (const p of pathParams) {
      pathValues[p.name] = (await existingId(path, p.name)) ?? String(sample(doc, p.schema) ?? randomUUID());
    }
    const urlWith = (values: Record<string, string>, query = '') =>
      path.replace(/\{([^}]+)\}/g, (_m, name) => values[name] ?? randomUUID()) + query;
    const requiredQuery = queryParams
      .filter((p) => p.required)
      .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(sample(doc, p.schema)))}`);
    const queryWith = (extra: string[]) => {
      const all = [...requiredQuery, ...extra];
      return all.length ? `?${all.join('&')}` : '';
    };
    const payloadOf = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
    const jsonHeaders = body === undefined ? {} : { 'content-type': 'application/json' };

    // The baseline: the valid request first, so handlers and the database see a request that passes
    // validation before they see its mutations (issue 34 item 5).
    const baseline = await send(operation, 'baseline', {
      method: method as any,
      url: urlWith(pathValues) + queryWith([]),
      payload: jsonContent ? payloadOf(body) : undefined,
      headers: jsonContent ? jsonHeaders : {},
    });
    if (baseline < 300) baselineAccepted.push(operation);
    // Every operation, inputs or not: an undeclared query value with a NUL is refused too (G14).
    await send(operation, 'query (undeclared): NUL', {
      method: method as any,
      url: urlWith(pathValues) + queryWith(['robustness=a%00b']),
      payload: payloadOf(body),
      headers: jsonHeaders,
    });
    for (const p of pathParams) {
      for (const [label, value] of HOSTILE_PATH) {
        const url = urlWith({ ...pathValues, [p.name]: value }, queryWith([]));
        await send(operation, `path ${p.name}: ${label}`, {
          method: method as any,
          url,
          payload: payloadOf(body),
          headers: jsonHeaders,
        });
      }
    }
    for (const p of queryParams) {
      const others = requiredQuery.filter((q) => !q.startsWith(`${encodeURIComponent(p.name)}=`));
      for (const [label, value] of HOSTILE_QUERY) {
        const url = `${urlWith(pathValues)}?${[...others, `${encodeURIComponent(p.name)}=${value}`].join('&')}`;
        await send(operation, `query ${p.name}: ${label}`, {
          method: method as any,
          url,
          payload: payloadOf(body),
          headers: jsonHeaders,
        });
      }
      const twice = `${encodeURIComponent(p.name)}=a&${encodeURIComponent(p.name)}=b`;
      await send(operation, `query ${p.name}: repeated (an array)`, {
        method: method as any,
        url: `${urlWith(pathValues)}?${[...others, twice].join('&')}`,
        payload: payloadOf(body),
        headers: jsonHeaders,
      });
    }
    if (body !== undefined) {
      const url = urlWith(pathValues, queryWith([]));
      await send(operation, 'body: unknown content type', {
        method: method as any,
        url,
        payload: '<x/>',
        headers: { 'content-type': 'application/xml' },
      });
      for (const [label, text] of [
        ['array for the body', '[]'],
        ['string for the body', '"x"'],
        ['null body', 'null'],
      ]) {
        await send(operation, `body: ${label}`, {
          method: method as any,
          url,
          payload: text,
          headers: { 'content-type': 'application/json' },
        });
      }
      for (const pos of positions(body, opts.maxBodyPositions ?? 40)) {
        for (const h of hostileFor(getAt(body, pos))) {
          const payload = JSON.stringify(setAt(body, pos, MARK)).replace(`"${MARK}"`, h.raw);
          await send(operation, `body ${describePath(pos)}: ${h.label}`, {
            method: method as any,
            url,
            payload,
            headers: { 'content-type': 'application/json' },
          });
        }
      }
    }
    if (body !== undefined || multipartContent) {
      const url = urlWith(pathValues, queryWith([]));
      // Oversize (issue 25 item 2): a JSON body over the limit is 413 in the envelope.
      await send(
        operation,
        'oversize: JSON body over the limit',
        {
          method: method as any,
          url,
          payload: `{"robustness":"${'x'.repeat(opts.oversizeJsonBytes ?? 1024 * 1024 + 1024)}"}`,
          headers: { 'content-type': 'application/json' },
        },
        { status: 413 },
      );
      // Multipart (issue 25 item 1): broken forms are refused with a 4xx on a multipart operation,
      // and any multipart body on a JSON-only one.
      const fileField = multipartContent ? fileFieldOf(doc, multipartContent.schema) : 'file';
      const fields = Object.fromEntries(
        Object.entries((body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Schema).filter(
          ([k, v]) => k !== fileField && v !== null && typeof v !== 'object',
        ),
      ) as Record<string, unknown>;

      for (const [label, form] of malformedForms(fields, fileField)) {
        await send(
          operation,
          `multipart: ${label}`,
          { method: method as any, url, payload: form.payload, headers: form.headers },
          { refused: true },
        );
      }
      if (multipartContent) {
        const big = multipartForm(fields, [
          { field: fileField, data: Buffer.alloc(opts.oversizeFileBytes ?? 12 * 1024 * 1024, 0x25) },
        ]);
        await send(
          operation,
          'oversize: multipart file over every upload limit',
          { method: method as any, url, payload: big.payload, headers: big.headers },
          // A route that looks its record up before it reads the upload may answer 404 first.
          { status: 413, orNotFound: true },
        );
      }
    }
  }
  return { findings, requests, operations: ops.length, perOperation, baselineAccepted };
}

/** Findings grouped as "problem: operations (variants)" lines, for the failure message and the report. */
export function summarize(findings: Finding[]): string {
  const groups = new Map<string, Map<string, Set<string>>>();
  for (const f of findings) {
    const problem = `${f.problem} (${f.status})`;
    const byOp = groups.get(problem) ?? new Map<string, Set<string>>();
    groups.set(problem, byOp);
    const variants = byOp.get(f.operation) ?? new Set<string>();
    byOp.set(f.operation, variants);
    variants.add(f.variant);
  }
  const lines: string[] = [];
  for (const [problem, byOp] of groups) {
    lines.push(`${problem}:`);
    for (const [op, variants] of byOp)
      lines.push(
        `  ${op}: ${[...variants].slice(0, 6).join('; ')}${variants.size > 6 ? ` (+${variants.size - 6})` : ''}`,
      );
  }
  const examples = findings.slice(0, 5).map((f) => `  e.g. ${f.operation} [${f.variant}] -> ${f.status} ${f.body}`);
  return [...lines, ...examples].join('\n');
}

/**
 * The suite's one check, the same for both services: walk every operation, and expect no finding, more than 20
 * operations, more requests than operations, and a valid baseline reaching the handler for at least a third of
 * them (issue 34 item 5: the mutations start from a passing request). ROBUSTNESS_COUNTS=1 prints what a full
 * run sends (issue 25's closing note).
 */
export async function expectRobust(target: RobustnessTarget): Promise<void> {
  const { findings, requests, operations, perOperation, baselineAccepted } = await walkOpenApi(target);
  if (process.env.ROBUSTNESS_COUNTS) {
    const counts = [...perOperation.values()];
    console.log(
      `${operations} operations, ${requests} requests (per operation ${Math.min(...counts)}-${Math.max(...counts)}), ` +
        `${baselineAccepted.length} baselines accepted\n` +
        [...perOperation]
          .map(([op, n]) => `${n}\t${op}${baselineAccepted.includes(op) ? '\t(baseline 2xx)' : ''}`)
          .join('\n'),
    );
  }
  expect(operations).toBeGreaterThan(20);
  expect(requests).toBeGreaterThan(operations);
  expect(baselineAccepted.length).toBeGreaterThan(operations / 3);
  expect(findings, summarize(findings)).toEqual([]);
}
