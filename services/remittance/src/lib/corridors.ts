/** Remittance corridors (R10): destination country -> currencies the recipient may receive. */
export const CORRIDORS = {
  RS: ['RSD', 'EUR'],
  BA: ['BAM', 'EUR'],
  PL: ['PLN', 'EUR'],
  PK: ['PKR'],
  TR: ['TRY', 'EUR'],
} as const satisfies Record<string, readonly string[]>;

export type CorridorCountry = keyof typeof CORRIDORS;
export const CORRIDOR_COUNTRIES = Object.keys(CORRIDORS) as CorridorCountry[];
export const RECEIVE_CURRENCIES = ['RSD', 'BAM', 'PLN', 'PKR', 'TRY', 'EUR'] as const;

const EEA = new Set(['PL']);

export function corridorAllows(country: string, currency: string): boolean {
  return (CORRIDORS[country as CorridorCountry] as readonly string[] | undefined)?.includes(currency) ?? false;
}

/** Estimated delivery of a remittance (R10). */
export function remittanceEta(country: string): string {
  return EEA.has(country) ? '1-2 business days' : '2-4 business days';
}

/** All but the last four characters replaced by '*' (R10). */
export function maskAccount(account: string): string {
  return account.length <= 4 ? account : '*'.repeat(account.length - 4) + account.slice(-4);
}
