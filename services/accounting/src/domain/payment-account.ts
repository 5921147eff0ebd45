import { electronicFormatIBAN, isValidBBAN, isValidIBAN } from 'ibantools';
import { AppError } from '../lib/errors.js';

/**
 * E1: the organization's payment account, stored in one canonical form: an IBAN in electronic
 * format ("HR1210010051863000160"), or for Serbia and Bosnia the domestic account number the
 * local payment slips and the IPS QR use (RS: 18 digits, "160-5100-7" becomes
 * "160000000000510007"; BA: 16 digits), its check digits verified.
 * Anything else is 422 SVC-9003 with details.iban.
 */
export function normalizePaymentAccount(country: string, value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const compact = value.replace(/[\s]/g, '').toUpperCase();
  if (compact === '') return null;
  if (/^[A-Z]{2}/.test(compact)) {
    const iban = electronicFormatIBAN(compact) ?? '';
    if (isValidIBAN(iban)) return iban;
    throw new AppError('SVC-9003', { iban: ['must be a valid IBAN'] });
  }
  const domestic = domesticAccount(country, compact);
  if (domestic) return domestic;
  throw new AppError('SVC-9003', {
    iban: [
      country === 'RS'
        ? 'must be a valid IBAN or Serbian account number (bank-account-check, 18 digits)'
        : 'must be a valid IBAN',
    ],
  });
}

function domesticAccount(country: string, compact: string): string | null {
  if (country === 'RS') {
    // bbb-nnnnnnnnnnnnn-kk: the middle part is zero-padded to 13 digits.
    const m = /^(\d{3})-?(\d{1,13})-?(\d{2})$/.exec(compact);
    if (!m) return null;
    const digits = `${m[1]}${m[2].padStart(13, '0')}${m[3]}`;
    return isValidBBAN(digits, 'RS') ? digits : null;
  }
  if (country === 'BA') {
    const digits = compact.replace(/-/g, '');
    return /^\d{16}$/.test(digits) && isValidBBAN(digits, 'BA') ? digits : null;
  }
  return null;
}

/** The 18-digit Serbian account number of an RS IBAN or domestic account (IPS QR field R), else null. */
export function serbianAccountNumber(account: string | null): string | null {
  if (!account) return null;
  if (/^\d{18}$/.test(account)) return account;
  if (/^RS\d{20}$/.test(account)) return account.slice(4);
  return null;
}

/**
 * The account as printed on documents: a Serbian account in the form banks print it, bank-number-
 * control with the middle zero-padded to 13 digits ("260-0056010016113-79"); anything else as stored.
 */
export function printedPaymentAccount(account: string | null): string | null {
  const m = account ? /^(\d{3})(\d{13})(\d{2})$/.exec(account) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : account;
}
