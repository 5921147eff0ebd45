import type { RawPool } from './raw-client.js';

/**
 * Kysely table types generated from a migrated database (`npm run db:types`, checked for drift by
 * test/db-types.test.ts), so the TypeScript view of a table cannot silently differ from its SQL.
 *
 * Written here instead of using kysely-codegen because the types must describe what our own
 * drivers return and accept (raw-client.ts): numeric is a decimal string both ways (codegen lets
 * a JS number be written), bigint is a number, date a 'YYYY-MM-DD' string. Reading the catalog
 * directly also works on the embedded PGlite without a socket server, and turns a CHECK (col IN
 * (...)) constraint into a literal union, which the code relies on for roles and statuses.
 */

interface ColumnRow {
  table_name: string;
  column_name: string;
  type_name: string;
  type_kind: string;
  element_type: string | null;
  not_null: boolean;
  has_default: boolean;
  identity: string;
  generated: string;
  enum_labels: string[] | null;
}

interface CheckRow {
  table_name: string;
  column_name: string;
  definition: string;
}

// Base types of the public schema's columns: domains resolved to their base type, arrays to
// their element type, enums with their labels.
// PostgreSQL does not know whether a view's column can be null: a view
// column is typed not null when its comment starts with "not null".
const COLUMNS_SQL = `
SELECT c.relname AS table_name, a.attname AS column_name,
       bt.typname AS type_name, bt.typtype AS type_kind, et.typname AS element_type,
       (a.attnotnull OR t.typnotnull OR (c.relkind = 'v' AND col_description(c.oid, a.attnum) LIKE 'not null%')) AS not_null, a.atthasdef AS has_default,
       a.attidentity::text AS identity, a.attgenerated::text AS generated,
       (SELECT array_agg(e.enumlabel::text ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = bt.oid) AS enum_labels
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
LEFT JOIN pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A'
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm') AND a.attnum > 0 AND NOT a.attisdropped
  AND c.relname <> 'schema_migrations'
ORDER BY c.relname, a.attnum`;

const CHECKS_SQL = `
SELECT c.relname AS table_name, a.attname AS column_name, pg_get_constraintdef(k.oid) AS definition
FROM pg_constraint k
JOIN pg_class c ON c.oid = k.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
WHERE n.nspname = 'public' AND k.contype = 'c' AND cardinality(k.conkey) = 1
ORDER BY c.relname, a.attname, k.conname`;

/** Select types of the catalog's base types, as raw-client.ts makes both backends return them. */
const SCALARS: Record<string, string> = {
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  oid: 'number',
  numeric: 'Numeric',
  bool: 'boolean',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  char: 'string',
  name: 'string',
  citext: 'string',
  uuid: 'string',
  inet: 'string',
  cidr: 'string',
  date: 'string',
  time: 'string',
  timetz: 'string',
  timestamp: 'Timestamp',
  timestamptz: 'Timestamp',
  json: 'Json',
  jsonb: 'Json',
  bytea: 'Uint8Array',
};

const PREAMBLE = `import type { Generated, GeneratedAlways, Json, Numeric, Timestamp } from '@app/shared/db/column-types';

export type { Generated, GeneratedAlways, Json, Numeric, Timestamp };
`;

function quote(literal: string): string {
  return `'${literal.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The values a CHECK constraint allows, when it is `col IN ('a', 'b')` or `col = 'a'` on a text
 * column (PostgreSQL prints both as `= ANY (ARRAY[...])` or `= '...'::text`); null otherwise.
 */
export function allowedValues(definition: string, column: string): string[] | null {
  const col = `\\(?"?${column.replace(/[^a-z0-9_]/gi, '')}"?\\)?(?:::text)?`;
  const literal = `'(?:[^']|'')*'::(?:text|character varying)`;
  const list = new RegExp(
    `^CHECK \\(\\(${col} = (?:ANY \\(\\(?ARRAY\\[(${literal}(?:, ${literal})*)\\]\\)?(?:::text\\[\\])?\\)|(${literal}))\\)\\)$`,
  );
  const m = list.exec(definition);
  if (!m) return null;
  return [...(m[1] ?? m[2]).matchAll(/'((?:[^']|'')*)'::/g)].map((v) => v[1].replace(/''/g, "'"));
}

function pascal(table: string): string {
  return table.replace(/(^|_)([a-z0-9])/g, (_, __, ch: string) => ch.toUpperCase());
}

function columnType(col: ColumnRow, allowed: string[] | undefined): string {
  let base: string;
  if (allowed) base = allowed.map(quote).join(' | ');
  else if (col.enum_labels) base = col.enum_labels.map(quote).join(' | ');
  else if (col.element_type) {
    const element = SCALARS[col.element_type];
    if (!element || element === 'Numeric' || element === 'Timestamp' || element === 'Json') {
      throw new Error(`${col.table_name}.${col.column_name}: no mapping for an array of ${col.element_type}`);
    }
    base = `${element}[]`;
  } else {
    base = SCALARS[col.type_name];
    if (!base)
      throw new Error(`${col.table_name}.${col.column_name}: no mapping for type ${col.type_name}; add it to SCALARS`);
  }
  const nullable = col.not_null ? base : `${base} | null`;
  if (col.generated === 's' || col.identity === 'a') return `GeneratedAlways<${nullable}>`;
  if (col.has_default || col.identity === 'd') return `Generated<${nullable}>`;
  return nullable;
}

export async function generateSchemaTypes(pool: RawPool, source: string): Promise<string> {
  const conn = await pool.acquire();
  let columns: ColumnRow[];
  let checks: CheckRow[];
  try {
    columns = (await conn.query(COLUMNS_SQL, [])).rows as unknown as ColumnRow[];
    checks = (await conn.query(CHECKS_SQL, [])).rows as unknown as CheckRow[];
  } finally {
    pool.release(conn);
  }
  const allowed = new Map<string, string[]>();
  for (const check of checks) {
    const values = allowedValues(check.definition, check.column_name);
    if (values) allowed.set(`${check.table_name}.${check.column_name}`, values);
  }
  const tables = new Map<string, string[]>();
  for (const col of columns) {
    const lines = tables.get(col.table_name) ?? [];
    lines.push(`  ${col.column_name}: ${columnType(col, allowed.get(`${col.table_name}.${col.column_name}`))};`);
    tables.set(col.table_name, lines);
  }
  const out = [`// Generated by \`npm run db:types\` from ${source}. Do not edit by hand.`, PREAMBLE];
  for (const [table, lines] of tables) out.push(`export interface ${pascal(table)}Table {\n${lines.join('\n')}\n}\n`);
  out.push(`export interface DB {\n${[...tables.keys()].map((t) => `  ${t}: ${pascal(t)}Table;`).join('\n')}\n}\n`);
  return out.join('\n');
}
