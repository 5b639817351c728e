import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../src/app';
import { loadConfig } from '../../src/config';

/**
 * Starts the whole server in-process for one test file: PGlite in memory by default, or, when
 * DATABASE_URL is set, a fresh PostgreSQL database created for the file and dropped after.
 */
export interface Harness {
  built: BuiltApp;
  call<T = unknown>(method: string, url: string, opts?: { body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string }): Promise<{ status: number; body: Envelope<T> }>;
  setupAdmin(): Promise<string>;
  signIn(name: string, password: string): Promise<string>;
  close(): Promise<void>;
}
export interface Envelope<T> {
  success: boolean;
  payload: T;
  error: { code: number; message: string } | null;
  errors: Record<string, string> | null;
}

export const ADMIN = { name: 'admin', passwd: 'Admin#2026', email: 'admin@example.com' };

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const baseUrl = process.env.DATABASE_URL;
  let dbName: string | null = null;
  let databaseUrl: string | undefined;
  if (baseUrl) {
    dbName = `tandem_t_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(baseUrl);
    u.pathname = '/' + dbName;
    databaseUrl = u.toString();
  }
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl ?? '', PASSWORD_COST: '10', LOG_LEVEL: 'error', WEB_DIST: '/nonexistent', ...env });
  const built = await buildApp(config, { memoryDb: !databaseUrl, logger: false });

  const call: Harness['call'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers['x-auth-token'] = opts.token;
    let payload: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(opts.body);
    } else if (opts.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
    }
    const res = await built.app.inject({ method: method as 'GET', url, headers, payload });
    let body: unknown;
    try {
      body = res.json();
    } catch {
      body = { raw: res.body };
    }
    return { status: res.statusCode, body: body as Envelope<never> };
  };

  const signIn = async (name: string, password: string) => {
    const r = await call<{ token: string }>('POST', '/api/auth', { body: { email_or_name: name, password } });
    if (!r.body.success) throw new Error(`sign-in of ${name} failed: ${JSON.stringify(r.body)}`);
    return r.body.payload.token;
  };

  return {
    built,
    call,
    signIn,
    async setupAdmin() {
      const r = await call('POST', '/api/user/create', { body: ADMIN });
      if (!r.body.success) throw new Error(`setup failed: ${JSON.stringify(r.body)}`);
      return signIn(ADMIN.name, ADMIN.passwd);
    },
    async close() {
      await built.close();
      if (dbName && baseUrl) {
        const admin = new pg.Client({ connectionString: baseUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

/** Creates a carrier with a portal user (via the admin API) and returns its id and token. */
export async function makeCarrierUser(h: Harness, adminToken: string, name: string, opts: { client_type?: 'client' | 'vendor'; company_type?: 'termination' | 'origination' } = {}) {
  const r = await h.call<{ object_id: number }>('POST', '/api/carrier/basic/create', {
    token: adminToken,
    body: { name, company: `${name} Ltd`, email: `${name.toLowerCase()}@example.com`, login_name: `${name.toLowerCase()}_user`, passwd: 'Client#2026', ...opts },
  });
  if (!r.body.success) throw new Error(JSON.stringify(r.body));
  const token = await h.signIn(`${name.toLowerCase()}_user`, 'Client#2026');
  return { clientId: r.body.payload.object_id, token, login: `${name.toLowerCase()}_user` };
}
