import { D, type Dec } from '@app/shared/money';
import { validationError } from '../errors.js';

const LETTER = /\p{L}/u;
// Markup or script in a name is refused rather than escaped: names end up in bank orders,
// receipts and notifications.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern refuses.
const MARKUP = /[<>]|javascript:|&#|[\u0000-\u001f\u007f]/i;

/** A person's name (spec User.firstName rules): 1-100 characters, a letter, no HTML or script. */
export function checkPersonName(field: string, value: string): string {
  const name = value.trim().replace(/\s+/g, ' ');
  if (name.length < 1 || name.length > 100 || !LETTER.test(name) || MARKUP.test(name)) {
    throw validationError('Invalid name', [
      { field, message: '1-100 characters with at least one letter, no HTML or script' },
    ]);
  }
  return name;
}

/** Free text shown back to people (business names, addresses): trimmed, no markup. */
export function checkPlainText(field: string, value: string, max: number): string {
  const text = value.trim().replace(/\s+/g, ' ');
  if (text.length < 1 || MARKUP.test(text)) {
    throw validationError('Invalid text', [
      { field, message: 'must not be empty or contain HTML or control characters' },
    ]);
  }
  return text.slice(0, max);
}

/**
 * A money amount from a JSON number: finite, within bounds, at most 2 decimals (R9). The number's
 * shortest decimal form is what the client sent (100.001 stays 100.001).
 */
export function checkAmount(field: string, value: number, min: string, max: string): Dec {
  if (!Number.isFinite(value)) throw validationError('Invalid amount', [{ field, message: 'must be a finite number' }]);
  const amount = new D(String(value));
  if (amount.decimalPlaces() > 2) throw validationError('Invalid amount', [{ field, message: 'at most 2 decimals' }]);
  if (amount.lt(min) || amount.gt(max))
    throw validationError('Invalid amount', [{ field, message: `must be between ${min} and ${max}` }]);
  return amount;
}

/** Decimal string from the database as a JSON number (only at the edge). */
export function toNumber(value: string | Dec, places = 2): number {
  return Number(new D(value).toFixed(places));
}
