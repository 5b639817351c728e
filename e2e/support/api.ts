import { E2E_SETUP_CODE } from './setup-code';
import { randomBytes } from 'node:crypto';
import {
  api,
  buildPath,
  type ApiEnvelope,
  type BodyOf,
  type Endpoint,
  type ParamsOf,
  type PayloadOf,
  type QueryOf,
} from '@tandem/contract';

/**
 * Prepares data for specs through the HTTP API of the server global-setup.ts started, with the
 * contract's endpoint declarations (typed params, query, body and payload). All specs share one
 * server, so names should be unique: use `unique('carrier')`.
 */

export function baseUrl(): string {
  const url = process.env.TANDEM_E2E_BASE_URL;
  if (!url) throw new Error('TANDEM_E2E_BASE_URL is not set: run the specs through e2e/playwright.config.ts');
  return url;
}

/** A short unique name (letters, digits and underscore: valid as user, carrier and role name). */
export const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

export class ApiCallError extends Error {
  constructor(
    readonly endpoint: Endpoint,
    readonly status: number,
    readonly envelope: ApiEnvelope<unknown>,
  ) {
    super(
      `${endpoint.method} ${endpoint.path} failed (${status}): ${JSON.stringify(envelope.error)} ${JSON.stringify(envelope.errors)}`,
    );
  }
}

export interface CallOptions<E extends Endpoint> {
  token?: string | null;
  params?: ParamsOf<E>;
  query?: QueryOf<E>;
  body?: BodyOf<E>;
  lang?: 'en' | 'ch' | 'de';
}

/** Calls an endpoint and returns status and envelope, whatever the outcome. */
export async function request<E extends Endpoint>(
  e: E,
  opts: CallOptions<E> = {},
): Promise<{ status: number; envelope: ApiEnvelope<PayloadOf<E>> }> {
  const url = new URL(
    '/api' + buildPath(e.path, (opts.params ?? {}) as Record<string, string | number>),
    baseUrl(),
  );
  const query = (opts.query ?? {}) as Record<string, string | number | boolean | null | undefined>;
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  }
  const headers: Record<string, string> = {};
  if (opts.token) headers['x-auth-token'] = opts.token;
  if (opts.lang) headers['x-lang'] = opts.lang;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: e.method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const envelope = (await res.json()) as ApiEnvelope<PayloadOf<E>>;
  return { status: res.status, envelope };
}

/** Calls an endpoint and returns its payload; throws ApiCallError when it did not succeed. */
export async function call<E extends Endpoint>(e: E, opts: CallOptions<E> = {}): Promise<PayloadOf<E>> {
  const { status, envelope } = await request(e, opts);
  if (!envelope.success) throw new ApiCallError(e, status, envelope as ApiEnvelope<unknown>);
  return envelope.payload as PayloadOf<E>;
}

export async function signIn(name: string, password: string): Promise<string> {
  return (await call(api.auth.signIn, { body: { email_or_name: name, password } })).token;
}

/** The first admin of every run (setup through the public /user/create while no user exists). */
export const FIRST_ADMIN = { name: 'admin', passwd: 'Admin#2026', email: 'admin@example.com' } as const;

/**
 * Makes sure the first admin exists and returns a token for it. Safe to call from every spec: after
 * the first call it only signs in. A spec that tests the /setup page itself must run before any other.
 */
export async function setupFirstAdmin(): Promise<string> {
  const { has_user } = await call(api.user.hasUser);
  if (!has_user) await call(api.user.createUser, { body: { ...FIRST_ADMIN, setup_code: E2E_SETUP_CODE } });
  return signIn(FIRST_ADMIN.name, FIRST_ADMIN.passwd);
}

export interface PortalLogin {
  name: string;
  password: string;
  email: string;
}

/** A carrier (client or vendor) with its portal user, created by an admin (approved and active). */
export async function createCarrierUser(
  adminToken: string,
  opts: {
    name?: string;
    client_type?: 'client' | 'vendor';
    company_type?: 'termination' | 'origination';
    agent_id?: number;
    password?: string;
  } = {},
): Promise<PortalLogin & { clientId: number; carrierName: string }> {
  const carrierName = opts.name ?? unique('carrier');
  const login = {
    name: `${carrierName.toLowerCase()}_user`,
    password: opts.password ?? 'Portal#2026',
    email: `${carrierName.toLowerCase()}@example.com`,
  };
  const r = await call(api.signup.createCarrierBasic, {
    token: adminToken,
    body: {
      name: carrierName,
      company: `${carrierName} Ltd`,
      client_type: opts.client_type ?? 'client',
      company_type: opts.company_type ?? 'termination',
      email: login.email,
      login_name: login.name,
      passwd: login.password,
      ...(opts.agent_id ? { agent_id: opts.agent_id } : {}),
    },
  });
  return { ...login, clientId: r.object_id, carrierName };
}

/** An agent with its portal user; returns the referral key for sign-up links. */
export async function createAgent(
  adminToken: string,
  opts: { name?: string; password?: string; commission_percent?: string } = {},
): Promise<PortalLogin & { agentId: number; agentName: string; referralKey: string }> {
  const agentName = opts.name ?? unique('agent');
  const login = {
    name: `${agentName.toLowerCase()}_user`,
    password: opts.password ?? 'Agent#2026',
    email: `${agentName.toLowerCase()}@example.com`,
  };
  const { object_id } = await call(api.signup.createAgent, {
    token: adminToken,
    body: {
      agent_name: agentName,
      email: login.email,
      name: login.name,
      passwd: login.password,
      commission_percent: opts.commission_percent ?? '5',
    },
  });
  const detail = await call(api.signup.getAgent, { token: adminToken, params: { id: object_id } });
  if (!('referral_key' in detail)) throw new Error('the admin did not get the full agent');
  return { ...login, agentId: object_id, agentName, referralKey: detail.referral_key };
}

/** A role from a list of menu paths (func names) with the given levels; groups readable. */
export async function createRole(
  adminToken: string,
  opts: {
    name?: string;
    privileges: { func_name: string; readable?: boolean; writable?: boolean; executable?: boolean }[];
    groups?: { id: number; readable: boolean }[];
  },
): Promise<{ roleId: number; roleName: string }> {
  const roleName = opts.name ?? unique('role');
  const { object_id } = await call(api.role.createRole, {
    token: adminToken,
    body: {
      role_name: roleName,
      group_privilegies: opts.groups ?? [],
      role_privilegies: opts.privileges.map((p) => ({
        func_name: p.func_name,
        readable: p.readable ?? true,
        writable: p.writable ?? false,
        executable: p.executable ?? false,
      })),
    },
  });
  return { roleId: object_id, roleName };
}

/** An admin user, restricted by `roleId` when given (0 or none: unrestricted). */
export async function createAdminUser(
  adminToken: string,
  opts: { name?: string; password?: string; roleId?: number; landing_page?: string | null } = {},
): Promise<PortalLogin & { userId: number }> {
  const name = opts.name ?? unique('staff');
  const login = { name, password: opts.password ?? 'Staff#2026', email: `${name.toLowerCase()}@example.com` };
  const { object_id } = await call(api.user.createUser, {
    token: adminToken,
    body: {
      name,
      passwd: login.password,
      email: login.email,
      user_type: 'admin',
      role_id: opts.roleId ?? 0,
      landing_page: opts.landing_page ?? null,
    },
  });
  return { ...login, userId: object_id };
}
