import { Decimal } from 'decimal.js';

/**
 * The invoice's totals as the accounting service computes them (its invoice-totals.ts, A3), so the
 * editor shows the figures the server will store: each line total and each line's VAT rounded half-up
 * to the currency's decimals, VAT = the sum of the rounded line VATs, total = subtotal + VAT - discount.
 * test/totals.test.ts checks this against the service's own function on random invoices.
 */
export interface LineInput {
  quantity: string | number;
  unitPrice: string | number;
  taxRate: string | number;
}

export interface Totals {
  lines: Array<{ lineTotal: string; lineTax: string }>;
  subtotal: string;
  taxAmount: string;
  discountAmount: string;
  totalAmount: string;
}

const D = Decimal.clone({ precision: 40 });

function dec(v: string | number): Decimal {
  try {
    return new D(typeof v === 'number' ? v.toString() : v.trim() || '0');
  } catch {
    return new D(0);
  }
}

const round = (v: Decimal, decimals: number) => v.toDecimalPlaces(decimals, D.ROUND_HALF_UP);

export function computeTotals(items: LineInput[], decimals = 2, discount: string | number = 0): Totals {
  const lines = items.map((i) => {
    const lineTotal = round(dec(i.quantity).times(dec(i.unitPrice)), decimals);
    const lineTax = round(lineTotal.times(dec(i.taxRate)).dividedBy(100), decimals);
    return { lineTotal, lineTax };
  });
  const subtotal = lines.reduce((a, l) => a.plus(l.lineTotal), new D(0));
  const taxAmount = lines.reduce((a, l) => a.plus(l.lineTax), new D(0));
  const discountAmount = round(dec(discount), decimals);
  const totalAmount = subtotal.plus(taxAmount).minus(discountAmount);
  return {
    lines: lines.map((l) => ({ lineTotal: l.lineTotal.toFixed(decimals), lineTax: l.lineTax.toFixed(decimals) })),
    subtotal: subtotal.toFixed(decimals),
    taxAmount: taxAmount.toFixed(decimals),
    discountAmount: discountAmount.toFixed(decimals),
    totalAmount: totalAmount.toFixed(decimals),
  };
}
