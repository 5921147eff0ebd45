import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.js';
import { type ContactDeleteBlocker, deleteContact } from '../src/modules/contacts/contacts.service.js';
import { addMember, authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';

let h: TestApp;
let owner: Session;
beforeAll(async () => {
  h = await buildTestApp();
  owner = await registerOrg(h.app, { baseCurrency: 'RSD' });
});
afterAll(() => h?.close());

const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.app.inject(authed(token, { method, url: `/api/v1/contacts${url}`, ...(payload ? { payload } : {}) }));

async function create(token: string, body: object) {
  const res = await api(token, 'POST', '', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /contacts', () => {
  it('creates a contact with the defaults: organization base currency, 30 days, active', async () => {
    const c = await create(owner.token, {
      type: 'customer',
      name: '  Kupac d.o.o. ',
      email: 'kupac@example.rs',
      country: 'rs',
      notes: 'VIP',
    });
    expect(c).toMatchObject({
      type: 'customer',
      name: 'Kupac d.o.o.',
      email: 'kupac@example.rs',
      country: 'RS',
      currencyCode: 'RSD',
      paymentTerms: 30,
      isActive: true,
      notes: 'VIP',
      phone: null,
    });
    const row = await h.t.db.system.selectFrom('contacts').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    expect(row.organization_id).toBe(owner.orgId);
    const audit = await h.t.db.system
      .selectFrom('logged_actions')
      .select(['action', 'user_id'])
      .where('record_id', '=', c.id)
      .execute();
    expect(audit).toEqual([{ action: 'INSERT', user_id: owner.userId }]);
  });

  it('keeps a given currency and payment terms (0 = due on receipt)', async () => {
    const c = await create(owner.token, {
      type: 'vendor',
      name: 'Supplier GmbH',
      country: 'DE',
      currencyCode: 'eur',
      paymentTerms: 0,
    });
    expect(c).toMatchObject({ currencyCode: 'EUR', paymentTerms: 0, country: 'DE' });
  });

  it.each([['XX'], ['SRB'], ['R1'], ['Serbia']])('answers 422 SVC-7004 for country %s', async (country) => {
    const res = await api(owner.token, 'POST', '', { type: 'customer', name: 'X', country });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'SVC-7004', details: { country: expect.any(Array) } });
  });

  it.each([[-1], [1.5], ['30']])('answers 422 SVC-7005 for paymentTerms %s', async (paymentTerms) => {
    const res = await api(owner.token, 'POST', '', { type: 'customer', name: 'X', paymentTerms });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-7005');
  });

  it.each([
    [{ name: 'No type' }, 'type'],
    [{ type: 'partner', name: 'X' }, 'type'],
    [{ type: 'customer' }, 'name'],
    [{ type: 'customer', name: '   ' }, 'name'],
    [{ type: 'customer', name: 'X', email: 'not-an-email' }, 'email'],
    [{ type: 'customer', name: 'X', currencyCode: 'XYZ' }, 'currencyCode'],
  ])('answers 422 SVC-9003 for %o', async (body, field) => {
    const res = await api(owner.token, 'POST', '', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('SVC-9003');
    expect(Object.keys(res.json().error.details)).toContain(field);
  });

  it('is refused to viewers (403 SVC-9001) and allowed to accountants', async () => {
    const viewer = await addMember(h.app, owner, 'viewer');
    const accountant = await addMember(h.app, owner, 'accountant');
    const res = await api(viewer.token, 'POST', '', { type: 'customer', name: 'X' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('SVC-9001');
    await create(accountant.token, { type: 'customer', name: 'By accountant' });
  });
});

describe('GET /contacts', () => {
  let s: Session;
  beforeAll(async () => {
    s = await registerOrg(h.app);
    for (const [type, name] of [
      ['customer', 'Alfa'],
      ['vendor', 'Beta'],
      ['both', 'Gama'],
      ['customer', 'Delta'],
      ['vendor', 'Epsilon'],
    ] as const) {
      await create(s.token, { type, name });
    }
  });

  it('lists contacts created in the same instant in the order they were made, not by id', async () => {
    const s = await registerOrg(h.app);
    const at = new Date('2026-11-27T10:00:00.000Z');
    // Inserted first with the higher id: an id tie-break would put it first.
    for (const [id, name] of [
      ['ffffffff-ffff-4fff-bfff-ffffffffffff', 'Made first'],
      ['00000000-0000-4000-8000-000000000000', 'Made second'],
    ]) {
      await h.t.db.system
        .insertInto('contacts')
        .values({
          id,
          organization_id: s.orgId,
          type: 'customer',
          name,
          currency_code: 'RSD',
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    expect((await api(s.token, 'GET', '')).json().data.map((c: { name: string }) => c.name)).toEqual([
      'Made second',
      'Made first',
    ]);
    expect((await api(s.token, 'GET', '?order=asc')).json().data.map((c: { name: string }) => c.name)).toEqual([
      'Made first',
      'Made second',
    ]);
  });

  it('pages with the {data, meta} envelope, newest first by default', async () => {
    const res = await api(s.token, 'GET', '?perPage=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ total: 5, page: 1, perPage: 2, totalPages: 3 });
    expect(body.data.map((c: { name: string }) => c.name)).toEqual(['Epsilon', 'Delta']);
    expect(body.data[0].notes).toBeUndefined();
    const last = await api(s.token, 'GET', '?perPage=2&page=3');
    expect(last.json().data.map((c: { name: string }) => c.name)).toEqual(['Alfa']);
    const beyond = await api(s.token, 'GET', '?perPage=2&page=9');
    expect(beyond.json()).toEqual({ data: [], meta: { total: 5, page: 9, perPage: 2, totalPages: 3 } });
  });

  it('sorts by name in either order', async () => {
    const asc = await api(s.token, 'GET', '?sort=name&order=asc');
    expect(asc.json().data.map((c: { name: string }) => c.name)).toEqual(['Alfa', 'Beta', 'Delta', 'Epsilon', 'Gama']);
  });

  it('filters by type: customer and vendor include contacts of type both', async () => {
    const names = async (type: string) =>
      (await api(s.token, 'GET', `?type=${type}&sort=name&order=asc`)).json().data.map((c: { name: string }) => c.name);
    expect(await names('customer')).toEqual(['Alfa', 'Delta', 'Gama']);
    expect(await names('vendor')).toEqual(['Beta', 'Epsilon', 'Gama']);
    expect(await names('both')).toEqual(['Gama']);
  });

  it.each([['page=0'], ['perPage=101'], ['perPage=0'], ['page=1.5'], ['page=abc'], ['sort=email'], ['order=up']])(
    'answers 400 SVC-9008 for %s',
    async (qs) => {
      const res = await api(s.token, 'GET', `?${qs}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('SVC-9008');
    },
  );

  it('answers 422 SVC-9003 for an unknown type filter', async () => {
    const res = await api(s.token, 'GET', '?type=partner');
    expect(res.statusCode).toBe(422);
  });

  it('never shows another organization’s contacts', async () => {
    const other = await registerOrg(h.app);
    const res = await api(other.token, 'GET', '');
    expect(res.json().meta.total).toBe(0);
  });
});

describe('GET, PUT and DELETE /contacts/:id', () => {
  it('reads a contact with its notes; another organization gets 404 SVC-7001', async () => {
    const c = await create(owner.token, { type: 'customer', name: 'Reader', notes: 'secret terms' });
    const res = await api(owner.token, 'GET', `/${c.id}`);
    expect(res.json()).toMatchObject({ id: c.id, notes: 'secret terms' });
    const other = await registerOrg(h.app);
    const hidden = await api(other.token, 'GET', `/${c.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('SVC-7001');
    expect((await api(owner.token, 'GET', '/not-a-uuid')).statusCode).toBe(404);
  });

  it('updates only the given fields and validates them like create', async () => {
    const c = await create(owner.token, { type: 'customer', name: 'Old', city: 'Beograd', paymentTerms: 15 });
    const res = await api(owner.token, 'PUT', `/${c.id}`, { name: 'New', phone: '+381 11 123' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New', phone: '+381 11 123', city: 'Beograd', paymentTerms: 15 });
    expect((await api(owner.token, 'PUT', `/${c.id}`, { country: 'ZZ' })).json().error.code).toBe('SVC-7004');
    expect((await api(owner.token, 'PUT', `/${c.id}`, { paymentTerms: -3 })).json().error.code).toBe('SVC-7005');
    const missing = await api(owner.token, 'PUT', `/${crypto.randomUUID()}`, { name: 'X' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('SVC-7001');
  });

  it('soft-deletes: 204, isActive false, hidden from the list, still readable', async () => {
    const c = await create(owner.token, { type: 'vendor', name: 'To delete' });
    const del = await api(owner.token, 'DELETE', `/${c.id}`);
    expect(del.statusCode).toBe(204);
    expect((await api(owner.token, 'GET', `/${c.id}`)).json().isActive).toBe(false);
    const list = await api(owner.token, 'GET', '?perPage=100');
    expect(list.json().data.some((x: { id: string }) => x.id === c.id)).toBe(false);
    const inactive = await api(owner.token, 'GET', '?perPage=100&isActive=false');
    expect(inactive.json().data.some((x: { id: string }) => x.id === c.id)).toBe(true);
    expect((await api(owner.token, 'DELETE', `/${crypto.randomUUID()}`)).json().error.code).toBe('SVC-7001');
  });

  it('lets only owner and admin delete', async () => {
    const accountant = await addMember(h.app, owner, 'accountant');
    const c = await create(owner.token, { type: 'vendor', name: 'Kept' });
    expect((await api(accountant.token, 'DELETE', `/${c.id}`)).statusCode).toBe(403);
  });

  it('refuses deletion with the code a blocker answers, and rolls back', async () => {
    const c = await create(owner.token, { type: 'customer', name: 'Has invoices' });
    const blocker: ContactDeleteBlocker = async (trx, orgId, contactId) => {
      const row = await trx
        .selectFrom('contacts')
        .select('name')
        .where('organization_id', '=', orgId)
        .where('id', '=', contactId)
        .executeTakeFirst();
      return row?.name === 'Has invoices' ? 'SVC-7002' : null;
    };
    const tenant = { kind: 'tenant' as const, orgId: owner.orgId, userId: owner.userId, requestId: 'blocker-test' };
    const refused = await h.t.db
      .transaction(tenant, (trx) => deleteContact(trx, owner.orgId, c.id, [blocker]))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('SVC-7002');
    expect((await api(owner.token, 'GET', `/${c.id}`)).json().isActive).toBe(true);
    // With no blocker objecting, the same call deletes.
    await h.t.db.transaction(tenant, (trx) => deleteContact(trx, owner.orgId, c.id, [async () => null]));
    expect((await api(owner.token, 'GET', `/${c.id}`)).json().isActive).toBe(false);
  });
});
