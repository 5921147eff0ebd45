import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';

/**
 * The ledger account a payment is booked on (A8, invoice mark-paid and expense pay): the named
 * bank account's (404 SVC-5001 when it is not the organization's), else the organization's first
 * active bank account's, else null, which the caller answers with account 1100 (an organization
 * that has no bank account yet).
 */
export async function paymentLedgerAccount(
  db: Kysely<DB>,
  orgId: string,
  bankAccountId: string | null,
): Promise<{ bankAccountId: string; accountId: string } | null> {
  let q = db.selectFrom('bank_accounts').select(['id', 'account_id']).where('organization_id', '=', orgId);
  q = bankAccountId
    ? q.where('id', '=', bankAccountId)
    : q.where('is_active', '=', true).orderBy('created_at').orderBy('id').limit(1);
  const row = await q.executeTakeFirst();
  if (!row && bankAccountId) throw new AppError('SVC-5001', { bankAccountId: ['bank account not found'] });
  return row ? { bankAccountId: row.id, accountId: row.account_id } : null;
}
