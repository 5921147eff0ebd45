import { type Kysely, sql } from 'kysely';
import type { DB } from './types.js';

/**
 * Whether the organization has a row in `table` whose `column` equals `value`: one EXISTS probe.
 * For the checks that refuse a deletion while something still names the record.
 */
export async function hasRowNaming(
  db: Kysely<DB>,
  table: keyof DB & string,
  column: string,
  orgId: string,
  value: string,
): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM ${sql.table(table)} WHERE organization_id = ${orgId} AND ${sql.ref(column)} = ${value}
    ) AS found`.execute(db);
  return rows[0]?.found === true;
}
