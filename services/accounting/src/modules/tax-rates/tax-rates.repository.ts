import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB>;

export async function findTaxSettings(db: Db, orgId: string) {
  const org = await db
    .selectFrom('organizations')
    .select(['country', 'default_vat_rate'])
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!org) return null;
  const rates = await db
    .selectFrom('tax_rates')
    .select(['name', 'rate', 'description'])
    .where('organization_id', '=', orgId)
    .orderBy('position')
    .execute();
  return { ...org, rates };
}

/** A new organization's rates, in order (the first is its default rate). */
export async function insertTaxRates(
  db: Db,
  orgId: string,
  rates: ReadonlyArray<{ name: string; rate: string; description: string }>,
): Promise<void> {
  await db
    .insertInto('tax_rates')
    .values(
      rates.map((r, i) => ({
        organization_id: orgId,
        position: i,
        name: r.name,
        rate: r.rate,
        description: r.description,
      })),
    )
    .execute();
}

/** Replaces the organization's rates and default rate. */
export async function replaceTaxRates(
  db: Db,
  orgId: string,
  defaultRate: string,
  rates: Array<{ name: string; rate: string; description: string }>,
) {
  await db
    .updateTable('organizations')
    .set({ default_vat_rate: defaultRate, updated_at: new Date() })
    .where('id', '=', orgId)
    .execute();
  await db.deleteFrom('tax_rates').where('organization_id', '=', orgId).execute();
  await insertTaxRates(db, orgId, rates);
}

/** The organization's rates as stored (numeric text, e.g. "20.0000"), in order. */
export async function findRates(db: Db, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tax_rates')
    .select('rate')
    .where('organization_id', '=', orgId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.rate);
}
