/**
 * An amount typed by a person in any of the app's languages ("1 234,5", "1234.50", "1.234,50") ->
 * a number of kroner with at most two decimals, or null. The last comma or dot followed by one or two
 * digits is the decimal mark; other dots, commas and spaces group digits.
 */
export function parseTypedAmount(input: string): number | null {
  const text = input.replace(/[\s\u00a0\u202f]/g, '');
  const m = /^(\d{1,3}(?:[.,]\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const whole = m[1].replace(/[.,]/g, '');
  return Number(`${whole}.${m[2] ?? '0'}`);
}
