/**
 * E1: the payment reference of an invoice ("poziv na broj"), generated from its number, so the
 * customer's bank transfer names the invoice:
 * - RS, model 97: "97" + two check digits (ISO 7064 MOD 97-10 over the reference digits) + the
 *   digits of the invoice number (INV-2026-0042 -> "97 7520260042"), as the NBS rules define it;
 * - HR, model HR01: "HR01 " + P1-P2 with the control digit of P2 (MOD 11 INI, ISO 7064 MOD 11,10)
 *   over all its digits: year - sequence + K (INV-2026-0042 -> HR01 2026-0042K);
 * - BA: none.
 */
export function paymentReference(country: string, invoiceNumber: string): string | null {
  // Invoices only (INV-<year>-<sequence>, A4): an expense number has no payment reference.
  const m = /^INV-(\d{4})-(\d+)$/.exec(invoiceNumber);
  if (!m) return null;
  const [, year, sequence] = m;
  if (country === 'RS') return `97 ${mod97CheckDigits(year + sequence)}${year}${sequence}`;
  if (country === 'HR') return `HR01 ${year}-${sequence}${mod11Ini(year + sequence)}`;
  return null;
}

/** ISO 7064 MOD 97-10 check digits for a digit string: 98 - (n x 100 mod 97), two digits. */
export function mod97CheckDigits(digits: string): string {
  let r = 0;
  for (const ch of `${digits}00`) r = (r * 10 + Number(ch)) % 97;
  return String(98 - r).padStart(2, '0');
}

/** True when the number of a model-97 reference (its check digits first, no model) is consistent. */
export function isValidModel97(number: string): boolean {
  if (!/^\d{3,22}$/.test(number)) return false;
  let r = 0;
  for (const ch of number.slice(2) + number.slice(0, 2)) r = (r * 10 + Number(ch)) % 97;
  return r === 1;
}

/** ISO 7064 MOD 11,10 ("modul 11 INI" of the Croatian payment rules) control digit of a digit string. */
export function mod11Ini(digits: string): string {
  let product = 10;
  for (const ch of digits) {
    let sum = (Number(ch) + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  return String((11 - product) % 10);
}

/** A reference's model ("97", "HR01") and number ("0420260001", "2026-00423"). */
export function splitReference(reference: string): { model: string; number: string } {
  const [model, number] = reference.split(' ');
  return { model, number };
}
