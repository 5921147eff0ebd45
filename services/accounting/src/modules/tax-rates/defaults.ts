/** VAT rates an organization starts with, by country; the first is the default rate. */
export const DEFAULT_TAX_RATES: Record<string, ReadonlyArray<{ name: string; rate: string; description: string }>> = {
  RS: [
    { name: 'Standard', rate: '20', description: 'Opšta stopa PDV-a' },
    { name: 'Reduced', rate: '10', description: 'Posebna stopa PDV-a' },
    { name: 'Zero', rate: '0', description: 'Oslobođeno PDV-a' },
  ],
  BA: [
    { name: 'Standard', rate: '17', description: 'Jedinstvena stopa PDV-a' },
    { name: 'Zero', rate: '0', description: 'Oslobođeno PDV-a' },
  ],
  HR: [
    { name: 'Standard', rate: '25', description: 'Opća stopa PDV-a' },
    { name: 'Reduced', rate: '13', description: 'Snižena stopa PDV-a' },
    { name: 'Super-reduced', rate: '5', description: 'Snižena stopa PDV-a' },
    { name: 'Zero', rate: '0', description: 'Oslobođeno PDV-a' },
  ],
};
