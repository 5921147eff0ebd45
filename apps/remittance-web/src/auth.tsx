import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, api, setUnauthorizedHandler, unwrap } from './api/client.js';

export type Me = NonNullable<Awaited<ReturnType<typeof fetchMe>>>;

/** The signed-in user, or null when the cookie is absent or no longer valid. */
async function fetchMe() {
  try {
    return unwrap(await api.GET('/api/auth/me')).data;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

interface Auth {
  state: 'starting' | 'signedIn' | 'signedOut';
  me: Me | null;
  /** Goes to the eID provider (the mock provider signs in its default adult); it comes back to /dashboard. */
  signIn(): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<Auth | null>(null);

/**
 * Who is signed in, read once from `GET /api/auth/me` (the httpOnly cookie is invisible to scripts).
 * Plain state rather than TanStack Query: the query library belongs to the signed-in screens and is
 * not part of the sign-in page's JavaScript.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  useEffect(() => {
    setUnauthorizedHandler(() => setMe(null));
    fetchMe()
      .then(setMe)
      .catch(() => setMe(null));
  }, []);
  const signIn = useCallback(async () => {
    const { redirectUrl } = unwrap(await api.GET('/api/auth/eid'));
    location.assign(redirectUrl);
  }, []);
  const signOut = useCallback(async () => {
    await api.POST('/api/auth/logout').catch(() => undefined);
    setMe(null);
  }, []);
  const value = useMemo<Auth>(
    () => ({ state: me === undefined ? 'starting' : me ? 'signedIn' : 'signedOut', me: me ?? null, signIn, signOut }),
    [me, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
