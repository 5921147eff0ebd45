import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { Session } from './session.js';

type Paths = {
  '/api/data': { get: { responses: { 200: { content: { 'application/json': { ok: boolean } } } } } };
};

/** A fake service: /api/data wants the token "fresh"; /refresh hands it out while the cookie lives. */
function fakeService(cookieAlive: boolean) {
  const calls: string[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(req.url).pathname;
    calls.push(`${req.method} ${path} ${req.headers.get('authorization') ?? '-'}`);
    if (path === '/refresh') {
      return cookieAlive ? Response.json({ accessToken: 'fresh' }) : new Response('{}', { status: 401 });
    }
    return req.headers.get('authorization') === 'Bearer fresh'
      ? Response.json({ ok: true })
      : new Response('{}', { status: 401 });
  };
  return { calls, fetchImpl: fetchImpl as typeof fetch };
}

describe('Session', () => {
  it('refreshes once on a 401 and replays the call with the new token', async () => {
    const { calls, fetchImpl } = fakeService(true);
    const session = new Session({ refreshPath: 'http://svc/refresh', fetch: fetchImpl });
    session.setAccessToken('stale');
    const client = createClient<Paths>({ baseUrl: 'http://svc', fetch: fetchImpl });
    client.use(session.middleware());
    const { data } = await client.GET('/api/data');
    expect(data).toEqual({ ok: true });
    expect(session.accessToken).toBe('fresh');
    expect(calls).toEqual(['GET /api/data Bearer stale', 'POST /refresh -', 'GET /api/data Bearer fresh']);
  });

  it('signs out when the refresh cookie is gone', async () => {
    const { fetchImpl } = fakeService(false);
    let signedOut = false;
    const session = new Session({
      refreshPath: 'http://svc/refresh',
      fetch: fetchImpl,
      onSignedOut: () => {
        signedOut = true;
      },
    });
    session.setAccessToken('stale');
    const client = createClient<Paths>({ baseUrl: 'http://svc', fetch: fetchImpl });
    client.use(session.middleware());
    const { response } = await client.GET('/api/data');
    expect(response.status).toBe(401);
    expect(session.accessToken).toBeNull();
    expect(signedOut).toBe(true);
  });

  it('refreshes one tab at a time: two tabs never send the same cookie, so neither is signed out', async () => {
    // The service as A17 has it: each refresh rotates the one cookie the tabs share; a rotated-out
    // cookie ends the login. Each refresh waits on the network for a moment, so two would overlap.
    const jar = { cookie: 'c0', revoked: false, n: 0 };
    const fetchImpl = (async () => {
      const sent = jar.cookie;
      await new Promise((r) => setTimeout(r, 20));
      if (jar.revoked || sent !== jar.cookie) {
        jar.revoked = true;
        return new Response('{}', { status: 401 });
      }
      jar.n += 1;
      jar.cookie = `c${jar.n}`;
      return Response.json({ accessToken: `t${jar.n}` });
    }) as typeof fetch;
    /** The Web Locks API's one guarantee used here: one holder of a name at a time, in request order. */
    const held = new Map<string, Promise<unknown>>();
    const locks = {
      request: (name: string, cb: () => Promise<unknown>) => {
        const run = (held.get(name) ?? Promise.resolve()).then(cb);
        held.set(
          name,
          run.catch(() => undefined),
        );
        return run;
      },
    } as unknown as Pick<LockManager, 'request'>;
    const tab = (withLocks: boolean) =>
      new Session({ refreshPath: 'http://svc/refresh', fetch: fetchImpl, locks: withLocks ? locks : null });

    const [a, b] = [tab(true), tab(true)];
    expect(await Promise.all([a.refresh(), b.refresh()])).toEqual(['t1', 't2']);
    expect(jar.revoked).toBe(false);

    // Without the lock the second tab sends the cookie the first one is rotating: the login ends.
    const [c, d] = [tab(false), tab(false)];
    expect(await Promise.all([c.refresh(), d.refresh()])).toContain(null);
    expect(jar.revoked).toBe(true);
  });
});
