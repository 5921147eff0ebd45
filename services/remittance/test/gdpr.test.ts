import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, nextPid, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

/** One user signed in on both surfaces: `as('api')` and `as('v1')` give the auth options. */
async function user() {
  const pid = nextPid();
  const { cookie } = await signInWeb(env.app, { pid });
  const { token, user } = await signInMobile(env.app, { pid });
  return { id: user.id as string, as: (surface: 'api' | 'v1') => (surface === 'api' ? web(cookie) : bearer(token)) };
}

type Method = 'GET' | 'POST';
const call = (surface: 'api' | 'v1', auth: object, method: Method, path: string, payload?: unknown) =>
  env.app.inject({
    method,
    url: `/${surface}${path}`,
    ...auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('GDPR consents', () => {
  for (const surface of ['api', 'v1'] as const) {
    it(`creates a record (201), then a withdrawal and a new grant update it (200), each with the client IP (${surface})`, async () => {
      const u = await user();
      const auth = u.as(surface);
      expect((await call(surface, auth, 'GET', '/consents')).json()).toEqual({ data: [] });

      const granted = await call(surface, auth, 'POST', '/consents', { consentType: 'marketing', granted: true });
      expect(granted.statusCode).toBe(201);
      const first = granted.json().data;
      expect(first).toMatchObject({
        consent_type: 'marketing',
        granted: true,
        withdrawn_at: null,
        ip_address: '127.0.0.1',
      });
      expect(first.id).toMatch(/^con_/);
      expect(Date.parse(first.granted_at)).not.toBeNaN();

      const withdrawn = await call(surface, auth, 'POST', '/consents', { consentType: 'marketing', granted: false });
      expect(withdrawn.statusCode).toBe(200);
      expect(withdrawn.json().data).toMatchObject({ id: first.id, granted: false, granted_at: first.granted_at });
      expect(Date.parse(withdrawn.json().data.withdrawn_at)).not.toBeNaN();

      const again = await call(surface, auth, 'POST', '/consents', { consentType: 'marketing', granted: true });
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toMatchObject({ id: first.id, granted: true, withdrawn_at: null });

      const list = (await call(surface, auth, 'GET', '/consents')).json().data;
      expect(list).toHaveLength(1);
      const events = await env.db.system
        .selectFrom('gdpr_consent_events')
        .select(['granted', 'ip_address', 'consent_id'])
        .where('user_id', '=', u.id)
        .orderBy('created_at')
        .execute();
      expect(events).toEqual([
        { granted: 1, ip_address: '127.0.0.1', consent_id: first.id },
        { granted: 0, ip_address: '127.0.0.1', consent_id: first.id },
        { granted: 1, ip_address: '127.0.0.1', consent_id: first.id },
      ]);
    });
  }

  it('keeps one record per type and lists them all', async () => {
    const u = await user();
    for (const consentType of ['terms', 'privacy', 'cookies_analytics']) {
      expect((await call('api', u.as('api'), 'POST', '/consents', { consentType, granted: true })).statusCode).toBe(
        201,
      );
    }
    expect(
      (await call('v1', u.as('v1'), 'POST', '/consents', { consentType: 'cookies_marketing', granted: false }))
        .statusCode,
    ).toBe(201);
    const list = (await call('v1', u.as('v1'), 'GET', '/consents')).json().data;
    expect(list.map((c: { consent_type: string; granted: boolean }) => [c.consent_type, c.granted])).toEqual([
      ['cookies_analytics', true],
      ['cookies_marketing', false],
      ['privacy', true],
      ['terms', true],
    ]);
    const withdrawnFirst = list.find((c: { consent_type: string }) => c.consent_type === 'cookies_marketing');
    expect(withdrawnFirst.granted_at).toBeNull();
  });

  it('answers 400 bad_request for an unknown type, a missing field or a non-boolean grant, and stores nothing', async () => {
    const u = await user();
    for (const payload of [
      { consentType: 'newsletter', granted: true },
      { consentType: 'terms' },
      { granted: true },
      { consentType: 'terms', granted: 'yes' },
      { consentType: 'terms', granted: 1 },
    ]) {
      for (const surface of ['api', 'v1'] as const) {
        const res = await call(surface, u.as(surface), 'POST', '/consents', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error).toBe('bad_request');
      }
    }
    expect(await env.db.system.selectFrom('gdpr_consents').select('id').where('user_id', '=', u.id).execute()).toEqual(
      [],
    );
  });

  it('shows a user only their own consents', async () => {
    const a = await user();
    const b = await user();
    await call('api', a.as('api'), 'POST', '/consents', { consentType: 'terms', granted: true });
    expect((await call('api', b.as('api'), 'GET', '/consents')).json().data).toEqual([]);
    // b's first post of the same type creates b's own record.
    expect(
      (await call('api', b.as('api'), 'POST', '/consents', { consentType: 'terms', granted: true })).statusCode,
    ).toBe(201);
  });
});

describe('consent history (issue 29)', () => {
  it('lists every grant and withdrawal newest first, on both surfaces, paged, only the own', async () => {
    const u = await user();
    const other = await user();
    const steps: [string, boolean][] = [
      ['marketing', true],
      ['marketing', false],
      ['terms', true],
      ['marketing', true],
    ];
    for (const [consentType, granted] of steps) {
      expect((await call('api', u.as('api'), 'POST', '/consents', { consentType, granted })).statusCode).toBeLessThan(
        300,
      );
    }
    await call('v1', other.as('v1'), 'POST', '/consents', { consentType: 'privacy', granted: true });
    for (const surface of ['api', 'v1'] as const) {
      const res = await call(surface, u.as(surface), 'GET', '/consents/history');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.pagination).toEqual({ page: 1, limit: 50, total: 4, totalPages: 1 });
      expect(body.data.map((e: { consent_type: string; granted: boolean }) => [e.consent_type, e.granted])).toEqual(
        [...steps].reverse(),
      );
      expect(body.data[0]).toEqual({
        id: expect.stringMatching(/^cev_/),
        consent_id: expect.stringMatching(/^con_/),
        consent_type: 'marketing',
        granted: true,
        ip_address: expect.any(String),
        created_at: expect.any(String),
      });
    }
    const page2 = (await call('api', u.as('api'), 'GET', '/consents/history?limit=3&page=2')).json();
    expect(page2.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
    expect(page2.data.map((e: { consent_type: string; granted: boolean }) => [e.consent_type, e.granted])).toEqual([
      ['marketing', true],
    ]);
    const theirs = (await call('v1', other.as('v1'), 'GET', '/consents/history')).json();
    expect(theirs.data.map((e: { consent_type: string }) => e.consent_type)).toEqual(['privacy']);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x']) {
      const res = await call('api', u.as('api'), 'GET', `/consents/history?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
  });
});

describe('consent IP behind a proxy (G5)', () => {
  it('records the X-Forwarded-For client only when TRUST_PROXY is on', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: 'true' });
    try {
      const { token } = await signInMobile(proxied.app, { pid: nextPid() });
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/v1/consents',
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.7' },
        payload: { consentType: 'privacy', granted: true },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.ip_address).toBe('203.0.113.7');
    } finally {
      await proxied.close();
    }
    const u = await user();
    const direct = await env.app.inject({
      method: 'POST',
      url: '/v1/consents',
      headers: { ...u.as('v1').headers, 'x-forwarded-for': '203.0.113.7' },
      payload: { consentType: 'privacy', granted: true },
    });
    expect(direct.json().data.ip_address).toBe('127.0.0.1');
  }, 90_000);
});

describe('complaints', () => {
  for (const surface of ['api', 'v1'] as const) {
    it(`creates a complaint with status received and the 15-business-day commitment (${surface})`, async () => {
      const u = await user();
      const res = await call(surface, u.as(surface), 'POST', '/complaints', {
        category: 'fees',
        subject: 'Fee too high',
        description: 'I was charged twice.',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.data).toMatchObject({
        category: 'fees',
        subject: 'Fee too high',
        description: 'I was charged twice.',
        status: 'received',
        resolution: null,
      });
      expect(body.data.id).toMatch(/^cmp_/);
      expect(Date.parse(body.data.created_at)).not.toBeNaN();
      expect(body.commitmentNote).toMatch(/15 business days/);
      const read = await call(surface, u.as(surface), 'GET', `/complaints/${body.data.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json().data).toEqual(body.data);
    });
  }

  it('stores complaints as plain text: tags removed, script content dropped, entities decoded', async () => {
    const u = await user();
    const res = await call('api', u.as('api'), 'POST', '/complaints', {
      category: 'technical',
      subject: '<b>App</b> crashes <script>alert("x")</script>&amp; freezes',
      description:
        '<p onclick="steal()">When I pay,</p><img src=x onerror=alert(1)> 1 < 2 &lt;script&gt;alert(2)&lt;/script&gt;it <<b>script>hangs',
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data.subject).toBe('App crashes & freezes');
    expect(data.description).not.toMatch(/<[a-z/!]/i);
    expect(data.description).not.toMatch(/alert|onerror|onclick/);
    expect(data.description).toContain('When I pay,');
    expect(data.description).toContain('1 < 2');
    const row = await env.db.system
      .selectFrom('complaints')
      .select(['subject', 'description'])
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ subject: data.subject, description: data.description });
  });

  it('never stores markup from entities nested past the sanitizer passes (issue 33 item 4)', async () => {
    const u = await user();
    const payload = '<img src=x onerror=alert(document.cookie)>';
    const encode = (text: string, levels: number) => {
      let out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      for (let i = 1; i < levels; i++) out = out.replace(/&/g, '&amp;');
      return out;
    };
    // Each pass decodes one level: a shallow nesting settles into harmless text, a deep one is refused.
    for (const levels of [3, 10, 11, 12, 40]) {
      const res = await call('api', u.as('api'), 'POST', '/complaints', {
        category: 'technical',
        subject: 'Nested entities',
        description: `before ${encode(payload, levels)} after`,
      });
      if (res.statusCode === 201) {
        expect(res.json().data.description, `${levels} levels`).not.toMatch(/<[a-z/!]/i);
        expect(res.json().data.description).not.toContain('onerror');
      } else {
        expect(res.statusCode, `${levels} levels`).toBe(422);
        expect(res.json().details).toEqual([expect.objectContaining({ field: 'description' })]);
      }
    }
    const stored = await env.db.system
      .selectFrom('complaints')
      .select('description')
      .where('user_id', '=', u.id)
      .execute();
    for (const row of stored) expect(row.description).not.toMatch(/<[a-z/!]/i);
  });

  it('applies the 200 and 2000 character limits to the text left after sanitizing (422)', async () => {
    const u = await user();
    const tooLong = await call('v1', u.as('v1'), 'POST', '/complaints', {
      category: 'other',
      subject: 'x'.repeat(201),
      description: 'ok',
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'subject' }] });
    const longDescription = await call('api', u.as('api'), 'POST', '/complaints', {
      category: 'other',
      subject: 'ok',
      description: 'y'.repeat(2001),
    });
    expect(longDescription.statusCode).toBe(422);
    expect(longDescription.json().details).toEqual([expect.objectContaining({ field: 'description' })]);
    // Markup does not count: 200 visible characters wrapped in tags are accepted.
    const wrapped = await call('api', u.as('api'), 'POST', '/complaints', {
      category: 'other',
      subject: `<strong>${'s'.repeat(200)}</strong>`,
      description: `<div>${'d'.repeat(2000)}</div>`,
    });
    expect(wrapped.statusCode).toBe(201);
    expect(wrapped.json().data.subject).toHaveLength(200);
    // Absurdly large raw input is refused before sanitizing.
    const huge = await call('api', u.as('api'), 'POST', '/complaints', {
      category: 'other',
      subject: 'a'.repeat(5000),
      description: 'ok',
    });
    expect(huge.statusCode).toBe(422);
    expect(
      await env.db.system.selectFrom('complaints').select('id').where('user_id', '=', u.id).execute(),
    ).toHaveLength(1);
  });

  it('answers 400 bad_request for an invalid category, missing or empty fields (also when only markup remains)', async () => {
    const u = await user();
    for (const payload of [
      { category: 'billing', subject: 's', description: 'd' },
      { subject: 's', description: 'd' },
      { category: 'other', description: 'd' },
      { category: 'other', subject: '', description: 'd' },
      { category: 'other', subject: 's', description: '   ' },
      { category: 'other', subject: '<script>x</script>', description: 'd' },
      { category: 'other', subject: 's', description: 42 },
    ]) {
      const res = await call('api', u.as('api'), 'POST', '/complaints', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
    expect(await env.db.system.selectFrom('complaints').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('lists complaints created in the same instant in the order they were made, not by id', async () => {
    const u = await user();
    const at = new Date('2026-11-27T10:00:00.000Z');
    // Inserted first with the higher id: an id tie-break would put it first.
    for (const [id, subject] of [
      ['cmp_ffffffffffffffffffffffff', 'made first'],
      ['cmp_000000000000000000000000', 'made second'],
    ]) {
      await env.db.system
        .insertInto('complaints')
        .values({ id, user_id: u.id, category: 'other', subject, description: 'x', created_at: at })
        .execute();
    }
    const listed = (await call('api', u.as('api'), 'GET', '/complaints'))
      .json()
      .data.map((c: { subject: string }) => c.subject);
    expect(listed).toEqual(['made second', 'made first']);
  });

  it('lists the own complaints newest first with page, limit (default 10, max 100) and totalPages', async () => {
    const u = await user();
    const other = await user();
    await call('api', other.as('api'), 'POST', '/complaints', {
      category: 'other',
      subject: 'not mine',
      description: 'x',
    });
    for (let i = 1; i <= 12; i++) {
      await call('api', u.as('api'), 'POST', '/complaints', {
        category: 'service',
        subject: `complaint ${i}`,
        description: 'x',
      });
    }
    const first = (await call('v1', u.as('v1'), 'GET', '/complaints')).json();
    expect(first.pagination).toEqual({ page: 1, limit: 10, total: 12, totalPages: 2 });
    expect(first.data).toHaveLength(10);
    expect(first.data[0].subject).toBe('complaint 12');
    const second = (await call('api', u.as('api'), 'GET', '/complaints?page=2')).json();
    expect(second.data.map((c: { subject: string }) => c.subject)).toEqual(['complaint 2', 'complaint 1']);
    const five = (await call('api', u.as('api'), 'GET', '/complaints?limit=5&page=3')).json();
    expect(five.pagination).toEqual({ page: 3, limit: 5, total: 12, totalPages: 3 });
    expect(five.data).toHaveLength(2);
    expect((await call('api', u.as('api'), 'GET', '/complaints?limit=100')).json().data).toHaveLength(12);
    for (const q of ['limit=101', 'limit=0', 'page=0', 'page=-1', 'page=1.5', 'limit=abc']) {
      const res = await call('api', u.as('api'), 'GET', `/complaints?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
  });

  it("answers 404 for another user's complaint on both surfaces", async () => {
    const owner = await user();
    const stranger = await user();
    const id = (
      await call('api', owner.as('api'), 'POST', '/complaints', { category: 'privacy', subject: 's', description: 'd' })
    ).json().data.id;
    for (const surface of ['api', 'v1'] as const) {
      const res = await call(surface, stranger.as(surface), 'GET', `/complaints/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await call('api', owner.as('api'), 'GET', '/complaints/cmp_unknown')).statusCode).toBe(404);
  });

  it('requires an allowed Origin for a cookie POST (R4)', async () => {
    const u = await user();
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/complaints',
      cookies: (u.as('api') as ReturnType<typeof web>).cookies,
      headers: { origin: 'https://evil.example' },
      payload: { category: 'other', subject: 's', description: 'd' },
    });
    expect(res.statusCode).toBe(403);
  });
});
