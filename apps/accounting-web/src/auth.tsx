import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, session, unwrap } from './api/client.js';
import type { paths } from './api/schema.generated.js';
import { useI18n } from './i18n/index.js';

export type Me = paths['/api/v1/auth/me']['get']['responses'][200]['content']['application/json'];
export type Role = Me['role'];

interface Auth {
  /** 'starting': the refresh cookie is being tried (a reload keeps the user signed in). */
  state: 'starting' | 'signedOut' | 'signedIn';
  me: Me | null;
  signedIn(accessToken: string): void;
  signOut(): Promise<void>;
  /** Owners, admins and accountants write; viewers read. */
  canWrite: boolean;
  isAdmin: boolean;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { followOrganization } = useI18n();
  const [token, setToken] = useState<string | null>(session.accessToken);
  const [starting, setStarting] = useState(true);

  useEffect(() => session.subscribe(setToken), []);
  useEffect(() => {
    session.refresh().finally(() => setStarting(false));
  }, []);

  const meQuery = useQuery({
    queryKey: ['me', token !== null],
    enabled: token !== null,
    queryFn: async () => unwrap(await api.GET('/api/v1/auth/me')),
    staleTime: 60_000,
  });
  const me = token ? (meQuery.data ?? null) : null;
  useEffect(() => followOrganization(me?.organization.language), [me, followOrganization]);

  const signedIn = useCallback((accessToken: string) => session.setAccessToken(accessToken), []);
  const signOut = useCallback(async () => {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    session.setAccessToken(null);
    queryClient.clear();
  }, [queryClient]);

  const value = useMemo<Auth>(() => {
    const state = starting || (token && meQuery.isPending) ? 'starting' : me ? 'signedIn' : 'signedOut';
    return {
      state,
      me,
      signedIn,
      signOut,
      canWrite: me !== null && me.role !== 'viewer',
      isAdmin: me !== null && (me.role === 'owner' || me.role === 'admin'),
    };
  }, [starting, token, meQuery.isPending, me, signedIn, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
