import { newId } from '@app/shared/secrets';
import { electronicFormatIBAN, extractIBAN, validateIBAN } from 'ibantools';
import type { Recipient } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { notFound, validationError } from '../../errors.js';
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

/** Every operation runs in the caller's UserScope (row-level security as that user). */
export class RecipientsService {
  async create(user: UserScope, input: NewRecipient) {
    const name = checkPersonName('name', input.name);
    if (!corridorAllows(input.country, input.currency)) {
      throw validationError('Unsupported corridor', [
        { field: 'currency', message: `${input.country} does not receive ${input.currency}` },
      ]);
    }
    const bankAccount = checkIban('bankAccount', input.bankAccount, input.country);
    const bankName =
      input.bankName === undefined || input.bankName.trim() === ''
        ? null
        : checkPlainText('bankName', input.bankName, 200);
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

  async list(user: UserScope, page: Page) {
    const { rows, total } = await user.run((db) => repo.listRecipients(db, user.userId, page.limit, page.offset));
    return { data: rows.map(toRecipientBody), pagination: { page: page.page, limit: page.limit, total } };
  }

  async remove(user: UserScope, recipientId: string): Promise<void> {
    if (!(await user.run((db) => repo.deleteRecipient(db, user.userId, recipientId, new Date()))))
      throw notFound('Recipient not found');
  }
}
