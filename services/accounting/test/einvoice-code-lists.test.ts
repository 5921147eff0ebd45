import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SOURCE, GENERATED, generateCodeLists } from '../../../scripts/code-lists.js';
import { isKpd2025Code, isVatexCode } from '../src/domain/code-lists.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';
import { createCustomer } from './invoices-fixtures.js';

// Issue 25 item 4: KPD 2025 (HR) and VATEX (HR, BA) codes are checked against the official lists at
// input time; the lists come from the artefacts through a committed file that must not drift.

const HAVE_ARTEFACTS = existsSync(join(DEFAULT_SOURCE, 'rules', 'hr-cius-2025.sef.json'));

describe('the committed code lists', () => {
  it.skipIf(!HAVE_ARTEFACTS)(
    'equal what scripts/code-lists.ts extracts from ../shared/einvoice (run npm run code-lists when this fails)',
    () => {
      expect(readFileSync(GENERATED, 'utf8')).toBe(generateCodeLists(DEFAULT_SOURCE));
    },
  );
  if (!HAVE_ARTEFACTS) {
    it.skip(`compared with the artefacts: skipped, ${DEFAULT_SOURCE} is absent (a clone on its own)`, () => {});
  }

  it('hold the codes the official rules accept and not the ones they refuse', () => {
    expect(isKpd2025Code('62.10.11')).toBe(true);
    expect(isKpd2025Code('58.11.11')).toBe(true);
    expect(isKpd2025Code('58.11.19')).toBe(false);
    expect(isKpd2025Code('62.01.11')).toBe(false);
    expect(isKpd2025Code('62.10')).toBe(false);
    expect(isVatexCode('VATEX-EU-132')).toBe(true);
    expect(isVatexCode('vatex-eu-ic')).toBe(true);
    expect(isVatexCode('VATEX-EU-999')).toBe(false);
    expect(isVatexCode('PDV-RS-24-1-2')).toBe(false);
  });
});

let t: TestApp;
const orgs = {} as Record<'RS' | 'HR' | 'BA', { s: Session; customerId: string }>;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'off' });
  const settings = { RS: ['RSD', 'sr'], HR: ['EUR', 'hr'], BA: ['BAM', 'bs'] } as const;
  for (const country of ['RS', 'HR', 'BA'] as const) {
    const [baseCurrency, language] = settings[country];
    const s = await registerOrg(t.app, { country, baseCurrency, language });
    orgs[country] = { s, customerId: (await createCustomer(t.app, s, { country })).id };
  }
});
afterAll(async () => t?.close());

const RATE = { RS: 20, HR: 25, BA: 17 } as const;

function body(country: 'RS' | 'HR' | 'BA', second: Record<string, unknown>) {
  return {
    customerId: orgs[country].customerId,
    invoiceDate: '2026-03-10',
    dueDate: '2026-04-09',
    items: [
      { description: 'Prva', quantity: 1, unitPrice: 100, taxRate: RATE[country] },
      { description: 'Druga', quantity: 1, unitPrice: 50, taxRate: 0, ...second },
    ],
  };
}

const post = (country: 'RS' | 'HR' | 'BA', payload: object) =>
  t.app.inject(authed(orgs[country].s.token, { method: 'POST', url: '/api/v1/invoices', payload }));

describe('KPD 2025 classification codes of a Croatian organization', () => {
  it('refuses a well-formed code that is not in the list with 422 naming the line (58.11.19)', async () => {
    const res = await post('HR', body('HR', { taxRate: 25, classificationCode: '58.11.19' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'SVC-9003',
      details: { 'items[1].classificationCode': [expect.stringContaining('KPD 2025')] },
    });
    expect(Object.keys(res.json().error.details)).toEqual(['items[1].classificationCode']);
  });

  it('accepts a listed code, and refuses an unlisted one when a draft is updated', async () => {
    const created = await post('HR', body('HR', { taxRate: 25, classificationCode: '62.10.11' }));
    expect(created.statusCode).toBe(201);
    expect(created.json().items[1].classificationCode).toBe('62.10.11');
    const put = await t.app.inject(
      authed(orgs.HR.s.token, {
        method: 'PUT',
        url: `/api/v1/invoices/${created.json().id}`,
        payload: body('HR', { taxRate: 25, classificationCode: '62.01.11' }),
      }),
    );
    expect(put.statusCode).toBe(422);
    expect(Object.keys(put.json().error.details)).toEqual(['items[1].classificationCode']);
  });

  it('leaves the classification of a Serbian or Bosnian line free (its e-invoice lists it as ZZZ)', async () => {
    for (const country of ['RS', 'BA'] as const) {
      const res = await post(country, body(country, { taxRate: RATE[country], classificationCode: '58.11.19' }));
      expect(res.statusCode).toBe(201);
    }
  });
});

describe('VAT exemption codes', () => {
  for (const country of ['HR', 'BA'] as const) {
    it(`${country}: refuses a code outside the CEF VATEX list and accepts a listed one in any case`, async () => {
      for (const code of ['VATEX-EU-999', 'PDV-RS-24-1-2']) {
        const res = await post(country, body(country, { vatExemptionCode: code }));
        expect(res.statusCode).toBe(422);
        expect(res.json().error.details).toEqual({
          'items[1].vatExemptionCode': [expect.stringContaining('VATEX')],
        });
      }
      const ok = await post(country, body(country, { vatExemptionCode: 'vatex-eu-132' }));
      expect(ok.statusCode).toBe(201);
      expect(ok.json().items[1].vatExemptionCode).toBe('VATEX-EU-132');
    });
  }

  it('RS: refuses a code that is not a SEF PDV-RS code and accepts one', async () => {
    const res = await post('RS', body('RS', { vatExemptionCode: 'VATEX-EU-132' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual({ 'items[1].vatExemptionCode': [expect.stringContaining('PDV-RS')] });
    const ok = await post('RS', body('RS', { vatExemptionCode: 'PDV-RS-24-1-2' }));
    expect(ok.statusCode).toBe(201);
  });

  it('names every bad code of every line at once', async () => {
    const res = await post('HR', {
      ...body('HR', { vatExemptionCode: 'VATEX-EU-999', classificationCode: '58.11.19' }),
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.details).sort()).toEqual([
      'items[1].classificationCode',
      'items[1].vatExemptionCode',
    ]);
  });
});
