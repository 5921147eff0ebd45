import { type Kysely, sql } from 'kysely';
import type { DB, ExchangeRatesTable } from '../../db/types.js';

type Db = Kysely<DB>;
export type RateSource = ExchangeRatesTable['source'];

export interface StoredRate {
  base_currency: string;
  target_currency: string;
  rate: string;
  effective_date: string;
  source: RateSource;
  updated_at: Date;
  organization_id: string | null;
}

/**
 * For each (base, target) pair, the stored rate in force on `date`: the latest with
 * effective_date on or before it; on the same date the organization's own rate wins over a
 * global one. One statement, one index descent per pair.
 */
export async function latestRates(
  db: Db,
  orgId: string,
  pairs: ReadonlyArray<readonly [string, string]>,
  date: string,
): Promise<StoredRate[]> {
  if (pairs.length === 0) return [];
  const values = sql.join(pairs.map(([b, t]) => sql`(${b}::text, ${t}::text)`));
  const result = await sql<StoredRate>`
    SELECT p.b AS base_currency, p.t AS target_currency, r.rate, r.effective_date, r.source, r.updated_at, r.organization_id
    FROM (VALUES ${values}) AS p (b, t)
    CROSS JOIN LATERAL (
      SELECT e.rate, e.effective_date, e.source, e.updated_at, e.organization_id
      FROM exchange_rates e
      WHERE e.base_currency = p.b AND e.target_currency = p.t AND e.effective_date <= ${date}::date
        AND (e.organization_id IS NULL OR e.organization_id = ${orgId}::uuid)
      ORDER BY e.effective_date DESC, (e.organization_id IS NULL) ASC
      LIMIT 1
    ) r`.execute(db);
  return result.rows;
}

/** An organization's manual rate; a second one for the same pair and date replaces the first. */
export async function upsertManualRate(
  db: Db,
  orgId: string,
  r: { baseCurrency: string; targetCurrency: string; rate: string; effectiveDate: string; createdBy: string | null },
) {
  return db
    .insertInto('exchange_rates')
    .values({
      organization_id: orgId,
      base_currency: r.baseCurrency,
      target_currency: r.targetCurrency,
      rate: r.rate,
      effective_date: r.effectiveDate,
      source: 'manual',
      created_by: r.createdBy,
    })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'base_currency', 'target_currency', 'effective_date'])
        .where('organization_id', 'is not', null)
        .doUpdateSet({
          rate: (eb) => eb.ref('excluded.rate'),
          created_by: (eb) => eb.ref('excluded.created_by'),
          updated_at: new Date(),
        }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Feed rates (organization_id NULL), inserted or corrected in one statement. */
export async function upsertGlobalRates(
  db: Db,
  rows: ReadonlyArray<{
    baseCurrency: string;
    targetCurrency: string;
    rate: string;
    effectiveDate: string;
    source: RateSource;
  }>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto('exchange_rates')
    .values(
      rows.map((r) => ({
        organization_id: null,
        base_currency: r.baseCurrency,
        target_currency: r.targetCurrency,
        rate: r.rate,
        effective_date: r.effectiveDate,
        source: r.source,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['base_currency', 'target_currency', 'effective_date'])
        .where('organization_id', 'is', null)
        .doUpdateSet({
          rate: (eb) => eb.ref('excluded.rate'),
          source: (eb) => eb.ref('excluded.source'),
          updated_at: new Date(),
        })
        .where(
          sql<boolean>`exchange_rates.rate IS DISTINCT FROM excluded.rate OR exchange_rates.source IS DISTINCT FROM excluded.source`,
        ),
    )
    .execute();
  return result.reduce((n, r) => n + Number(r.numInsertedOrUpdatedRows ?? 0), 0);
}
