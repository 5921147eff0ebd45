import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNotificationId } from '../src/modules/notifications/notifications.repository.js';
import { bearer, buildTestApp, nextPid, signInMobile, signInWeb, web } from './helpers.js';

let env: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  env = await buildTestApp();
});
afterAll(async () => env?.close());

async function seed(userId: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = newNotificationId();
    ids.push(id);
    await env.db.system
      .insertInto('notifications')
      .values({
        id,
        user_id: userId,
        type: 'system',
        title: `T${i}`,
        body: `B${i}`,
        created_at: new Date(Date.UTC(2026, 10, 1, 12, i)),
      })
      .execute();
  }
  return ids;
}

describe('notifications (R13)', () => {
  it("lists the caller's notifications newest first and marks only the caller's own as read", async () => {
    const pid = nextPid();
    await signInWeb(env.app, { pid });
    const auth = web((await signInWeb(env.app, { pid })).cookie); // the second sign-in creates a security notification
    const userId = (await env.app.inject({ method: 'GET', url: '/api/auth/me', ...auth })).json().data.id;
    const mine = await seed(userId, 3);
    const other = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const otherId = (await env.app.inject({ method: 'GET', url: '/v1/auth/me', ...other })).json().data.id;
    const theirs = await seed(otherId, 1);

    const list = await env.app.inject({ method: 'GET', url: '/api/notifications', ...auth });
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data.map((n: { type: string }) => n.type)).toEqual(['security', 'system', 'system', 'system']);
    expect(data.slice(1).map((n: { title: string }) => n.title)).toEqual(['T2', 'T1', 'T0']);
    expect(data[0]).toEqual({
      id: expect.stringMatching(/^noti_[0-9a-f]{16}$/),
      type: 'security',
      title: expect.any(String),
      body: expect.any(String),
      read: false,
      createdAt: expect.any(String),
    });

    const patch = await env.app.inject({
      method: 'PATCH',
      url: '/api/notifications',
      ...auth,
      payload: { notificationIds: [mine[0], mine[1], theirs[0]] },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toEqual({ data: { updated: 2 } });
    const after = (await env.app.inject({ method: 'GET', url: '/api/notifications', ...auth })).json().data;
    expect(
      after
        .filter((n: { read: boolean }) => n.read)
        .map((n: { id: string }) => n.id)
        .sort(),
    ).toEqual([mine[0], mine[1]].sort());
    const theirsNow = await env.db.system
      .selectFrom('notifications')
      .select('read')
      .where('id', '=', theirs[0])
      .executeTakeFirstOrThrow();
    expect(theirsNow.read).toBe(0);
  });

  it('refuses more than 100 ids and ids outside the pattern', async () => {
    const auth = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    const many = Array.from({ length: 101 }, () => newNotificationId());
    const tooMany = await env.app.inject({
      method: 'PATCH',
      url: '/v1/notifications',
      ...auth,
      payload: { notificationIds: many },
    });
    expect(tooMany.statusCode).toBe(422);
    const bad = await env.app.inject({
      method: 'PATCH',
      url: '/v1/notifications',
      ...auth,
      payload: { notificationIds: ['noti_XYZ'] },
    });
    expect(bad.statusCode).toBe(422);
    const missing = await env.app.inject({ method: 'PATCH', url: '/v1/notifications', ...auth, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(
      (
        await env.app.inject({
          method: 'PATCH',
          url: '/v1/notifications',
          ...auth,
          payload: { notificationIds: many.slice(0, 100) },
        })
      ).json().data.updated,
    ).toBe(0);
  });

  it('FEATURES_NOTIFICATIONS=false turns the routes into 404', async () => {
    const off = await buildTestApp({ FEATURES_NOTIFICATIONS: 'false' });
    try {
      const { cookie } = await signInWeb(off.app, { pid: nextPid() });
      for (const method of ['GET', 'PATCH'] as const) {
        const res = await off.app.inject({
          method,
          url: '/api/notifications',
          ...web(cookie),
          payload: method === 'PATCH' ? { notificationIds: [] } : undefined,
        });
        expect(res.statusCode, method).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
    } finally {
      await off.close();
    }
  });
});

describe('settings', () => {
  it('creates the defaults on first read and patches only the given fields, on both surfaces', async () => {
    for (const [prefix, auth] of [
      ['/api', web((await signInWeb(env.app, { pid: nextPid() })).cookie)],
      ['/v1', bearer((await signInMobile(env.app, { pid: nextPid() })).token)],
    ] as const) {
      const first = await env.app.inject({ method: 'GET', url: `${prefix}/settings`, ...auth });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        data: { currency: 'NOK', language: 'nb', pushEnabled: true, emailEnabled: true },
      });
      const patched = await env.app.inject({
        method: 'PATCH',
        url: `${prefix}/settings`,
        ...auth,
        payload: { currency: 'EUR', pushEnabled: false },
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json().data).toEqual({ currency: 'EUR', language: 'nb', pushEnabled: false, emailEnabled: true });
      const lang = await env.app.inject({
        method: 'PATCH',
        url: `${prefix}/settings`,
        ...auth,
        payload: { language: 'sq' },
      });
      expect(lang.json().data).toEqual({ currency: 'EUR', language: 'sq', pushEnabled: false, emailEnabled: true });
      expect((await env.app.inject({ method: 'GET', url: `${prefix}/settings`, ...auth })).json().data.language).toBe(
        'sq',
      );
    }
  });

  it('refuses values outside the whitelists with 400 bad_request', async () => {
    const auth = bearer((await signInMobile(env.app, { pid: nextPid() })).token);
    for (const payload of [{ currency: 'SEK' }, { language: 'de' }, { pushEnabled: 'yes' }]) {
      const res = await env.app.inject({ method: 'PATCH', url: '/v1/settings', ...auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('bad_request');
    }
  });
});
