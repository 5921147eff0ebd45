import { type Kysely, sql } from 'kysely';

type Schema = Record<string, any>;

/**
 * Every `column IN ('a', 'b', ...)` CHECK constraint of the migrated database's own tables, as
 * PostgreSQL itself reads it back (`col = ANY (ARRAY['a'::text, ...])`), keyed `table.column`.
 * Lists of numbers (0/1 flags) are left out: they are not text fields.
 */
export async function checkLists(db: Kysely<any>): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ tbl: string; col: string | null; def: string }>`
    SELECT c.conrelid::regclass::text AS tbl,
           (SELECT string_agg(a.attname, ',') FROM pg_attribute a
             WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)) AS col,
           pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c
      JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE c.contype = 'c' AND n.nspname = 'public' AND c.conrelid <> 0`.execute(db);
  const out = new Map<string, string[]>();
  for (const r of rows) {
    // A one-value list reads back as `(col = 'value'::text)`.
    const m =
      /^CHECK \(\((\w+) = ANY \(ARRAY\[(.*)\]\)\)\)$/.exec(r.def) ??
      /^CHECK \(\((\w+) = ('(?:[^']|'')*'::text)\)\)$/.exec(r.def);
    if (!m || m[1] !== r.col) continue;
    const values = [...m[2].matchAll(/'((?:[^']|'')*)'::text/g)].map((v) => v[1].replace(/''/g, "'"));
    if (values.length) out.set(`${r.tbl}.${r.col}`, values);
  }
  return out;
}

/** One field of a success answer: `METHOD /path .data[].status` and its schema. */
export interface ResponseField {
  where: string;
  schema: Schema;
}

/** Every property of every 2xx JSON answer of the document, nested ones included. */
export function responseFields(doc: Schema): ResponseField[] {
  const out: ResponseField[] = [];
  const walk = (s: Schema | undefined, path: string, op: string) => {
    if (!s || typeof s !== 'object') return;
    for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) {
      out.push({ where: `${op} ${path}.${k}`, schema: v });
      walk(v, `${path}.${k}`, op);
    }
    if (s.items) walk(s.items, `${path}[]`, op);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const member of s[key] ?? []) walk(member, path, op);
  };
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      for (const [status, answer] of Object.entries<Schema>(op.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        walk(answer.content?.['application/json']?.schema, '', `${method.toUpperCase()} ${path}`);
      }
    }
  }
  return out;
}

/**
 * The values a field's schema lists: its `enum`, or the `enum` of a nullable field's non-null
 * member; undefined for a free string (or an `anyOf` of single values, which is no enum to a reader).
 */
export function enumOf(schema: Schema): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  const members = (schema.anyOf ?? []).filter((m: Schema) => m.type !== 'null');
  if (members.length === 1 && Array.isArray(members[0].enum)) return members[0].enum;
  return undefined;
}

/** Where a CHECK-listed column shows in the answers, or why it never does. */
export type Exposure = { fields: RegExp } | { internal: string };

/**
 * What is wrong with the answers' enums against the CHECK lists: a CHECK column the table does
 * not classify, a classified column whose pattern matches no answer field, and a matching field
 * that is a free string or lists other values than the CHECK (a one-value enum is a literal: the
 * operation always answers that value, which must be one of the list).
 */
export function enumProblems(doc: Schema, checks: Map<string, string[]>, exposure: Record<string, Exposure>): string[] {
  const problems: string[] = [];
  const fields = responseFields(doc);
  for (const [column, values] of checks) {
    const how = exposure[column];
    if (!how) {
      problems.push(`${column}: CHECK list not classified (name its answer fields, or why it is internal)`);
      continue;
    }
    if ('internal' in how) continue;
    const hits = fields.filter((f) => how.fields.test(f.where));
    if (!hits.length) problems.push(`${column}: no answer field matches ${how.fields}`);
    for (const f of hits) {
      const listed = enumOf(f.schema);
      if (!listed) problems.push(`${f.where} (${column}): free string, not an enum`);
      else if (
        listed.length === 1 ? !values.includes(listed[0]) : [...listed].sort().join() !== [...values].sort().join()
      )
        problems.push(`${f.where} (${column}): enum ${listed.join(',')} is not the CHECK list ${values.join(',')}`);
    }
  }
  for (const column of Object.keys(exposure))
    if (!checks.has(column)) problems.push(`${column}: classified but has no CHECK list (renamed or dropped?)`);
  return problems;
}
