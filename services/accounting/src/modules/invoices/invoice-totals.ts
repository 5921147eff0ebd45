import { D, type Dec, dec, roundHalfUp, sum } from '@app/shared/money';

/**
 * Invoice arithmetic (A3), in decimal only: each line total and each line's tax is rounded half-up
 * to the currency's decimals; taxAmount is the sum of the rounded line taxes; totalAmount =
 * subtotal + taxAmount - discountAmount; baseAmount = round(totalAmount x exchangeRate) to the base
 * currency's decimals.
 */
export interface ItemInput {
  quantity: string;
  unitPrice: string;
  taxRate: string;
  accountId?: string | null;
}

export interface LineAmounts {
  lineTotal: Dec;
  lineTax: Dec;
}

export interface InvoiceTotals {
  lines: LineAmounts[];
  subtotal: Dec;
  taxAmount: Dec;
  discountAmount: Dec;
  totalAmount: Dec;
  baseAmount: Dec;
  /** Tax per rate, for the PDF's breakdown: rate (as given) -> { base, tax }. */
  taxByRate: Array<{ rate: string; base: Dec; tax: Dec }>;
}

export function computeLine(item: ItemInput, decimals: number): LineAmounts {
  const lineTotal = roundHalfUp(dec(item.quantity).times(item.unitPrice), decimals);
  const lineTax = roundHalfUp(lineTotal.times(item.taxRate).dividedBy(100), decimals);
  return { lineTotal, lineTax };
}

export function computeTotals(
  items: ItemInput[],
  opts: { decimals: number; baseDecimals: number; exchangeRate: string; discountAmount?: string },
): InvoiceTotals {
  const lines = items.map((i) => computeLine(i, opts.decimals));
  const subtotal = sum(lines.map((l) => l.lineTotal));
  const taxAmount = sum(lines.map((l) => l.lineTax));
  const discountAmount = roundHalfUp(dec(opts.discountAmount ?? '0'), opts.decimals);
  const totalAmount = subtotal.plus(taxAmount).minus(discountAmount);
  const baseAmount = roundHalfUp(totalAmount.times(opts.exchangeRate), opts.baseDecimals);
  const byRate = new Map<string, { rate: string; base: Dec; tax: Dec }>();
  items.forEach((item, i) => {
    const key = dec(item.taxRate).toString();
    const entry = byRate.get(key) ?? { rate: key, base: new D(0), tax: new D(0) };
    entry.base = entry.base.plus(lines[i].lineTotal);
    entry.tax = entry.tax.plus(lines[i].lineTax);
    byRate.set(key, entry);
  });
  const taxByRate = [...byRate.values()].sort((a, b) => dec(b.rate).comparedTo(a.rate));
  return { lines, subtotal, taxAmount, discountAmount, totalAmount, baseAmount, taxByRate };
}

/**
 * The sale's split for the ledger (A8): the net per revenue account of its lines, the discount
 * deducted from the largest first (then the next, then the tax), and the tax. The parts always
 * sum to totalAmount.
 */
export function splitSale(
  items: Array<{ accountId: string }>,
  totals: Pick<InvoiceTotals, 'lines' | 'taxAmount' | 'discountAmount'>,
): { revenue: Array<{ accountId: string; amount: Dec }>; tax: Dec } {
  const byAccount = new Map<string, Dec>();
  items.forEach((item, i) => {
    byAccount.set(item.accountId, (byAccount.get(item.accountId) ?? new D(0)).plus(totals.lines[i].lineTotal));
  });
  // Largest first; ties in the order the accounts first appear, so the split is deterministic.
  const revenue = [...byAccount.entries()]
    .map(([accountId, amount], order) => ({ accountId, amount, order }))
    .sort((a, b) => b.amount.comparedTo(a.amount) || a.order - b.order);
  let remaining = totals.discountAmount;
  for (const r of revenue) {
    if (remaining.lte(0)) break;
    const take = D.min(r.amount, remaining);
    r.amount = r.amount.minus(take);
    remaining = remaining.minus(take);
  }
  const tax = totals.taxAmount.minus(D.min(totals.taxAmount, remaining));
  return { revenue: revenue.map(({ accountId, amount }) => ({ accountId, amount })), tax };
}
