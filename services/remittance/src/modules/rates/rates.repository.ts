import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export async function listRates(db: Kysely<DB>) {
  return db.selectFrom('exchange_rates').selectAll().orderBy('currency').execute();
}

export async function upsertRate(
  db: Kysely<DB>,
  row: { currency: string; rate: string; source: string; updatedAt: Date },
): Promise<void> {
  await db
    .insertInto('exchange_rates')
    .values({ currency: row.currency, rate: row.rate, source: row.source, updated_at: row.updatedAt })
    .onConflict((oc) =>
      oc.column('currency').doUpdateSet({ rate: row.rate, source: row.source, updated_at: row.updatedAt }),
    )
    .execute();
}
