import { newId } from '@app/shared/secrets';
import { electronicFormatIBAN, extractIBAN, validateIBAN } from 'ibantools';
import type { Recipient } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { badRequest, notFound, validationError } from '../../errors.js';
import { corridorAllows, maskAccount } from '../../lib/corridors.js';
import type { Page } from '../../lib/pagination.js';
import { checkPersonName, checkPlainText } from '../../lib/validation.js';
import * as repo from './recipients.repository.js';

export interface NewRecipient {
  name: string;
  country: Recipient['country'];
  currency: Recipient['currency'];
  bankAccount: string;
  bankName?: string;
}

export function toRecipientBody(r: Recipient) {
  return {
    id: r.id,
    name: r.name,
    country: r.country,
    currency: r.currency,
    bankAccount: maskAccount(r.bank_account),
    bankName: r.bank_name,
    createdAt: r.created_at.toISOString(),
  };
}

/** An IBAN of the recipient's country with a valid checksum (R10), in electronic form. */
export function checkIban(field: string, value: string, country: string): string {
  const iban = electronicFormatIBAN(value) ?? '';
  if (!validateIBAN(iban).valid)
    throw validationError('Invalid IBAN', [{ field, message: 'not a valid IBAN (format or checksum)' }]);
  if (extractIBAN(iban).countryCode !== country) {
    throw validationError('IBAN of another country', [{ field, message: `must be an IBAN of ${country}` }]);
  }
  return iban;
}

export interface RecipientChanges {
  name?: string;
  country?: Recipient['country'];
  currency?: Recipient['currency'];
  bankAccount?: string;
  /** null or blank clears it. */
  bankName?: string | null;
}

function checkCorridor(country: string, currency: string): void {
  if (!corridorAllows(country, currency)) {
    throw validationError('Unsupported corridor', [
      { field: 'currency', message: `${country} does not receive ${currency}` },
    ]);
  }
}

function checkBankName(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : checkPlainText('bankName', value, 200);
}

/*
 * Recipients (R10). Every function runs in the caller's UserScope (row-level security as that
 * user) and reaches only that user's rows; a recipient removed or of another user is 404.
 */

export async function createRecipient(user: UserScope, input: NewRecipient) {
  const name = checkPersonName('name', input.name);
  checkCorridor(input.country, input.currency);
  const bankAccount = checkIban('bankAccount', input.bankAccount, input.country);
  const bankName = checkBankName(input.bankName);
  const row = await user.run((db) =>
    repo.insertRecipient(db, user.userId, {
      id: newId('rcp'),
      name,
      country: input.country,
      currency: input.currency,
      bankAccount,
      bankName,
    }),
  );
  return toRecipientBody(row);
}

export async function listRecipients(user: UserScope, page: Page) {
  const { rows, total } = await user.run((db) => repo.listRecipients(db, user.userId, page.limit, page.offset));
  return { data: rows.map(toRecipientBody), pagination: { page: page.page, limit: page.limit, total } };
}

/**
 * Changes the fields given, checked as on creation against the recipient as it will stand: a new
 * country needs a currency of its corridor and an IBAN of that country (the stored one is checked
 * again when only the country changes). One transaction with the row locked, so two edits at once
 * apply one after the other. Past transactions keep what they copied when they were made (name,
 * country, currencies, amounts and, from migration 20261201003000, the account).
 */
export async function updateRecipient(user: UserScope, recipientId: string, changes: RecipientChanges) {
  const fields = ['name', 'country', 'currency', 'bankAccount', 'bankName'] as const;
  if (!fields.some((f) => changes[f] !== undefined)) {
    throw badRequest('Nothing to change', [{ field: 'body', message: `give at least one of ${fields.join(', ')}` }]);
  }
  return user.transaction(async (trx) => {
    const row = await repo.lockRecipient(trx, user.userId, recipientId);
    if (!row) throw notFound('Recipient not found');
    const country = changes.country ?? row.country;
    const currency = changes.currency ?? row.currency;
    const set: repo.RecipientUpdate = {};
    if (changes.name !== undefined) set.name = checkPersonName('name', changes.name);
    if (changes.country !== undefined || changes.currency !== undefined) {
      checkCorridor(country, currency);
      set.country = country;
      set.currency = currency;
    }
    if (changes.bankAccount !== undefined || changes.country !== undefined) {
      set.bank_account = checkIban('bankAccount', changes.bankAccount ?? row.bank_account, country);
    }
    if (changes.bankName !== undefined) set.bank_name = checkBankName(changes.bankName);
    const saved = Object.keys(set).length ? await repo.updateRecipient(trx, user.userId, recipientId, set) : row;
    return toRecipientBody(saved);
  });
}

export async function removeRecipient(user: UserScope, recipientId: string): Promise<void> {
  if (!(await user.run((db) => repo.deleteRecipient(db, user.userId, recipientId, new Date()))))
    throw notFound('Recipient not found');
}
