/**
 * E-invoice documents (issue 14): UBL generation of a 50-line invoice, and the invoice PDF with its
 * payment code (RS IPS QR, HR HUB-3A PDF417) next to the same PDF without it, in one process and
 * interleaved rounds so that both sides see the same machine load. Document generation is CPU work
 * in the service's process; no database or HTTP is involved in what is timed.
 *
 *   npm run bench -- einvoice
 */
import { performance } from 'node:perf_hooks';
import { formatAmount } from '@app/shared/money';
import { paymentCodeInputOf, pngSize, renderPaymentCode } from '../services/accounting/src/domain/payment-code.js';
import { type InvoicePdfData, renderInvoicePdf } from '../services/accounting/src/infra/documents/invoice-pdf.js';
import { buildEInvoice, type EInvoiceSource } from '../services/accounting/src/modules/einvoice/einvoice-document.js';
import { renderUbl } from '../services/accounting/src/modules/einvoice/ubl.js';
import { computeTotals } from '../services/accounting/src/modules/invoices/invoice-totals.js';
import { machine, percentile, writeSection } from './lib.js';

const LINES = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

function source(country: 'RS' | 'HR'): EInvoiceSource {
  const rates = country === 'RS' ? ['20', '10'] : ['25', '13', '5'];
  const items = Array.from({ length: LINES }, (_, i) => ({
    quantity: '0.5',
    unitPrice: (i + 0.01).toFixed(2),
    taxRate: rates[i % rates.length],
  }));
  const t = computeTotals(items, { decimals: 2, baseDecimals: 2, exchangeRate: '1' });
  const now = new Date('2026-03-10T09:30:00Z');
  const m = (v: { toString(): string }) => formatAmount(v.toString(), 2);
  return {
    org: {
      id: 'org',
      name: 'Prodavac Šumadija d.o.o.',
      registration_number: '17555555',
      vat_number: country === 'RS' ? '101134702' : '33392005961',
      base_currency: country === 'RS' ? 'RSD' : 'EUR',
      country,
      language: country === 'RS' ? 'sr' : 'hr',
      fiscal_year_start: '2026-01-01',
      default_vat_rate: '0',
      address_line1: 'Knez Mihailova 1',
      city: 'Beograd',
      postal_code: '11000',
      iban: country === 'RS' ? '260005601001611379' : 'HR1210010051863000160',
      created_at: now,
      updated_at: now,
    },
    customer: {
      id: 'c',
      organization_id: 'org',
      type: 'customer',
      name: 'Kupac Ćirić d.o.o.',
      email: 'k@example.test',
      phone: null,
      registration_number: '08765432',
      vat_number: country === 'RS' ? '100000090' : '10000000000',
      address_line1: 'Bulevar 2',
      address_line2: null,
      city: 'Novi Sad',
      postal_code: '21000',
      country,
      currency_code: 'RSD',
      payment_terms: 30,
      notes: null,
      is_active: true,
      created_at: now,
      updated_at: now,
      seq: 1,
    },
    operator: { fullName: 'Ana Operaterka', operatorOib: '33392005961' },
    invoice: {
      id: 'inv',
      organization_id: 'org',
      invoice_number: 'INV-2026-0042',
      customer_id: 'c',
      customer_name: 'Kupac Ćirić d.o.o.',
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      supply_date: '2026-03-10',
      currency_code: country === 'RS' ? 'RSD' : 'EUR',
      exchange_rate: '1',
      subtotal: m(t.subtotal),
      tax_amount: m(t.taxAmount),
      discount_amount: '0.00',
      total_amount: m(t.totalAmount),
      base_amount: m(t.totalAmount),
      notes: null,
      terms: null,
      pdf_key: null,
      token_hash: null,
      sent_at: now,
      sent_to: null,
      email_id: null,
      send_claimed_at: null,
      viewed_at: null,
      paid_at: null,
      paid_bank_account_id: null,
      cancelled_at: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    },
    items: items.map((it, i) => ({
      id: `item-${i}`,
      organization_id: 'org',
      invoice_id: 'inv',
      line_number: i + 1,
      description: `Usluga razvoja — stavka ${i + 1}`,
      quantity: it.quantity,
      unit_price: it.unitPrice,
      tax_rate: it.taxRate,
      line_total: m(t.lines[i].lineTotal),
      line_tax: m(t.lines[i].lineTax),
      account_id: null,
      unit_code: 'H87',
      classification_code: '62.10.11',
      vat_exemption_code: null,
    })),
  };
}

function pdfData(src: EInvoiceSource): InvoicePdfData {
  const { org, customer: c, invoice: inv, items } = src;
  return {
    language: org.language,
    organization: {
      name: org.name,
      addressLines: [org.address_line1!, `${org.postal_code} ${org.city}`],
      registrationNumber: org.registration_number,
      vatNumber: org.vat_number,
    },
    customer: {
      name: c!.name,
      addressLines: [c!.address_line1!, `${c!.postal_code} ${c!.city}`],
      registrationNumber: c!.registration_number,
      vatNumber: c!.vat_number,
    },
    invoiceNumber: inv.invoice_number,
    invoiceDate: inv.invoice_date,
    dueDate: inv.due_date,
    supplyDate: inv.invoice_date,
    currencyCode: inv.currency_code,
    decimals: 2,
    baseCurrency: org.base_currency,
    baseDecimals: 2,
    exchangeRate: '1',
    items: items.map((i) => ({
      lineNumber: i.line_number,
      description: i.description,
      quantity: i.quantity,
      unitCode: i.unit_code,
      unitPrice: i.unit_price,
      taxRate: i.tax_rate,
      lineTotal: i.line_total,
    })),
    subtotal: inv.subtotal,
    taxByRate: [],
    taxAmount: inv.tax_amount,
    discountAmount: '0.00',
    totalAmount: inv.total_amount,
    baseAmount: inv.base_amount,
    notes: null,
    terms: null,
    payment: { account: org.iban, reference: null },
  };
}

async function time(fn: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const sources = { RS: source('RS'), HR: source('HR') };
const samples: Record<string, number[]> = {};
const add = (k: string, v: number) => {
  samples[k] ??= [];
  samples[k].push(v);
};

// Warm-up: module loads, font parsing, first QR/PDF417 encoder runs.
for (let i = 0; i < 10; i++) {
  for (const src of Object.values(sources)) {
    renderUbl(buildEInvoice(src, 'invoice'));
    await renderInvoicePdf({ ...pdfData(src), paymentCode: null });
    await renderPaymentCode(paymentCodeInputOf(src.org, src.customer, src.invoice));
  }
}

for (let r = 0; r < ROUNDS; r++) {
  for (const [country, src] of Object.entries(sources)) {
    add(`${country} UBL, 50 lines`, await time(() => renderUbl(buildEInvoice(src, 'invoice'))));
    add(
      `${country} PDF, 50 lines, no payment code`,
      await time(() => renderInvoicePdf({ ...pdfData(src), paymentCode: null })),
    );
    add(
      `${country} PDF, 50 lines, with ${country === 'RS' ? 'IPS QR' : 'HUB-3A PDF417'} (code rendered in the timing)`,
      await time(async () => {
        const code = await renderPaymentCode(paymentCodeInputOf(src.org, src.customer, src.invoice));
        await renderInvoicePdf({ ...pdfData(src), paymentCode: { png: code.png, ...pngSize(code.png) } });
      }),
    );
  }
}

const rows = Object.entries(samples).map(
  ([name, v]) => `| ${name} | ${percentile(v, 50).toFixed(2)} | ${percentile(v, 99).toFixed(2)} |`,
);
const section = `Command: \`npm run bench -- einvoice\` (${ROUNDS} interleaved rounds after 10 warm-up rounds, one process; ${machine()}).
Targets (issue 14): UBL for a 50-line invoice p50 under 20 ms; PDF with payment code p50 under 100 ms, shown next
to the same PDF without the code from the same rounds. The machine is shared with other jobs (noisy): read the
figures as orders of magnitude and the with/without pairs as the comparison.

| document | p50 ms | p99 ms |
|---|---|---|
${rows.join('\n')}
`;
console.log(section);
writeSection('E-invoices and payment codes (issue 14)', section);
