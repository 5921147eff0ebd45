import type { Middleware } from 'openapi-fetch';

/**
 * The browser session of a web app: the access token lives in memory only (never in storage a script
 * could read later), the refresh token in the service's httpOnly cookie. A 401 on an API call refreshes
 * once (one refresh in flight however many calls failed) and replays the call; a failed refresh signs out.
 */
export interface SessionOptions {
  /** POST path that rotates the cookie and answers `{accessToken}` (accounting: /api/v1/auth/refresh). */
  refreshPath: string;
  /** Paths whose 401 means "wrong credentials", not "expired token" (login, 2FA): never refreshed. */
  noRefresh?: readonly string[];
  /** Called when the session cannot be renewed. */
  onSignedOut?: () => void;
  fetch?: typeof fetch;
  /** The Web Locks API (default: the browser's `navigator.locks`; none: refreshes are not shared). */
  locks?: Pick<LockManager, 'request'> | null;
}

export class Session {
  private token: string | null = null;
  private refreshing: Promise<string | null> | null = null;
  private readonly listeners = new Set<(token: string | null) => void>();
  constructor(private readonly opts: SessionOptions) {}

  get accessToken(): string | null {
    return this.token;
  }

  setAccessToken(token: string | null): void {
    this.token = token;
    for (const l of this.listeners) l(token);
  }

  subscribe(listener: (token: string | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Trades the refresh cookie for a new access token; null when there is no live session. Every tab
   * of the app shares one cookie, and the service rotates it on each refresh and ends the whole login
   * when a rotated-out cookie comes back (A17). Two tabs refreshing at once (a browser restoring its
   * tabs, two tabs whose tokens expire together) would send the same cookie twice and sign the user
   * out everywhere, so the refresh runs under a Web Lock held across the origin's tabs: the second
   * tab's request leaves only after the first tab's answer has set the new cookie.
   */
  refresh(): Promise<string | null> {
    if (this.refreshing) return this.refreshing;
    const locks = this.opts.locks === undefined ? globalThis.navigator?.locks : this.opts.locks;
    // refreshNow never throws: a rejected lock request is the lock API failing, so refresh without it.
    const run = () => this.refreshNow();
    const held: Promise<string | null> = locks
      ? // The lock's promise settles with the callback's result (the DOM typings nest the promise).
        (locks.request(`session-refresh ${this.opts.refreshPath}`, run) as unknown as Promise<string | null>).catch(run)
      : run();
    const pending = held.finally(() => {
      this.refreshing = null;
    });
    this.refreshing = pending;
    return pending;
  }

  private async refreshNow(): Promise<string | null> {
    try {
      // keepalive: a reload while the answer is on its way would otherwise drop it, and with it the
      // rotated cookie it sets; the next page would then send the rotated-out one and end the login (A17).
      const res = await (this.opts.fetch ?? fetch)(this.opts.refreshPath, {
        method: 'POST',
        credentials: 'same-origin',
        keepalive: true,
      });
      const token = res.ok ? ((await res.json()) as { accessToken: string }).accessToken : null;
      this.setAccessToken(token);
      if (!token) this.opts.onSignedOut?.();
      return token;
    } catch {
      this.setAccessToken(null);
      return null;
    }
  }

  /** openapi-fetch middleware: bearer header on every call, refresh and replay once on 401. */
  middleware(): Middleware {
    const fetchImpl = () => this.opts.fetch ?? fetch;
    const replayable = new WeakMap<Request, Request>();
    return {
      onRequest: ({ request }) => {
        if (this.token) request.headers.set('authorization', `Bearer ${this.token}`);
        // A body can be read once: keep a copy for the replay after a refresh.
        replayable.set(request, request.clone());
        return request;
      },
      onResponse: async ({ request, response }) => {
        if (response.status !== 401) return response;
        const path = new URL(request.url, 'http://x').pathname;
        if (path === this.opts.refreshPath || this.opts.noRefresh?.includes(path)) return response;
        const copy = replayable.get(request);
        const token = await this.refresh();
        if (!token || !copy) return response;
        copy.headers.set('authorization', `Bearer ${token}`);
        return fetchImpl()(copy);
      },
    };
  }
}
