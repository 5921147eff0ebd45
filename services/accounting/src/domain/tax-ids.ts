// The two validators' own modules: the package index loads every country's (about 400 modules).

import * as oib from 'stdnum/lib/cjs/hr/oib.js';
import * as pib from 'stdnum/lib/cjs/rs/pib.js';
import { AppError } from '../lib/errors.js';

/**
 * E2: a VAT number is checked where the country has a checksum the service knows: Serbian PIB
 * (9 digits, ISO 7064 MOD 11,10) and Croatian OIB (11 digits, ISO 7064 MOD 11,10), each with or
 * without its country prefix. Other countries' numbers are stored as given.
 */
const VALIDATORS: Record<string, { validate(v: string): { isValid: boolean; compact?: string }; label: string }> = {
  RS: {
    validate: (v) => pib.validate(v),
    label: 'a valid Serbian PIB (9 digits with a correct check digit, "RS" prefix optional)',
  },
  HR: {
    validate: (v) => oib.validate(v),
    label: 'a valid Croatian OIB (11 digits with a correct check digit, "HR" prefix optional)',
  },
};

/** The digits of a valid PIB/OIB without prefix, or null when the value is not one. */
export function compactTaxId(country: string | null | undefined, value: string | null | undefined): string | null {
  if (!country || !value) return null;
  const v = VALIDATORS[country];
  if (!v) return null;
  const r = v.validate(value);
  return r.isValid && r.compact ? r.compact : null;
}

/** Throws 422 SVC-9003 with details.vatNumber when the country checks its VAT numbers and this one fails. */
export function assertVatNumber(
  country: string | null | undefined,
  value: string | null | undefined,
  field = 'vatNumber',
) {
  if (!country || !value) return;
  const v = VALIDATORS[country];
  if (v && !v.validate(value).isValid) throw new AppError('SVC-9003', { [field]: [`must be ${v.label}`] });
}

/** A Croatian OIB (11 digits, no prefix), as CIUS-HR needs for the operator (HR-BT-5). */
export function isOib(value: string): boolean {
  return /^[0-9]{11}$/.test(value) && oib.validate(value).isValid;
}
