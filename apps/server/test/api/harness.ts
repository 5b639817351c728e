import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { ErrorCode } from '@tandem/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { hashToken } from '../../src/modules/auth/tokens';
import { storedSetupCode } from '../../src/modules/users/setup-code';
import { migratedCluster } from './pglite-cluster';

/**
 * Starts the whole server in-process for one test file: PGlite in memory by default, or, when
 * DATABASE_URL is set, a fresh PostgreSQL database created for the file and dropped after.
 */
export interface Harness {
  built: BuiltApp;
  call<T = unknown>(
    method: string,
    url: string,
    opts?: {
      body?: unknown;
      token?: string | null;
      headers?: Record<string, string>;
      raw?: string;
      /** The endpoint may answer a stream that stays open (server-sent events): read only its head. */
      stream?: boolean;
    },
  ): Promise<{ status: number; body: Envelope<T> }>;
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

/**
 * Options for tests that restart the server on the same data (fault tests): `dataDir` keeps PGlite
 * in that folder instead of memory; `databaseUrl` uses that PostgreSQL database as it is (made by
 * the caller, see freshPostgresDatabase); `keep` leaves the PostgreSQL database in place on close.
 */
export interface HarnessOptions {
  dataDir?: string;
  databaseUrl?: string;
  keep?: boolean;
  /** Where the server's log lines go (default: no logger). */
  logStream?: { write(line: string): void };
  /**
   * Let the daily DB cleansing run at start (default: held off). It drops CDR days older than the
   * retention (180 days), and the fixtures of many tests are fixed days: held off, they do not break
   * as the calendar moves on. The cleansing's own tests turn it on.
   */
  cleansing?: boolean;
}

/** A fresh PostgreSQL database on DATABASE_URL's server: its URL and how to drop it. */
export async function freshPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `tandem_t_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = '/' + name;
  return {
    url: u.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startHarness(
  env: Record<string, string> = {},
  opts: HarnessOptions = {},
): Promise<Harness> {
  const baseUrl = opts.dataDir ? undefined : process.env.DATABASE_URL;
  let dbName: string | null = null;
  let databaseUrl: string | undefined = opts.databaseUrl;
  if (baseUrl && !databaseUrl) {
    dbName = `tandem_t_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(baseUrl);
    u.pathname = '/' + dbName;
    databaseUrl = u.toString();
  }
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl ?? '',
    ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}),
    PASSWORD_COST: '10',
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'error',
    WEB_DIST: '/nonexistent',
    ...env,
  });
  const memoryDb = !databaseUrl && !opts.dataDir;
  const built = await buildApp(config, {
    memoryDb,
    logger: opts.logStream ? undefined : false,
    logStream: opts.logStream,
    pgliteDataDir: memoryDb ? await migratedCluster() : undefined,
  });
  // Before the first request starts the job runner (inject readies the app).
  if (!opts.cleansing) await holdRecurringJob({ built }, 'db.cleansing');

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
    if (opts.stream) {
      const res = await built.app.inject({
        method: method as 'GET',
        url,
        headers,
        payload,
        payloadAsStream: true,
      });
      const stream = res.stream();
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        stream.destroy();
        return { status: res.statusCode, body: { raw: '' } as unknown as Envelope<never> };
      }
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = { raw: text };
      }
      return { status: res.statusCode, body: body as Envelope<never> };
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
      const setup_code = (await storedSetupCode(built.services.db)) ?? '';
      const r = await call('POST', '/api/user/create', { body: { ...ADMIN, setup_code } });
      if (!r.body.success) throw new Error(`setup failed: ${JSON.stringify(r.body)}`);
      return signIn(ADMIN.name, ADMIN.passwd);
    },
    async close() {
      await built.close();
      if (dbName && baseUrl && !opts.keep) {
        const admin = new pg.Client({ connectionString: baseUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

/** Creates a carrier with a portal user (via the admin API) and returns its id and token. */
export async function makeCarrierUser(
  h: Harness,
  adminToken: string,
  name: string,
  opts: { client_type?: 'client' | 'vendor'; company_type?: 'termination' | 'origination' } = {},
) {
  const r = await h.call<{ object_id: number }>('POST', '/api/carrier/basic/create', {
    token: adminToken,
    body: {
      name,
      company: `${name} Ltd`,
      email: `${name.toLowerCase()}@example.com`,
      login_name: `${name.toLowerCase()}_user`,
      passwd: 'Client#2026',
      ...opts,
    },
  });
  if (!r.body.success) throw new Error(JSON.stringify(r.body));
  const token = await h.signIn(`${name.toLowerCase()}_user`, 'Client#2026');
  return { clientId: r.body.payload.object_id, token, login: `${name.toLowerCase()}_user` };
}

// ---------------------------------------------------------------------------------------------
// Helpers shared by the API suites: envelope assertions, users of each kind, session states,
// uploads, captured mail.
// ---------------------------------------------------------------------------------------------

export type Res<T = unknown> = { status: number; body: Envelope<T> };

/** Asserts a successful envelope and returns its payload. */
export function ok<T>(r: Res<T>): T {
  if (!r.body.success) throw new Error(`expected success, got ${r.status} ${JSON.stringify(r.body)}`);
  expect(r.body.error).toBeNull();
  return r.body.payload;
}

/** Asserts a failed envelope with `code` (and a message matching `message` when given). */
export function fails(r: Res<unknown>, code: number, message?: string | RegExp): Envelope<unknown> {
  expect(r.body.success, JSON.stringify(r.body)).toBe(false);
  expect(r.body.payload).toBeNull();
  expect(r.body.error?.code, JSON.stringify(r.body)).toBe(code);
  if (typeof message === 'string') expect(r.body.error?.message).toBe(message);
  else if (message) expect(r.body.error?.message).toMatch(message);
  expect(r.status).toBeGreaterThanOrEqual(400);
  return r.body;
}

/** Asserts a validation failure (110) whose `errors` names `field` (message matching `message` when given). */
export function invalid(r: Res<unknown>, field: string, message?: string | RegExp): string {
  const body = fails(r, 110);
  expect(r.status).toBe(400);
  expect(body.errors, JSON.stringify(body)).not.toBeNull();
  const text = body.errors?.[field];
  expect(text, `errors.${field} in ${JSON.stringify(body.errors)}`).toBeTypeOf('string');
  if (typeof message === 'string') expect(text).toBe(message);
  else if (message) expect(text).toMatch(message);
  return text ?? '';
}

export const NO_PERMISSION = /don't have permissions/;
/** Asserts the permission refusal the web app swallows (spec 01 section 8). */
export function denied(r: Res<unknown>): void {
  fails(r, ErrorCode.forbidden, NO_PERMISSION);
  expect(r.status).toBe(403);
}

/** Asserts "not found / not visible" (150). */
export function notVisible(r: Res<unknown>): void {
  fails(r, ErrorCode.notFound);
  expect(r.status).toBe(404);
}

/**
 * Holds a recurring job off (its slots claimed up to 2100) so a test can drive the clock itself: a
 * slot falling due during the test would run the job at the real now beside the test's own "now".
 */
export async function holdRecurringJob(h: Pick<Harness, 'built'>, kind: string): Promise<void> {
  await sql`INSERT INTO job_schedules (name, last_slot) VALUES (${kind}, '2100-01-01')
    ON CONFLICT (name) DO UPDATE SET last_slot = excluded.last_slot`.execute(h.built.services.db);
}

/** Moves a token's access window (and optionally its refresh window) into the past. */
export async function expireToken(
  h: Harness,
  token: string,
  opts: { beyondRefresh?: boolean } = {},
): Promise<void> {
  const past = new Date(Date.now() - 1000);
  await h.built.services.db
    .updateTable('sessions')
    .set({ expires_at: past, ...(opts.beyondRefresh ? { refresh_until: past } : {}) })
    .where('token_hash', '=', hashToken(token))
    .execute();
}

/** Tokens in each session state, to check that a call refuses them. */
export interface SessionStates {
  revoked: string;
  expired: string;
}

export async function makeSessionStates(
  h: Harness,
  name = ADMIN.name,
  passwd = ADMIN.passwd,
): Promise<SessionStates> {
  const revoked = await h.signIn(name, passwd);
  ok(await h.call('POST', '/api/auth/logout', { token: revoked }));
  const expired = await h.signIn(name, passwd);
  await expireToken(h, expired);
  return { revoked, expired };
}

/**
 * Asserts that a call refuses every unusable session: none (130), unknown token (130 'Incorrect token
 * provided'), revoked (130 'token is disabled') and past its access window (120, check the token).
 */
export async function expectSessionRequired(
  h: Harness,
  states: SessionStates,
  method: string,
  url: string,
  opts: { body?: unknown } = {},
): Promise<void> {
  const none = await h.call(method, url, { ...opts, token: null });
  fails(none, ErrorCode.logout);
  expect(none.status).toBe(401);
  const wrong = await h.call(method, url, { ...opts, token: 'x'.repeat(43) });
  fails(wrong, ErrorCode.logout, 'Incorrect token provided');
  expect(wrong.status).toBe(401);
  fails(await h.call(method, url, { ...opts, token: states.revoked }), ErrorCode.logout, 'token is disabled');
  fails(await h.call(method, url, { ...opts, token: states.expired }), ErrorCode.tokenCheck);
}

export interface Privilege {
  func_name: string;
  readable: boolean;
  writable: boolean;
  executable: boolean;
}
/** func -> 'r' | 'rw' | 'rwx' shorthand for role privileges. */
export const privileges = (spec: Record<string, 'r' | 'rw' | 'rwx' | 'w'>): Privilege[] =>
  Object.entries(spec).map(([func_name, p]) => ({
    func_name,
    readable: p.includes('r'),
    writable: p.includes('w'),
    executable: p.includes('x'),
  }));

export async function makeRole(
  h: Harness,
  adminToken: string,
  role_name: string,
  spec: Record<string, 'r' | 'rw' | 'rwx' | 'w'>,
  groups: { id: number; readable: boolean }[] = [],
): Promise<number> {
  const r = await h.call<{ object_id: number }>('POST', '/api/config/role/create', {
    token: adminToken,
    body: { role_name, role_privilegies: privileges(spec), group_privilegies: groups },
  });
  return ok(r).object_id;
}

export const USER_PASSWD = 'User#2026';

/** Creates an admin user (optionally with a role or allowed IPs) and signs it in (not when IPs are restricted: token ''). */
export async function makeAdmin(
  h: Harness,
  adminToken: string,
  name: string,
  opts: { role_id?: number; allowed_ips?: string[]; landing_page?: string | null } = {},
): Promise<{ userId: number; token: string; name: string; passwd: string }> {
  const r = await h.call<{ object_id: number }>('POST', '/api/user/create', {
    token: adminToken,
    body: { name, passwd: USER_PASSWD, email: `${name}@example.com`, user_type: 'admin', ...opts },
  });
  const userId = ok(r).object_id;
  const token = opts.allowed_ips?.length ? '' : await h.signIn(name, USER_PASSWD);
  return { userId, token, name, passwd: USER_PASSWD };
}

/**
 * An admin whose role grants only `spec` (default: read of the statistics dashboard), to check
 * that calls needing another permission answer 140 "don't have permissions".
 */
export async function makeRestrictedAdmin(
  h: Harness,
  adminToken: string,
  name: string,
  spec: Record<string, 'r' | 'rw' | 'rwx' | 'w'> = { '/statistics/dashboard': 'r' },
): Promise<{ userId: number; token: string; roleId: number }> {
  const roleId = await makeRole(h, adminToken, `${name} role`, spec);
  const a = await makeAdmin(h, adminToken, name, { role_id: roleId });
  return { userId: a.userId, token: a.token, roleId };
}

/** Creates an agent with its portal user and signs it in. */
export async function makeAgent(
  h: Harness,
  adminToken: string,
  name: string,
): Promise<{ agentId: number; token: string; login: string; referralKey: string }> {
  const login = `${name.toLowerCase()}_agent`;
  const r = await h.call<{ object_id: number }>('POST', '/api/agent/create', {
    token: adminToken,
    body: {
      agent_name: name,
      email: `${name.toLowerCase()}@agents.example.com`,
      name: login,
      passwd: USER_PASSWD,
    },
  });
  const agentId = ok(r).object_id;
  const a = await h.built.services.db
    .selectFrom('agents')
    .select('referral_key')
    .where('agent_id', '=', agentId)
    .executeTakeFirstOrThrow();
  return { agentId, token: await h.signIn(login, USER_PASSWD), login, referralKey: a.referral_key };
}

/** The user id behind a login name. */
export async function userIdOf(h: Harness, name: string): Promise<number> {
  const u = await h.built.services.db
    .selectFrom('users')
    .select('user_id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return u.user_id;
}

/** Modification log rows of one entity (newest first), read straight from the table. */
export async function auditRows(h: Harness, entity: string, entityId: string | number) {
  return h.built.services.db
    .selectFrom('modification_log')
    .selectAll()
    .where('entity', '=', entity)
    .where('entity_id', '=', String(entityId))
    .orderBy('id', 'desc')
    .execute();
}

/** A valid PNG image of w x h pixels (RGB, one colour). */
export function tinyPng(w = 1, hgt = 1, rgb: [number, number, number] = [255, 0, 0]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(hgt, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: hgt }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Posts a multipart form (text fields, then optionally one file) and returns the parsed envelope. */
export async function upload(
  h: Harness,
  url: string,
  token: string | null,
  fields: Record<string, string>,
  file?: { name: string; data: Buffer; type?: string },
): Promise<Res<{ object_id: number }>> {
  const boundary = `----tandem${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (token) headers['x-auth-token'] = token;
  const res = await h.built.app.inject({ method: 'POST', url, headers, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text body. */
  text: string;
}

/** An in-process SMTP server on a random local port that keeps every message it receives. */
export async function startSmtp(): Promise<{
  port: number;
  mails: CapturedMail[];
  /** SMTP logins the server accepted (any user and password), newest last. */
  logins: { username: string; password: string }[];
  close(): Promise<void>;
}> {
  const mails: CapturedMail[] = [];
  const logins: { username: string; password: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Subject and text of a single-part text mail (quoted-printable, base64 or plain). */
function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const subject = header('Subject').replace(/=\?utf-8\?([QB])\?(.*?)\?=/gi, (_, enc: string, t: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(t, 'base64').toString('utf8') : decodeQp(t.replace(/_/g, ' ')),
  );
  const enc = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    enc === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : enc === 'quoted-printable'
        ? decodeQp(body)
        : body;
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

function decodeQp(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
