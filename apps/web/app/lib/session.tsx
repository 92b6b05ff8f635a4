import { STORAGE_KEYS, type OwnUser, type SessionAnswer } from '@chapterwise/shared';
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiClientError, apiRequest, readStoredToken } from './api';

/** Seconds since the epoch at which a JWT expires, or null when it cannot be read. */
export function readTokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

/** The spec's session rule: a stored token whose expiry claim is in the future. */
export function hasValidStoredToken(now = Date.now()): boolean {
  const token = readStoredToken();
  if (!token) return false;
  const exp = readTokenExpiry(token);
  return exp !== null && exp * 1000 > now;
}

export function storeToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(STORAGE_KEYS.auth, token);
    else window.localStorage.removeItem(STORAGE_KEYS.auth);
  } catch {
    // Private browsing may refuse storage; the session then lasts for this page only.
  }
}

export type SessionStatus = 'resolving' | 'authenticated' | 'guest';

interface SessionValue {
  status: SessionStatus;
  user: OwnUser | null;
  /** Keeps a new session: stores the token and sets the user. */
  signIn(answer: SessionAnswer): void;
  /** Ends the session on the server (POST /users/logout), then forgets it here. */
  signOut(): Promise<void>;
  /** Fetches the user again (after a profile change or a purchase). */
  refresh(): Promise<void>;
  /** Replaces the user in memory with a newer copy from an API answer. */
  setUser(user: OwnUser): void;
}

const SessionContext = createContext<SessionValue | null>(null);

/**
 * Resolves the current user once on load, as spec §4 describes: a valid stored token means a
 * session; the user is then read from `/users/me`, and cleared when that fails.
 */
export function SessionProvider({ children }: { children: React.ReactNode }) {
  const [status, setStatus] = useState<SessionStatus>('resolving');
  const [user, setUserState] = useState<OwnUser | null>(null);

  const clear = useCallback(() => {
    storeToken(null);
    setUserState(null);
    setStatus('guest');
  }, []);

  const refresh = useCallback(async () => {
    const token = readStoredToken();
    if (!token) {
      clear();
      return;
    }
    try {
      const answer = await apiRequest<SessionAnswer>('/users/me');
      // Logged out (or in as someone else) while the answer was on its way: it is stale.
      if (readStoredToken() !== token) return;
      if (answer.token) storeToken(answer.token);
      setUserState(answer.user);
      setStatus('authenticated');
    } catch (error) {
      // The server said the session is over: forget the token. Any other failure (offline,
      // the page being left mid-request, a 5xx) clears the user but keeps the token, so
      // that the next page load can try again instead of logging the teacher out.
      if (error instanceof ApiClientError && error.status === 401) {
        clear();
      } else {
        setUserState(null);
        setStatus('guest');
      }
    }
  }, [clear]);

  useEffect(() => {
    if (hasValidStoredToken()) setStatus('authenticated');
    void refresh();
    // Another tab logging in or out changes this tab too.
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.auth) void refresh();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [refresh]);

  const value = useMemo<SessionValue>(
    () => ({
      status,
      user,
      signIn(answer) {
        storeToken(answer.token);
        setUserState(answer.user);
        setStatus('authenticated');
      },
      async signOut() {
        if (readStoredToken()) {
          // Best effort: even when the server cannot be reached, this device forgets the token.
          await apiRequest('/users/logout', { method: 'POST' }).catch(() => undefined);
        }
        clear();
      },
      refresh,
      setUser: setUserState,
    }),
    [status, user, clear, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider');
  return value;
}
