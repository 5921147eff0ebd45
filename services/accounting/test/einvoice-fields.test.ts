import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYERS, buyer, type Country, getUbl, SELLERS, seller, sentInvoice } from './einvoice-fixtures.js';
import { authed, buildTestApp, type Session, type TestApp } from './helpers.js';

/**
 * The e-invoice says what the invoice says: its number, dates, parties, references and payment
 * means are the stored invoice's, field by field (issue 34: the official rules accept a document
 * whose DueDate is the invoice date, so they cannot catch it). Needs no rules from ../shared.
 */
let h: TestApp;
const sellers = {} as Record<Country, Session>;
const buyers = {} as Record<Country, string>;
beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  for (const c of ['RS', 'HR', 'BA'] as const) {
    sellers[c] = await seller(h.app, c);
    buyers[c] = (await buyer(h.app, sellers[c], c)).id;
  }
}, 120_000);
afterAll(() => h?.close());

const parse = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false }).parse(xml);
const text = (v: any) => (v !== null && typeof v === 'object' ? String(v['#text']) : String(v));

const RATE: Record<Country, number> = { RS: 20, HR: 25, BA: 17 };
/** Three different dates, so that any one put in another's place shows. */
const DATES = { invoiceDate: '2026-04-10', supplyDate: '2026-04-07', dueDate: '2026-05-25' };
/** The VAT identifier as UBL carries it: the country prefix and the number. */
const VAT_ID: Record<Country, (v: string) => string> = {
  RS: (v) => `RS${v.replace(/^RS/, '')}`,
  HR: (v) => `HR${v.replace(/^HR/, '')}`,
  BA: (v) => `BA${v}`,
};

async function invoiceOf(country: Country) {
  const s = sellers[country];
  const inv = await sentInvoice(h.app, s, {
    customerId: buyers[country],
    ...DATES,
    items: [
      { description: 'Usluga', quantity: 2, unitPrice: 150, taxRate: RATE[country], classificationCode: '62.10.11' },
    ],
  });
  const stored = (await h.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}` }))).json();
  return { s, inv: stored };
}

describe('the UBL invoice carries the invoice’s own data', () => {
  for (const country of ['RS', 'HR', 'BA'] as const) {
    it(`${country}: number, dates, currency, parties, payment means`, async () => {
      const { s, inv } = await invoiceOf(country);
      expect([inv.invoiceDate, inv.supplyDate, inv.dueDate]).toEqual([
        DATES.invoiceDate,
        DATES.supplyDate,
        DATES.dueDate,
      ]);
      const res = await getUbl(h.app, s, inv.id);
      expect(res.statusCode).toBe(200);
      const doc = parse(res.body).Invoice;

      expect(doc.ID).toBe(inv.invoiceNumber);
      expect(doc.IssueDate).toBe(DATES.invoiceDate);
      expect(doc.DueDate).toBe(DATES.dueDate);
      expect(doc.Delivery.ActualDeliveryDate).toBe(DATES.supplyDate);
      expect(doc.DocumentCurrencyCode).toBe(inv.currencyCode);

      const sellerData = SELLERS[country];
      const supplier = doc.AccountingSupplierParty.Party;
      expect(supplier.PartyName.Name).toBe(sellerData.organizationName);
      expect(supplier.PartyLegalEntity.RegistrationName).toBe(sellerData.organizationName);
      expect(supplier.PostalAddress).toMatchObject({
        StreetName: sellerData.addressLine1,
        CityName: sellerData.city,
        PostalZone: sellerData.postalCode,
        Country: { IdentificationCode: country },
      });
      expect(supplier.PartyTaxScheme.CompanyID).toBe(VAT_ID[country](sellerData.vatNumber));
      if (country === 'RS') expect(supplier.PartyLegalEntity.CompanyID).toBe(SELLERS.RS.registrationNumber);

      const buyerData = BUYERS[country];
      const customer = doc.AccountingCustomerParty.Party;
      expect(customer.PartyName.Name).toBe('Kupac Ćirić d.o.o.');
      expect(customer.PartyLegalEntity.RegistrationName).toBe('Kupac Ćirić d.o.o.');
      expect(customer.PostalAddress).toMatchObject({
        StreetName: buyerData.addressLine1,
        CityName: buyerData.city,
        PostalZone: buyerData.postalCode,
        Country: { IdentificationCode: country },
      });
      expect(customer.PartyTaxScheme.CompanyID).toBe(VAT_ID[country](buyerData.vatNumber));
      if (country === 'RS') {
        expect(customer.PartyLegalEntity.CompanyID).toBe(BUYERS.RS.registrationNumber);
        expect(text(customer.EndpointID)).toBe(BUYERS.RS.vatNumber);
        expect(text(supplier.EndpointID)).toBe(SELLERS.RS.vatNumber.replace(/^RS/, ''));
      }
      if (country === 'HR') {
        expect(text(customer.EndpointID)).toBe(BUYERS.HR.vatNumber);
        expect(text(supplier.EndpointID)).toBe(SELLERS.HR.vatNumber.replace(/^HR/, ''));
      }

      // Credit transfer to the organization's account, with the invoice's payment reference.
      const org = (await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/organization' }))).json();
      expect(String(doc.PaymentMeans.PaymentMeansCode)).toBe('30');
      expect(doc.PaymentMeans.PayeeFinancialAccount.ID).toBe(org.iban);
      if (country === 'RS') expect(doc.PaymentMeans.PaymentID).toBe(`mod${inv.paymentReference}`);
      else if (country === 'HR') expect(doc.PaymentMeans.PaymentID).toBe(inv.paymentReference);
      else expect(doc.PaymentMeans.PaymentID).toBeUndefined();
    });
  }

  it('the credit note refers to the cancelled invoice by its number and date', async () => {
    const { s, inv } = await invoiceOf('RS');
    const cancel = await h.app.inject(
      authed(s.token, { method: 'PATCH', url: `/api/v1/invoices/${inv.id}/status`, payload: { action: 'cancel' } }),
    );
    expect(cancel.statusCode).toBe(200);
    const doc = parse((await getUbl(h.app, s, inv.id, 'credit-note/ubl')).body).CreditNote;
    expect(doc.ID).toBe(`${inv.invoiceNumber}-CN`);
    expect(doc.BillingReference.InvoiceDocumentReference).toEqual({
      ID: inv.invoiceNumber,
      IssueDate: DATES.invoiceDate,
    });
    // Issued (and due) the day it was cancelled, in the organization's time zone; never the invoice's dates.
    expect(doc.IssueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(doc.IssueDate).not.toBe(DATES.invoiceDate);
    expect(doc.PaymentMeans.PaymentDueDate).toBe(doc.IssueDate);
    expect(doc.Delivery.ActualDeliveryDate).toBe(DATES.supplyDate);
    expect(doc.AccountingCustomerParty.Party.PartyName.Name).toBe('Kupac Ćirić d.o.o.');
  });
});
