import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidModel97, mod11Ini, mod97CheckDigits, paymentReference } from '../src/domain/payment-reference.js';
import { compactTaxId } from '../src/domain/tax-ids.js';
import { authed, buildTestApp, registerOrg, type TestApp } from './helpers.js';
import { BA_ITEMS, createCustomer, createInvoice, HR_ITEMS, invoiceBody } from './invoices-fixtures.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(async () => {
  await h?.close();
});

describe('tax identifiers (E2, stdnum)', () => {
  it.each([
    ['RS', '101134702', '101134702'],
    ['RS', 'RS101134702', '101134702'],
    ['RS', 'RS 101134702', '101134702'],
    // check digit 0 (ISO 7064 MOD 11,10 edge)
    ['RS', '100000090', '100000090'],
    ['HR', '33392005961', '33392005961'],
    ['HR', 'HR33392005961', '33392005961'],
    ['HR', '10000000000', '10000000000'],
  ])('accepts the valid %s number %s', (country, value, compact) => {
    expect(compactTaxId(country, value)).toBe(compact);
  });

  it.each([
    ['RS', '101134703'], // wrong check digit
    ['RS', '1011347020'], // ten digits
    ['RS', 'HR101134702'], // another country's prefix
    ['RS', '33392005961'], // an OIB is not a PIB
    ['HR', '33392005962'],
    ['HR', '3339200596'],
    ['HR', 'RS33392005961'],
    ['HR', '10000000001'],
  ])('refuses the invalid %s number %s', (country, value) => {
    expect(compactTaxId(country, value)).toBeNull();
  });

  it('refuses an organization whose Serbian PIB fails its check digit, with details.vatNumber', async () => {
    const s = await registerOrg(h.app);
    const bad = await h.app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { vatNumber: 'RS101134703' } }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatchObject({
      code: 'SVC-9003',
      details: { vatNumber: [expect.stringContaining('PIB')] },
    });
    const good = await h.app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { vatNumber: 'RS101134702' } }),
    );
    expect(good.statusCode).toBe(200);
    expect(good.json().vatNumber).toBe('RS101134702');
  });

  it('refuses to register a Croatian organization with a wrong OIB, and stores nothing', async () => {
    const email = `oib.${Date.now()}@example.test`;
    await expect(
      registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr', vatNumber: 'HR33392005962', email }),
    ).rejects.toThrow(/422.*vatNumber/);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE email = ${email}`.execute(
      h.t.db.system,
    );
    expect(rows[0].n).toBe(0);
  });

  it('checks contacts by their own country: RS and HR numbers are verified, other countries stored as given', async () => {
    const s = await registerOrg(h.app);
    const post = (payload: Record<string, unknown>) =>
      h.app.inject(
        authed(s.token, {
          method: 'POST',
          url: '/api/v1/contacts',
          payload: { type: 'customer', name: 'K', ...payload },
        }),
      );
    expect((await post({ country: 'RS', vatNumber: '101134703' })).json().error.details).toHaveProperty('vatNumber');
    expect((await post({ country: 'HR', vatNumber: 'HR33392005961' })).statusCode).toBe(201);
    expect((await post({ country: 'DE', vatNumber: 'DE-anything' })).statusCode).toBe(201);
    expect((await post({ vatNumber: '12' })).statusCode).toBe(201);
  });

  it('rechecks a contact whose country changes under an existing number, and leaves it unchanged when refused', async () => {
    const s = await registerOrg(h.app);
    const c = await createCustomer(h.app, s, { country: 'DE', vatNumber: '123456789' });
    const res = await h.app.inject(
      authed(s.token, { method: 'PUT', url: `/api/v1/contacts/${c.id}`, payload: { country: 'RS' } }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toHaveProperty('vatNumber');
    const after = await h.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/contacts/${c.id}` }));
    expect(after.json().country).toBe('DE');
  });
});

describe('seller data (E1)', () => {
  it('takes the address and payment account at registration and returns them in the organization', async () => {
    const s = await registerOrg(h.app, {
      addressLine1: 'Knez Mihailova 1',
      city: 'Beograd',
      postalCode: '11000',
      iban: '260-0056010016113-79',
    });
    const org = (await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/organization' }))).json();
    expect(org).toMatchObject({
      addressLine1: 'Knez Mihailova 1',
      city: 'Beograd',
      postalCode: '11000',
      iban: '260005601001611379',
    });
  });

  it('stores an IBAN in electronic format and refuses one with a wrong checksum', async () => {
    const s = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
    const put = (iban: string) =>
      h.app.inject(authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { iban } }));
    expect((await put('hr12 1001 0051 8630 0016 0')).json().iban).toBe('HR1210010051863000160');
    const bad = await put('HR1210010051863000161');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toHaveProperty('iban');
  });

  it('sets and shows the operator OIB of the signed-in user, HR prefix accepted', async () => {
    const s = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
    const put = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/auth/me',
        payload: { operatorOib: 'HR33392005961', fullName: 'Ana Anić' },
      }),
    );
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ id: s.userId, fullName: 'Ana Anić', operatorOib: '33392005961' });
    const me = await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/auth/me' }));
    expect(me.json()).toMatchObject({ fullName: 'Ana Anić', operatorOib: '33392005961' });
    const bad = await h.app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/auth/me', payload: { operatorOib: '33392005962' } }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toHaveProperty('operatorOib');
  });
});

describe('invoice data (E1)', () => {
  it('keeps the line codes, defaults the unit to H87 and the supply date to the invoice date', async () => {
    const s = await registerOrg(h.app);
    const c = await createCustomer(h.app, s);
    const inv = await createInvoice(
      h.app,
      s,
      invoiceBody(c.id, {
        items: [
          {
            description: 'Sat rada',
            quantity: 2,
            unitPrice: 100,
            taxRate: 20,
            unitCode: 'HUR',
            classificationCode: '62.01.11',
          },
          { description: 'Izvoz', quantity: 1, unitPrice: 50, taxRate: 0, vatExemptionCode: 'PDV-RS-24-1-2' },
        ],
      }),
    );
    expect(inv.supplyDate).toBe(inv.invoiceDate);
    expect(inv.items.map((i: any) => [i.unitCode, i.classificationCode, i.vatExemptionCode])).toEqual([
      ['HUR', '62.01.11', null],
      ['H87', null, 'PDV-RS-24-1-2'],
    ]);
    const got = await h.app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${inv.id}` }));
    expect(got.json().items[1].vatExemptionCode).toBe('PDV-RS-24-1-2');
  });

  it('refuses an exemption code on a taxed line', async () => {
    const s = await registerOrg(h.app);
    const c = await createCustomer(h.app, s);
    const res = await h.app.inject(
      authed(s.token, {
        method: 'POST',
        url: '/api/v1/invoices',
        payload: invoiceBody(c.id, {
          items: [{ description: 'x', quantity: 1, unitPrice: 1, taxRate: 20, vatExemptionCode: 'PDV-RS-24-1-2' }],
        }),
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toHaveProperty(['items[0].vatExemptionCode']);
  });

  it('gives a Serbian invoice a model 97 reference whose check digits verify, a Croatian one HR01, a Bosnian none', async () => {
    const rs = await registerOrg(h.app);
    const inv = await createInvoice(
      h.app,
      rs,
      invoiceBody((await createCustomer(h.app, rs)).id, { supplyDate: '2026-03-01' }),
    );
    expect(inv.supplyDate).toBe('2026-03-01');
    expect(inv.paymentReference).toBe(`97 ${mod97CheckDigits('20260001')}20260001`);
    expect(isValidModel97(inv.paymentReference.slice(3))).toBe(true);

    const hr = await registerOrg(h.app, { country: 'HR', baseCurrency: 'EUR', language: 'hr' });
    const hrInv = await createInvoice(
      h.app,
      hr,
      invoiceBody((await createCustomer(h.app, hr, { country: 'HR' })).id, { items: HR_ITEMS }),
    );
    expect(hrInv.paymentReference).toBe('HR01 2026-00013');

    const ba = await registerOrg(h.app, { country: 'BA', baseCurrency: 'BAM', language: 'bs' });
    const baInv = await createInvoice(
      h.app,
      ba,
      invoiceBody((await createCustomer(h.app, ba, { country: 'BA' })).id, { items: BA_ITEMS }),
    );
    expect(baInv.paymentReference).toBeNull();
  });
});

describe('payment reference check digits', () => {
  it('computes ISO 7064 MOD 97-10 as the NBS model 97 does (hand-checked values)', () => {
    // 2026000100 mod 97 = 94 -> 98 - 94 = 04; 2026004200 mod 97 = 23 -> 75
    expect(mod97CheckDigits('20260001')).toBe('04');
    expect(mod97CheckDigits('20260042')).toBe('75');
    expect(paymentReference('RS', 'INV-2026-0042')).toBe('97 7520260042');
    expect(isValidModel97('7520260042')).toBe(true);
    expect(isValidModel97('7620260042')).toBe(false);
  });

  it('computes the HR01 control digit with MOD 11 INI, the same algorithm as the OIB check digit', () => {
    expect(mod11Ini('3339200596')).toBe('1'); // OIB 33392005961
    expect(mod11Ini('1000000000')).toBe('0'); // OIB 10000000000
    expect(paymentReference('HR', 'INV-2026-0042')).toBe('HR01 2026-00423');
    expect(paymentReference('BA', 'INV-2026-0042')).toBeNull();
  });
});
