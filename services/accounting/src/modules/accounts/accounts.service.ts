import { dec } from '@app/shared/money';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { hasRowNaming } from '../../db/has-row.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';
import { isUniqueViolation, pgCode } from '../../lib/pg-error.js';
import { assertCurrency, formatMoney } from '../currencies/currencies.js';
import * as repo from './accounts.repository.js';
import type { AccountsQuery, CreateAccountBody, UpdateAccountBody } from './accounts.schemas.js';
import { SYSTEM_ACCOUNT_CODES } from './default-chart.js';

type Db = Kysely<DB>;

/** currentBalance (A9): debits - credits for debit-normal types, credits - debits otherwise. */
export function normalSideBalance(normal: 'debit' | 'credit', debitTotal: string | null, creditTotal: string | null) {
  const d = dec(debitTotal ?? '0');
  const c = dec(creditTotal ?? '0');
  return normal === 'debit' ? d.minus(c) : c.minus(d);
}

export function presentAccount(a: repo.AccountRow, baseCurrency: string) {
  return {
    id: a.id,
    code: a.code,
    name: a.name,
    accountTypeId: a.account_type_id,
    accountTypeName: a.type_name,
    normalBalance: a.normal_balance,
    currencyCode: a.currency_code,
    parentAccountId: a.parent_account_id,
    parentAccountCode: a.parent_code,
    isActive: a.is_active,
    currentBalance: formatMoney(normalSideBalance(a.normal_balance, a.debit_total, a.credit_total), baseCurrency),
    createdAt: a.created_at.toISOString(),
    updatedAt: a.updated_at.toISOString(),
  };
}

export async function listAccounts(scope: TenantScope, baseCurrency: string, q: Static<typeof AccountsQuery>) {
  if (q.accountTypeId !== undefined && (q.accountTypeId < 1 || q.accountTypeId > 5)) {
    throw new AppError('SVC-8003', { accountTypeId: ['must be 1-5'] });
  }
  const rows = await scope.run((db) => repo.listAccounts(db, scope.orgId, q));
  return { data: rows.map((r) => presentAccount(r, baseCurrency)) };
}

export function getAccount(scope: TenantScope, baseCurrency: string, id: string) {
  return scope.run((db) => readAccount(db, scope.orgId, baseCurrency, id));
}

async function readAccount(db: Db, orgId: string, baseCurrency: string, id: string) {
  const row = await repo.findAccount(db, orgId, id);
  if (!row) throw new AppError('SVC-8001');
  return presentAccount(row, baseCurrency);
}

/** normalBalance follows the type; the parent must be an account of the same type. */
export async function createAccount(scope: TenantScope, baseCurrency: string, body: Static<typeof CreateAccountBody>) {
  const orgId = scope.orgId;
  const code = body.code.trim();
  const name = body.name.trim();
  if (!name) throw new AppError('SVC-9003', { name: ['must not be blank'] });
  return scope.transaction(async (trx) => {
    const type = await repo.findAccountType(trx, body.accountTypeId);
    if (!type) throw new AppError('SVC-8003', { accountTypeId: ['must be 1-5'] });
    const currency = (body.currencyCode ?? baseCurrency).toUpperCase();
    assertCurrency(currency);
    if (body.parentAccountId) {
      const parent = await repo.findAccount(trx, orgId, body.parentAccountId);
      if (!parent) throw new AppError('SVC-8005');
      if (parent.account_type_id !== body.accountTypeId) {
        throw new AppError('SVC-9003', { parentAccountId: ['must be an account of the same type'] });
      }
    }
    if (await repo.findAccountByCode(trx, orgId, code)) throw new AppError('SVC-8002', { code: ['is already used'] });
    let id: string;
    try {
      id = await repo.insertAccount(trx, {
        organization_id: orgId,
        code,
        name,
        account_type_id: body.accountTypeId,
        currency_code: currency,
        parent_account_id: body.parentAccountId ?? null,
      });
    } catch (err) {
      // Two concurrent creations of one code: the unique key decides.
      if (isUniqueViolation(err)) throw new AppError('SVC-8002', { code: ['is already used'] });
      // The parent was deleted between its look-up and this insert (its key refuses the row).
      if (pgCode(err) === '23503') throw new AppError('SVC-8005');
      throw err;
    }
    return readAccount(trx, orgId, baseCurrency, id);
  });
}

/**
 * Renames, (de)activates or moves an account: an account with postings cannot be deactivated
 * (SVC-8004); a new parent must be of the same type (as at creation), and neither the account
 * itself nor one of its own sub-accounts (422 SVC-9003), else 404 SVC-8005. Postings and balances
 * stay with the account.
 */
export function updateAccount(
  scope: TenantScope,
  baseCurrency: string,
  id: string,
  body: Static<typeof UpdateAccountBody>,
) {
  const orgId = scope.orgId;
  return scope.transaction(async (trx) => {
    // A move takes the tree's turn before it locks its account: taken after, two opposite moves
    // each held one account and waited for the turn and the other's account (a deadlock).
    if (body.parentAccountId != null) await repo.lockAccountTree(trx, orgId);
    const current = await repo.lockAccount(trx, orgId, id);
    if (!current) throw new AppError('SVC-8001');
    const values: { name?: string; is_active?: boolean; parent_account_id?: string | null } = {};
    if (body.name !== undefined) {
      const name = body.name.trim();
      if (!name) throw new AppError('SVC-9003', { name: ['must not be blank'] });
      values.name = name;
    }
    if (body.isActive !== undefined && body.isActive !== current.is_active) {
      if (!body.isActive && (await repo.hasPostings(trx, orgId, id))) {
        throw new AppError('SVC-8004', { isActive: ['the account has ledger transactions'] });
      }
      values.is_active = body.isActive;
    }
    if (body.parentAccountId !== undefined && body.parentAccountId !== current.parent_account_id) {
      if (body.parentAccountId !== null) await assertNewParent(trx, orgId, current, body.parentAccountId);
      values.parent_account_id = body.parentAccountId;
    }
    if (Object.keys(values).length) await repo.updateAccount(trx, orgId, id, values);
    return readAccount(trx, orgId, baseCurrency, id);
  });
}

/** The tree's turn is held (lockAccountTree), so no other move changes the ancestors read here. */
async function assertNewParent(
  trx: Kysely<DB>,
  orgId: string,
  account: { id: string; account_type_id: number },
  parentId: string,
): Promise<void> {
  if (parentId === account.id) throw new AppError('SVC-9003', { parentAccountId: ['must not be the account itself'] });
  const parent = await repo.findAccount(trx, orgId, parentId);
  if (!parent) throw new AppError('SVC-8005');
  if (parent.account_type_id !== account.account_type_id) {
    throw new AppError('SVC-9003', { parentAccountId: ['must be an account of the same type'] });
  }
  if ((await repo.accountWithAncestors(trx, orgId, parentId)).includes(account.id)) {
    throw new AppError('SVC-9003', { parentAccountId: ["must not be one of the account's own sub-accounts"] });
  }
}

/** Another feature's reason to keep an account: the detail a refused deletion names, or null. */
export type AccountDeleteBlocker = (trx: Db, organizationId: string, accountId: string) => Promise<string | null>;

/**
 * Deletes an account nothing refers to; else 400 SVC-8004 saying what keeps it: its postings (even
 * reversed ones), its sub-accounts, the automatic postings finding it by code (SYSTEM_ACCOUNTS), or
 * a blocker (invoice lines, expenses, bank accounts). Locks as a move does (the tree's turn, then the
 * account FOR UPDATE): a posting or a writer that has locked the account FOR KEY SHARE finishes
 * first and is then seen; one that comes after finds no account (404).
 */
export function deleteAccount(scope: TenantScope, id: string, blockers: readonly AccountDeleteBlocker[]) {
  const orgId = scope.orgId;
  return scope.transaction(async (trx) => {
    await repo.lockAccountTree(trx, orgId);
    const account = await repo.lockAccount(trx, orgId, id);
    if (!account) throw new AppError('SVC-8001');
    const refuse = (reason: string) => new AppError('SVC-8004', { id: [reason] });
    if (SYSTEM_ACCOUNT_CODES.has(account.code)) throw refuse('the account is used by automatic postings');
    if (await repo.hasPostings(trx, orgId, id)) throw refuse('the account has ledger transactions');
    if (await hasRowNaming(trx, 'accounts', 'parent_account_id', orgId, id))
      throw refuse('the account has sub-accounts');
    for (const check of blockers) {
      const reason = await check(trx, orgId, id);
      if (reason) throw refuse(reason);
    }
    await repo.deleteAccount(trx, orgId, id);
  });
}
