import { createHash } from 'node:crypto';

// Crockford's base 32: no I, L, O or U, so a reference read out on the phone is not misheard.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The reference a receipt shows (D-PDF4), as a bank or Wise prints one: the kind (RM remittance, QR
 * payment), the Oslo date and eight characters taken from the SHA-256 of the transaction id, e.g.
 * "RM-261127-K4Q7XZ9M". Derived, not stored: every transaction, old ones too, has it, and it never
 * changes; 40 bits make two transactions of one day share it practically never, and the transaction
 * id is printed next to it for the look-up.
 */
export function receiptReference(t: { id: string; type: 'remittance' | 'qr_payment'; created_at: Date }): string {
  const digest = createHash('sha256').update(t.id).digest();
  let bits = 0n;
  for (const byte of digest.subarray(0, 5)) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = 0; i < 8; i++) {
    code = ALPHABET[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  // sv-SE formats a date as YYYY-MM-DD.
  const day = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Oslo' }).format(t.created_at).replace(/-/g, '');
  return `${t.type === 'remittance' ? 'RM' : 'QR'}-${day.slice(2)}-${code}`;
}

/** An account number with all but its last four characters hidden; an IBAN keeps its country and check digits. */
export function maskAccount(account: string): string {
  const compact = account.replace(/[\s.-]/g, '').toUpperCase();
  if (compact.length <= 4) return '••••';
  const tail = compact.slice(-4);
  return /^[A-Z]{2}\d{2}/.test(compact) && compact.length > 8 ? `${compact.slice(0, 4)} •••• ${tail}` : `•••• ${tail}`;
}
