import { dec } from '@app/shared/money';
import { AppError, type ErrorDetails } from '../../lib/errors.js';

/**
 * Issue 32: an invoice line carries 0 or one of its organization's own rates (GET /settings/tax-rates),
 * compared as numbers (20, 20.0 and "20.00" are one rate). Checked only when lines are written (create
 * and a draft's PUT): a rate removed later never changes an invoice that already carries it. `stored`: the
 * organization's rates as read (services/accounting/src/modules/invoices reads them with the customer).
 */
export function assertAllowedRates(stored: readonly string[], lines: ReadonlyArray<{ taxRate: string }>): void {
  const allowed = allowedRates(stored);
  const details: ErrorDetails = {};
  lines.forEach((line, i) => {
    const rate = dec(line.taxRate).toFixed();
    if (!allowed.includes(rate)) {
      details[`items[${i}].taxRate`] = [
        `must be 0 or one of the organization's tax rates (GET /settings/tax-rates): ${allowed.join(', ')}`,
      ];
    }
  });
  if (Object.keys(details).length) throw new AppError('SVC-3008', details);
}

/** The stored rates in their canonical form ("20.0000" -> "20"), 0 always among them, no repeats. */
export function allowedRates(stored: readonly string[]): string[] {
  const rates = stored.map((r) => dec(r).toFixed());
  if (!rates.includes('0')) rates.push('0');
  return [...new Set(rates)];
}
