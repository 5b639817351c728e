import {
  api,
  buildPath,
  ErrorCode,
  FETCH_TIMEOUT_MS,
  LOGOUT_DELAY_MS,
  type ApiEnvelope,
  type BodyOf,
  type Endpoint,
  type ParamsOf,
  type PayloadOf,
  type QueryOf,
} from '@tandem/contract';
import { getToken, KEYS, setToken, store } from '../lib/storage';
import { i18next } from '../i18n';

/** How a failure is shown: 'page' sends the user to /error/form (page loads); 'inline' only toasts (forms, actions). */
export type ErrorMode = 'page' | 'inline';
export interface CallOptions {
  errorMode?: ErrorMode;
  timeoutMs?: number;
  /** No toast at all: the caller shows the error itself (e.g. the sign-in form). */
  quiet?: boolean;
}
export interface CallInput<E> {
  params?: ParamsOf<E>;
  query?: QueryOf<E>;
  body?: BodyOf<E>;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
    readonly errors: Record<string, string> | null,
  ) {
    super(message);
  }
}

/** What the frame plugs in: where toasts go, how to navigate and how to end the session. */
export interface ApiHooks {
  toastError(message: string, fieldErrors?: Record<string, string>): void;
  navigate(path: string): void;
  signOut(message?: string): void;
  currentPath(): string;
  /** The role requires two-factor sign-in and it is not on (code 210): reload the session, whose guard then sends the user to set it up. */
  enrolTwoFactor(): void;
}
let hooks: ApiHooks = {
  toastError: (m) => console.error(m),
  navigate: (p) => (window.location.hash = '#' + p),
  signOut: () => undefined,
  currentPath: () => window.location.hash.slice(1),
  enrolTwoFactor: () => undefined,
};
/** When the frame was last told about code 210 (the calls of a page fail together: tell it once). */
let enrolToldAt = 0;
export const configureApi = (h: Partial<ApiHooks>) => {
  hooks = { ...hooks, ...h };
};

const API_BASE = '/api';
let tokenCheck: Promise<boolean> | null = null;

export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '')
      sp.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean));
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export function urlOf<E extends Endpoint>(e: E, input: CallInput<E> = {}): string {
  return (
    API_BASE +
    buildPath(e.path, (input.params ?? {}) as Record<string, string | number>) +
    queryString(input.query as Record<string, unknown> | undefined)
  );
}

/** Calls one contract endpoint and applies the error catalogue of spec 01 section 8. */
export async function call<E extends Endpoint>(
  e: E,
  input: CallInput<E> = {},
  opts: CallOptions = {},
): Promise<PayloadOf<E>> {
  const url = urlOf(e, input);
  const from = hooks.currentPath();
  const envelope = await send(e.method, url, input.body, opts);
  return handle(envelope.status, envelope.body, url, opts, from, () => call(e, input, opts)) as Promise<
    PayloadOf<E>
  >;
}

/** The headers every API request carries: the session token (when signed in) and the language. */
export function authHeaders(): Record<string, string> {
  const token = getToken();
  return { ...(token ? { 'X-Auth-Token': token } : {}), 'X-Lang': i18next.language };
}

/** Multipart upload (POST /config/import and later upload paths). */
export async function upload(
  url: string,
  form: FormData,
  opts: CallOptions = {},
): Promise<{ object_id: number }> {
  const from = hooks.currentPath();
  const res = await fetch(API_BASE + url, { method: 'POST', body: form, headers: authHeaders() });
  const body = (await res.json().catch(() => null)) as ApiEnvelope<{ object_id: number }> | null;
  return handle(res.status, body, url, { errorMode: 'inline', ...opts }, from, () =>
    upload(url, form, opts),
  ) as Promise<{ object_id: number }>;
}

async function send(
  method: string,
  url: string,
  body: unknown,
  opts: CallOptions,
): Promise<{ status: number; body: ApiEnvelope<unknown> | null }> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), opts.timeoutMs ?? FETCH_TIMEOUT_MS);
  try {
    const res = await fetch(url, {
      method,
      headers: {
        ...authHeaders(),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: ctrl.signal,
    });
    const parsed = (await res.json().catch(() => null)) as ApiEnvelope<unknown> | null;
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: null };
  } finally {
    clearTimeout(timer);
  }
}

const isSessionEnd = (m: string) => m.includes('token is disabled') || m.includes('Incorrect token provided');
export const isPermissionMessage = (m: string) => m.includes("don't have permissions");

async function handle(
  status: number,
  body: ApiEnvelope<unknown> | null,
  url: string,
  opts: CallOptions,
  /** The page the user was on when the call was made. */
  from: string,
  retry: () => Promise<unknown>,
): Promise<unknown> {
  if (!body || typeof body.success !== 'boolean') {
    const message = i18next.t('common.errorOnLoading', { url });
    if (!opts.quiet) hooks.toastError(message);
    throw new ApiError(message, status, status, null);
  }
  if (body.success) return body.payload;
  const code = body.error?.code ?? ErrorCode.internal;
  const message = body.error?.message ?? '';

  if (
    code === ErrorCode.tokenCheck ||
    (status === 401 &&
      code !== ErrorCode.logout &&
      code !== ErrorCode.signIn &&
      // Sign-in asking for the second factor (issue 18) is no session failure.
      code !== ErrorCode.twoFactor)
  ) {
    if (await checkToken()) return retry();
    if (!opts.quiet) hooks.toastError(message || i18next.t('frame.sessionEnded'));
    setTimeout(() => hooks.signOut(), LOGOUT_DELAY_MS);
    throw new ApiError(message, code, status, null);
  }
  if (code === ErrorCode.logout || isSessionEnd(message)) {
    hooks.signOut(i18next.t('frame.sessionEnded'));
    throw new ApiError(message, code, status, null);
  }
  if (isPermissionMessage(message)) return null;
  if (code === ErrorCode.twoFactorEnrolment) {
    // Not an error to show: the guard takes the user to the two-factor setup the role requires.
    if (Date.now() - enrolToldAt > 2000) {
      enrolToldAt = Date.now();
      hooks.enrolTwoFactor();
    }
    throw new ApiError(message, code, status, null);
  }

  const mode = opts.errorMode ?? 'page';
  // A page load that fails after the user has left that page is no longer theirs to see: it must
  // neither toast on, nor replace, the page they went to (a slow "No record found" used to take
  // over the next page).
  if (mode === 'page' && hooks.currentPath() !== from) throw new ApiError(message, code, status, body.errors);
  if (!opts.quiet) hooks.toastError(message, body.errors ?? undefined);
  if (
    mode === 'page' &&
    !hooks.currentPath().startsWith('/download/rate') &&
    hooks.currentPath() !== '/error/form'
  ) {
    store.set(KEYS.errorMessage, message);
    hooks.navigate('/error/form');
  }
  throw new ApiError(message, code, status, body.errors);
}

/** POST /auth/check-token once for all callers waiting on it; stores a renewed token. */
export function checkToken(): Promise<boolean> {
  tokenCheck ??= (async () => {
    const r = await send('POST', API_BASE + api.auth.checkToken.path, undefined, {});
    if (r.body?.success) {
      const p = r.body.payload as { token: string };
      setToken(p.token);
      return true;
    }
    return false;
  })().finally(() => {
    setTimeout(() => (tokenCheck = null), 1000);
  });
  return tokenCheck;
}
