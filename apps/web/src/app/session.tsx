import { api, type RoleDetail, type SessionUser, type Submenu, type SystemConfig } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { call } from '../api/client';
import { setLanguage } from '../i18n';
import { clearSession, getToken, KEYS, setToken, store } from '../lib/storage';

export interface Session {
  user: SessionUser;
  role: RoleDetail | null;
  system: SystemConfig;
  /** Admin menu items from the server, with the caller's read/write flags. */
  submenus: Submenu[];
  /** web_url of readable pages for a restricted role (null when unrestricted). */
  landingPages: string[] | null;
}

interface SessionState {
  status: 'loading' | 'anonymous' | 'signedIn';
  session: Session | null;
  hasUser: boolean | null;
  /** Stores a token from sign-in and loads the session. */
  signIn: (token: string) => Promise<Session>;
  signOut: (message?: string) => Promise<void>;
  reload: () => Promise<void>;
  setHasUser: (v: boolean) => void;
  /** Message shown on the login page after a sign-out (inactivity, session end). */
  notice: string | null;
  clearNotice: () => void;
}

const Ctx = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
/** The signed-in session (pages under the guard only). */
export function useSignedIn(): Session {
  const s = useSession().session;
  if (!s) throw new Error('useSignedIn without a session');
  return s;
}

async function loadSession(): Promise<Session> {
  const user = await call(api.user.getSessionUser, {}, { errorMode: 'inline', quiet: true });
  const [role, system, submenus] = await Promise.all([
    user.role_id
      ? call(api.role.getRole, { params: { id: user.role_id } }, { errorMode: 'inline', quiet: true })
      : Promise.resolve(null),
    call(api.config.getSystemConfig, {}, { errorMode: 'inline', quiet: true }),
    user.user_type === 'admin'
      ? call(
          api.config.listSubmenus,
          { query: { page: 0, per_page: 9999, order_by: 'display_name', order_dir: 'asc' } },
          { errorMode: 'inline', quiet: true },
        ).then((p) => p.items)
      : Promise.resolve([] as Submenu[]),
  ]);
  const landingPages =
    user.user_type === 'admin' && user.role_id
      ? submenus.filter((m) => m.is_readable).map((m) => m.web_url)
      : null;
  store.set(KEYS.userId, String(user.user_id));
  store.set(KEYS.roleId, String(user.role_id));
  store.set(KEYS.type, user.user_type);
  store.setJson(KEYS.client, user.client);
  store.set(KEYS.companyType, user.company_type);
  store.setJson(KEYS.rolePermissions, role?.role_privilegies ?? null);
  store.set(KEYS.landing, user.landing_page);
  store.setJson(KEYS.landingPages, landingPages);
  store.setJson(KEYS.timezone, { offset: system.timezone, text: `GMT ${system.timezone}` });
  if (user.language === 'en' || user.language === 'ch' || user.language === 'de') {
    if (!store.get(KEYS.language)) void setLanguage(user.language);
  }
  return { user, role, system, submenus, landingPages };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [status, setStatus] = useState<SessionState['status']>(getToken() ? 'loading' : 'anonymous');
  const [session, setSession] = useState<Session | null>(null);
  const [hasUser, setHasUser] = useState<boolean | null>(store.get(KEYS.hasUser) === 'true' ? true : null);
  const [notice, setNotice] = useState<string | null>(null);
  /** The session shown now, for reload's error path (reload itself never changes identity). */
  const current = useRef<Session | null>(null);
  current.current = session;

  const reload = useCallback(async () => {
    if (!getToken()) {
      setStatus('anonymous');
      return;
    }
    try {
      setSession(await loadSession());
      setStatus('signedIn');
    } catch {
      // A refused token signs the user out in the API client (its 401 handling). Any other failure
      // of a reload (network, server error, a request cut off by leaving the page) keeps a session
      // already shown; only a first load that fails falls back to signing in again.
      if (current.current !== null && getToken()) return;
      clearSession();
      setSession(null);
      setStatus('anonymous');
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const signIn = useCallback(async (token: string) => {
    setToken(token);
    const s = await loadSession();
    store.set(KEYS.fromLogin, '1');
    setSession(s);
    setStatus('signedIn');
    setNotice(null);
    return s;
  }, []);

  const signOut = useCallback(
    async (message?: string) => {
      if (getToken())
        await call(api.auth.signOut, {}, { errorMode: 'inline', quiet: true }).catch(() => undefined);
      clearSession();
      qc.clear();
      setSession(null);
      setStatus('anonymous');
      setNotice(message ?? null);
      window.location.hash = '#/auth/login';
    },
    [qc],
  );

  const value = useMemo<SessionState>(
    () => ({
      status,
      session,
      hasUser,
      signIn,
      signOut,
      reload,
      notice,
      clearNotice: () => setNotice(null),
      setHasUser: (v: boolean) => {
        store.set(KEYS.hasUser, String(v));
        setHasUser(v);
      },
    }),
    [status, session, hasUser, signIn, signOut, reload, notice],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}
