/**
 * What the browser keeps (spec 01 section 3): token, userId, role_id, type, client, company_type,
 * rolePermissions, landing, landing_pages, timezone, has_user, setImgUrl, previous route, languages.
 * The token is kept for the tab (sessionStorage) and for the browser (localStorage); a token held
 * only in session storage is copied to local storage.
 */
export const KEYS = {
  token: 'token',
  userId: 'userId',
  roleId: 'role_id',
  type: 'type',
  client: 'client',
  companyType: 'company_type',
  rolePermissions: 'rolePermissions',
  landing: 'landing',
  landingPages: 'landing_pages',
  timezone: 'timezone',
  hasUser: 'has_user',
  imgUrl: 'setImgUrl',
  previous: 'previous',
  language: 'languages',
  errorMessage: 'error_form_message',
  fromLogin: 'from_login',
} as const;

export const store = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null): void {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* storage full or blocked: the session still works for this page */
    }
  },
  json<T>(key: string): T | null {
    const v = store.get(key);
    if (!v) return null;
    try {
      return JSON.parse(v) as T;
    } catch {
      return null;
    }
  },
  setJson(key: string, value: unknown): void {
    store.set(key, value === null || value === undefined ? null : JSON.stringify(value));
  },
};

export function getToken(): string | null {
  const tab = sessionStorage.getItem(KEYS.token);
  const browser = store.get(KEYS.token);
  if (tab && !browser) store.set(KEYS.token, tab);
  return tab ?? browser;
}

export function setToken(token: string | null): void {
  if (token === null) {
    sessionStorage.removeItem(KEYS.token);
    store.set(KEYS.token, null);
  } else {
    sessionStorage.setItem(KEYS.token, token);
    store.set(KEYS.token, token);
  }
}

/** Clears every session key but the language and has_user. */
export function clearSession(): void {
  setToken(null);
  for (const k of [
    KEYS.userId,
    KEYS.roleId,
    KEYS.type,
    KEYS.client,
    KEYS.companyType,
    KEYS.rolePermissions,
    KEYS.landing,
    KEYS.landingPages,
    KEYS.previous,
    KEYS.fromLogin,
  ]) {
    store.set(k, null);
  }
}
