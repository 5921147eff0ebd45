import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export function listCurrencies(db: Kysely<DB>) {
  return db.selectFrom('currencies').selectAll().orderBy('code').execute();
}
