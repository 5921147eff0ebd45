import { electronicFormatIBAN, extractIBAN, validateIBAN } from 'ibantools';
import type { Kysely } from 'kysely';
import type { DB, Recipient } from '../../db/schema.js';
import { notFound, validationError } from '../../errors.js';
import { corridorAllows, maskAccount } from '../../lib/corridors.js';
import { newId } from '../../lib/ids.js';
import { checkPersonName, checkPlainText } from '../../lib/validation.js';
import * as repo from './recipients.repository.js';

export interface NewRecipient {
  name: string;
  country: string;
  currency: string;
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
  if (!validateIBAN(iban).valid) throw validationError('Invalid IBAN', [{ field, message: 'not a valid IBAN (format or checksum)' }]);
  if (extractIBAN(iban).countryCode !== country) {
    throw validationError('IBAN of another country', [{ field, message: `must be an IBAN of ${country}` }]);
  }
  return iban;
}

export class RecipientsService {
  constructor(private readonly db: Kysely<DB>) {}

  async create(userId: string, input: NewRecipient) {
    const name = checkPersonName('name', input.name);
    if (!corridorAllows(input.country, input.currency)) {
      throw validationError('Unsupported corridor', [{ field: 'currency', message: `${input.country} does not receive ${input.currency}` }]);
    }
    const bankAccount = checkIban('bankAccount', input.bankAccount, input.country);
    const bankName = input.bankName === undefined || input.bankName.trim() === '' ? null : checkPlainText('bankName', input.bankName, 200);
    const row = await repo.insertRecipient(this.db, userId, { id: newId('rcp'), name, country: input.country, currency: input.currency, bankAccount, bankName });
    return toRecipientBody(row);
  }

  async list(userId: string, page: { page: number; limit: number; offset: number }) {
    const { rows, total } = await repo.listRecipients(this.db, userId, page.limit, page.offset);
    return { data: rows.map(toRecipientBody), pagination: { page: page.page, limit: page.limit, total } };
  }

  async remove(userId: string, recipientId: string): Promise<void> {
    if (!(await repo.deleteRecipient(this.db, userId, recipientId, new Date()))) throw notFound('Recipient not found');
  }
}
