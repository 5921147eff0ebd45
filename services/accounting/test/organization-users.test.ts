import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, authed, buildTestApp, login, registerOrg, type TestApp, uniqueEmail } from './helpers.js';

let h: TestApp;
beforeAll(async () => {
  h = await buildTestApp();
});
afterAll(() => h?.close());

describe('GET/PUT /organization', () => {
  it('returns the organization and updates the named fields only', async () => {
    const s = await registerOrg(h.app, { registrationNumber: '12345678', vatNumber: 'RS101134702' });
    const got = await h.app.inject(authed(s.token, { method: 'GET', url: '/api/v1/organization' }));
    expect(got.json()).toMatchObject({
      id: s.orgId,
      name: 'Test d.o.o.',
      registrationNumber: '12345678',
      vatNumber: 'RS101134702',
      baseCurrency: 'RSD',
      country: 'RS',
      language: 'sr',
    });
    expect(got.json().fiscalYearStart).toMatch(/^\d{4}-01-01$/);
    const put = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/organization',
        payload: {
          name: 'Novo ime d.o.o.',
          language: 'hr',
          fiscalYearStart: '2026-04-01',
          baseCurrency: 'EUR',
          id: randomUUID(),
          country: 'HR',
        },
      }),
    );
    expect(put.statusCode).toBe(200);
    // Unknown and unnamed fields (id, country) never reach the database (G14).
    expect(put.json()).toMatchObject({
      id: s.orgId,
      name: 'Novo ime d.o.o.',
      language: 'hr',
      fiscalYearStart: '2026-04-01',
      baseCurrency: 'EUR',
      country: 'RS',
    });
  });

  it('answers 422 SVC-2002 and SVC-2003 for an unsupported currency or language', async () => {
    const s = await registerOrg(h.app);
    const cur = await h.app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { baseCurrency: 'USD' } }),
    );
    expect(cur.statusCode).toBe(422);
    expect(cur.json().error.code).toBe('SVC-2002');
    const lang = await h.app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { language: 'en' } }),
    );
    expect(lang.json().error.code).toBe('SVC-2003');
  });

  it('answers 400 SVC-2004 when the base currency changes after a posting exists', async () => {
    const s = await registerOrg(h.app);
    const accounts = await h.t.db.system
      .selectFrom('accounts')
      .select(['id', 'code'])
      .where('organization_id', '=', s.orgId)
      .execute();
    const byCode = Object.fromEntries(accounts.map((a) => [a.code, a.id]));
    await h.t.db.system
      .insertInto('ledger_transactions')
      .values({
        organization_id: s.orgId,
        transaction_date: '2026-01-15',
        description: 'Opening',
        debit_account_id: byCode['1100'],
        credit_account_id: byCode['3000'],
        amount: '100.00',
        currency_code: 'RSD',
        exchange_rate: '1',
        base_amount: '100.00',
        reference_type: 'manual',
        reference_id: null,
      })
      .execute();
    const res = await h.app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { baseCurrency: 'EUR' } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('SVC-2004');
    // The same currency, and other fields, are still accepted.
    expect(
      (
        await h.app.inject(
          authed(s.token, { method: 'PUT', url: '/api/v1/organization', payload: { baseCurrency: 'RSD', name: 'Ok' } }),
        )
      ).statusCode,
    ).toBe(200);
  });

  it('answers in the organization language once signed in', async () => {
    const s = await registerOrg(h.app, { language: 'bs', country: 'BA', baseCurrency: 'BAM' });
    const res = await h.app.inject(
      authed(s.token, {
        method: 'PUT',
        url: '/api/v1/organization',
        headers: { 'accept-language': 'en' },
        payload: { language: 'xx' },
      }),
    );
    expect(res.json().error.message).toBe('Jezik mora biti sr, bs ili hr.');
  });
});

describe('users', () => {
  it('lists active users with a role filter, without isActive', async () => {
    const owner = await registerOrg(h.app);
    const admin = await addMember(h.app, owner, 'admin');
    await addMember(h.app, owner, 'viewer');
    const all = await h.app.inject(authed(owner.token, { method: 'GET', url: '/api/v1/users' }));
    expect(all.json().data).toHaveLength(3);
    expect(all.json().data[0]).toEqual({
      id: owner.userId,
      email: owner.email,
      fullName: 'Owner Person',
      role: 'owner',
      twoFactorEnabled: false,
      lastLoginAt: expect.any(String),
      createdAt: expect.any(String),
    });
    const admins = await h.app.inject(authed(admin.token, { method: 'GET', url: '/api/v1/users?role=admin' }));
    expect(admins.json().data.map((u: { id: string }) => u.id)).toEqual([admin.userId]);
  });

  it('refuses to invite an owner (422) or an address registered anywhere (409 SVC-2008)', async () => {
    const owner = await registerOrg(h.app);
    const other = await registerOrg(h.app);
    const asOwner = await h.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: '/api/v1/users/invite',
        payload: { email: uniqueEmail(), fullName: 'X', role: 'owner' },
      }),
    );
    expect(asOwner.statusCode).toBe(422);
    expect(asOwner.json().error.details.role).toBeDefined();
    const dup = await h.app.inject(
      authed(owner.token, {
        method: 'POST',
        url: '/api/v1/users/invite',
        payload: { email: other.email, fullName: 'X', role: 'viewer' },
      }),
    );
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('SVC-2008');
  });

  it("lets only the owner change roles, never the owner's own", async () => {
    const owner = await registerOrg(h.app);
    const admin = await addMember(h.app, owner, 'admin');
    const viewer = await addMember(h.app, owner, 'viewer');
    const ok = await h.app.inject(
      authed(owner.token, {
        method: 'PUT',
        url: `/api/v1/users/${viewer.userId}/role`,
        payload: { role: 'accountant' },
      }),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: viewer.userId, role: 'accountant' });
    // The new role applies at once, without a new token.
    const me = await h.app.inject(authed(viewer.token, { method: 'GET', url: '/api/v1/auth/me' }));
    expect(me.json().role).toBe('accountant');

    const ownerTarget = await h.app.inject(
      authed(owner.token, { method: 'PUT', url: `/api/v1/users/${owner.userId}/role`, payload: { role: 'admin' } }),
    );
    expect(ownerTarget.statusCode).toBe(403);
    expect(ownerTarget.json().error.code).toBe('SVC-2006');
    const byAdmin = await h.app.inject(
      authed(admin.token, { method: 'PUT', url: `/api/v1/users/${viewer.userId}/role`, payload: { role: 'viewer' } }),
    );
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().error).toMatchObject({
      code: 'SVC-9001',
      details: { required: ['owner'], current: ['admin'] },
    });
    const missing = await h.app.inject(
      authed(owner.token, { method: 'PUT', url: `/api/v1/users/${randomUUID()}/role`, payload: { role: 'viewer' } }),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('SVC-2005');
    const badRole = await h.app.inject(
      authed(owner.token, { method: 'PUT', url: `/api/v1/users/${viewer.userId}/role`, payload: { role: 'owner' } }),
    );
    expect(badRole.statusCode).toBe(422);
  });

  it('deletes by deactivating: gone from the list, sign-in refused, sessions revoked', async () => {
    const owner = await registerOrg(h.app);
    const member = await addMember(h.app, owner, 'accountant');
    const self = await h.app.inject(authed(owner.token, { method: 'DELETE', url: `/api/v1/users/${owner.userId}` }));
    expect(self.statusCode).toBe(403);
    expect(self.json().error.code).toBe('SVC-2007');
    const res = await h.app.inject(authed(owner.token, { method: 'DELETE', url: `/api/v1/users/${member.userId}` }));
    expect(res.statusCode).toBe(204);
    const list = await h.app.inject(authed(owner.token, { method: 'GET', url: '/api/v1/users' }));
    expect(list.json().data.map((u: { id: string }) => u.id)).not.toContain(member.userId);
    expect((await login(h.app, member.email)).json().error.code).toBe('SVC-1002');
    expect((await h.app.inject(authed(member.token, { method: 'GET', url: '/api/v1/auth/me' }))).statusCode).toBe(401);
    const row = await h.t.db.system
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', member.userId)
      .executeTakeFirstOrThrow();
    expect(row.is_active).toBe(false);
    const again = await h.app.inject(authed(owner.token, { method: 'DELETE', url: `/api/v1/users/${member.userId}` }));
    expect(again.json().error.code).toBe('SVC-2005');
  });

  it('lets nobody but the owner delete users, so the owner cannot be removed', async () => {
    const owner = await registerOrg(h.app);
    const admin = await addMember(h.app, owner, 'admin');
    const res = await h.app.inject(authed(admin.token, { method: 'DELETE', url: `/api/v1/users/${owner.userId}` }));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('SVC-9001');
  });

  it("answers 404 for another organization's user", async () => {
    const a = await registerOrg(h.app);
    const b = await registerOrg(h.app);
    const bMember = await addMember(h.app, b, 'viewer');
    for (const req of [
      { method: 'PUT' as const, url: `/api/v1/users/${bMember.userId}/role`, payload: { role: 'admin' } },
      { method: 'DELETE' as const, url: `/api/v1/users/${bMember.userId}` },
    ]) {
      const res = await h.app.inject(authed(a.token, req));
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('SVC-2005');
    }
    const row = await h.t.db.system
      .selectFrom('users')
      .select(['role', 'is_active'])
      .where('id', '=', bMember.userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'viewer', is_active: true });
  });
});
