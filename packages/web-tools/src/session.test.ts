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
});
