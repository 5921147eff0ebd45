import { newId } from '@app/shared/secrets';
import { electronicFormatIBAN, extractIBAN, validateIBAN } from 'ibantools';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import type { DB, Merchant } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { conflict, forbidden, notFound, validationError } from '../../errors.js';
import { isValidNorwegianAccount, isValidOrgNumber } from '../../lib/org-number.js';
import type { Page } from '../../lib/pagination.js';
import { checkPlainText, toNumber } from '../../lib/validation.js';
import { shortName } from '../payments/payments.service.js';
import * as repo from './merchants.repository.js';

export interface MerchantInput {
  businessName: string;
  orgNumber: string;
  address?: string;
  bankAccount: string;
}

export const qrValueOf = (merchantId: string) => `app://pay/${merchantId}`;

/** The payout account: a Norwegian account number (11 digits, check digit) or a Norwegian IBAN. */
function checkPayoutAccount(value: string): string {
  const compact = value.replace(/[\s.]/g, '');
  if (/^\d{11}$/.test(compact) && isValidNorwegianAccount(compact)) return compact;
  const iban = electronicFormatIBAN(value) ?? '';
  if (validateIBAN(iban).valid && extractIBAN(iban).countryCode === 'NO') return iban;
  throw validationError('Invalid payout account', [
    { field: 'bankAccount', message: 'a Norwegian account number (11 digits) or NO IBAN with valid check digits' },
  ]);
}

// Every function runs in the caller's UserScope (row-level security as that user).

/** Registers the caller's business and upgrades the user to the merchant role (R12). */
export async function registerMerchant(user: UserScope, input: MerchantInput) {
  const businessName = checkPlainText('businessName', input.businessName, 200);
  const orgNumber = input.orgNumber.replace(/\s/g, '');
  if (!isValidOrgNumber(orgNumber)) {
    throw validationError('Invalid organisation number', [
      { field: 'orgNumber', message: '9 digits with a valid check digit' },
    ]);
  }
  const address =
    input.address === undefined || input.address.trim() === '' ? null : checkPlainText('address', input.address, 300);
  const bankAccount = checkPayoutAccount(input.bankAccount);
  const merchant = await user.transaction(async (trx) => {
    const row = await repo.insertMerchant(trx, user.userId, {
      id: newId('mer', 8),
      businessName,
      orgNumber,
      address,
      bankAccount,
    });
    if (!row) return undefined;
    await repo.setUserRole(trx, user.userId, 'merchant');
    return row;
  });
  if (!merchant) throw conflict('You are already a merchant, or this organisation number is registered');
  return {
    merchantId: merchant.id,
    businessName: merchant.business_name,
    orgNumber: merchant.org_number,
    address: merchant.address,
    qrValue: qrValueOf(merchant.id),
  };
}

export async function getMerchantDashboard(user: UserScope, period: repo.Period, now = new Date()) {
  const f = await user.run(async (db) =>
    repo.merchantFigures(db, user.userId, (await own(db, user.userId)).id, period, now),
  );
  return {
    period,
    revenue: toNumber(f.revenue),
    transactionCount: Number(f.count),
    fees: toNumber(f.fees),
    netRevenue: toNumber(f.revenue),
    nextPayout: toNumber(f.next_payout),
    payoutTime: new Date(f.payout_time).toISOString(),
  };
}

export async function getMerchantQr(user: UserScope) {
  const m = await user.run((db) => own(db, user.userId));
  return { merchantId: m.id, businessName: m.business_name, qrValue: qrValueOf(m.id), address: m.address };
}

/**
 * The merchant a QR code names, for the payer to see before paying: its business name, and whether
 * it is the caller's own (which cannot be paid, R12). Unknown, or its owner erased: 404.
 */
export async function getPayee(user: UserScope, merchantId: string) {
  const m = await user.run((db) => repo.findPayee(db, merchantId));
  if (!m) throw notFound('No merchant has this code');
  return { merchantId: m.id, businessName: m.business_name, own: m.user_id === user.userId };
}

export async function renderMerchantQr(user: UserScope, format: 'png' | 'svg'): Promise<Buffer | string> {
  const value = qrValueOf((await user.run((db) => own(db, user.userId))).id);
  return format === 'png'
    ? QRCode.toBuffer(value, { type: 'png', width: 512, margin: 2 })
    : QRCode.toString(value, { type: 'svg', margin: 2 });
}

export async function listPaymentsToMerchant(user: UserScope, page: Page) {
  const { rows, total } = await user.run(async (db) => {
    await own(db, user.userId);
    return repo.listMerchantPayments(db, user.userId, page.limit, page.offset);
  });
  return {
    data: rows.map((r) => ({
      id: r.id,
      status: r.status,
      amount: toNumber(r.send_amount),
      currency: 'NOK',
      customerName: shortName(r.first_name ?? '', r.last_name ?? ''),
      createdAt: r.created_at.toISOString(),
    })),
    pagination: { page: page.page, limit: page.limit, total },
  };
}

async function own(db: Kysely<DB>, userId: string): Promise<Merchant> {
  const merchant = await repo.findMerchantOfUser(db, userId);
  if (!merchant) throw forbidden('Merchant role required');
  return merchant;
}
