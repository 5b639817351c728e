/**
 * Shared set-up of the routing benchmarks: a server on loopback with a realistic configuration,
 * written through SQL in bulk (one statement per rate table) and the routing API:
 *   - customer: the SDF deck (data/rate-decks/sdf-outbound-rates.csv) marked up 25 %, or a
 *     generated US NPA-NXX deck of 700,000 codes;
 *   - 10 vendors, each with an egress trunk and the SDF deck at its own deterministic rate spread;
 *   - an ingress trunk on 198.51.100.0/24, a routing plan with one row to an LCR dynamic route over
 *     the 10 vendor trunks; a switch API key.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseCsvLine } from '@tandem/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { storedSetupCode } from '../../apps/server/src/modules/users/setup-code';

export const DATA_DIR = process.env.TANDEM_DATA_DIR ?? new URL('../../datasets/', import.meta.url).pathname;
export const VENDORS = 10;
const here = import.meta.dirname;

export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DeckRow {
  code: string;
  name: string;
  minTime: number;
  interval: number;
  /** Rate in units of 1e-4 (the deck's precision). */
  rate4: number;
  effective: string;
  end: string | null;
}

/** The SDF deck's rows with a rate (the few without one are skipped). */
export function sdfDeck(): DeckRow[] {
  const lines = fs
    .readFileSync(path.join(DATA_DIR, 'rate-decks/sdf-outbound-rates.csv'), 'utf8')
    .split(/\r?\n/)
    .filter(Boolean);
  const header = parseCsvLine(lines[0]!);
  const col = (name: string) => header.indexOf(name);
  const rows: DeckRow[] = [];
  for (const line of lines.slice(1)) {
    const c = parseCsvLine(line);
    const rate = c[col('Rate')] ?? '';
    if (rate === '' || !/^\d+$/.test(c[col('Prefix')] ?? '')) continue;
    rows.push({
      code: c[col('Prefix')]!,
      name: c[col('Destination')] ?? '',
      minTime: Number(c[col('First Interval')]),
      interval: Number(c[col('Sub Interval')]),
      rate4: Math.round(Number(rate) * 1e4),
      effective: `${(c[col('Start Date')] ?? '2010-01-01 00:00:00').slice(0, 19)}Z`,
      end: c[col('End Date')] ? `${c[col('End Date')]!.slice(0, 19)}Z` : null,
    });
  }
  return rows;
}

/** 640,000 codes 1+NPA+NXX (200..999 each) plus 60,000 thousands blocks: 700,000 codes. */
export function usCodes(): string[] {
  const codes: string[] = [];
  for (let npa = 200; npa <= 999; npa++) for (let nxx = 200; nxx <= 999; nxx++) codes.push(`1${npa}${nxx}`);
  const blocks = 700_000 - codes.length;
  for (let i = 0; i < blocks / 10; i++) for (let x = 0; x < 10; x++) codes.push(`${codes[i * 13]}${x}`);
  return codes;
}

const fmt = (micros: number) =>
  `${Math.floor(micros / 1e6)}.${String(Math.round(micros) % 1e6).padStart(6, '0')}`;

export interface Bench {
  built: BuiltApp;
  base: string;
  key: string;
  token: string;
  customerTable: number;
  close(): Promise<void>;
}

/** Starts the server (PGlite under a temp dir, or a fresh PostgreSQL database) listening on loopback. */
export async function startServer(databaseUrl: string | null): Promise<{
  built: BuiltApp;
  base: string;
  token: string;
  /** Drops the run's PostgreSQL database and removes its data directory (call after closing). */
  dropDb: () => Promise<void>;
  /** The run's own PostgreSQL database (null: PGlite). */
  url: string | null;
}> {
  let url: string | null = null;
  let dropDb = async () => {};
  if (databaseUrl) {
    const name = `tandem_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(databaseUrl);
    u.pathname = '/' + name;
    url = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  // The run's data directory (PGlite's database, exports): removed with the database afterwards, a
  // 1,000,000-CDR run leaves over 2 GB.
  const dataDir = path.join(os.tmpdir(), `tandem-bench-${randomBytes(4).toString('hex')}`);
  const dropData = dropDb;
  dropDb = async () => {
    await dropData();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url ?? '',
    DATA_DIR: dataDir,
    PASSWORD_COST: '10',
    LOG_LEVEL: 'error',
    WEB_DIST: '/nonexistent',
  });
  const built = await buildApp(config, { logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  // Setup blocks this process for seconds at a time (bulk inserts on PGlite): an idle keep-alive
  // socket the server closed late would reset the next setup request. The client closes idle
  // sockets first (undici: 4 s) when the server waits longer.
  built.app.server.keepAliveTimeout = 60_000;
  const port = (built.app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}/api`;
  const post = (p: string, body: unknown, token?: string) =>
    fetch(base + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-auth-token': token } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ payload: Record<string, unknown> }>);
  await post('/user/create', {
    name: 'bench',
    email: 'bench@example.com',
    passwd: 'Bench#2026',
    setup_code: (await storedSetupCode(built.services.db)) ?? '',
  });
  const token = String(
    (await post('/auth', { email_or_name: 'bench', password: 'Bench#2026' })).payload.token,
  );
  return { built, base, token, dropDb, url };
}

/** Inserts a rate table and its rows in one statement (arrays unnested by the database). */
async function insertTable(
  built: BuiltApp,
  name: string,
  rows: {
    code: string;
    name: string;
    rate: string;
    minTime: number;
    interval: number;
    effective: string;
    end: string | null;
  }[],
): Promise<number> {
  const db = built.services.db;
  const t = await db
    .insertInto('rate_tables')
    .values({ name, decimal_places: 4 })
    .returning('rate_table_id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < rows.length; i += 100_000) {
    const part = rows.slice(i, i + 100_000);
    await sql`INSERT INTO rates (rate_table_id, code, code_name, rate, min_time, "interval", effective_date, end_date)
      SELECT ${t.rate_table_id}, * FROM unnest(${part.map((r) => r.code)}::text[], ${part.map((r) => r.name)}::text[], ${part.map((r) => r.rate)}::numeric[],
        ${part.map((r) => r.minTime)}::int[], ${part.map((r) => r.interval)}::int[], ${part.map((r) => r.effective)}::timestamptz[], ${part.map((r) => r.end)}::timestamptz[])`.execute(
      db,
    );
  }
  return t.rate_table_id;
}

/**
 * The configuration of the benchmarks. `customer`: 'sdf' (the SDF deck marked up 25 %) or 'us700k'
 * (700,000 US codes at 0.0100..0.0199). Vendors always carry the SDF deck.
 */
export async function configure(
  built: BuiltApp,
  base: string,
  token: string,
  customer: 'sdf' | 'us700k',
): Promise<{ key: string; customerTable: number; sdf: DeckRow[]; ingress: number }> {
  const db = built.services.db;
  const sdf = sdfDeck();
  const customerRows =
    customer === 'sdf'
      ? sdf.map((d) => ({ ...d, rate: fmt(d.rate4 * 125) }))
      : usCodes().map((code, i) => ({
          code,
          name: 'USA',
          minTime: 6,
          interval: 6,
          rate: fmt(10_000 + (i % 100) * 100),
          effective: '2020-01-01T00:00:00Z',
          end: null,
        }));
  const customerId = (
    await db
      .insertInto('carriers')
      .values({
        name: 'Bench customer',
        client_type: 'client',
        mode: 'postpaid',
        credit_limit: '100000',
        min_profitability: '1',
        updated_at: new Date(),
      })
      .returning('client_id')
      .executeTakeFirstOrThrow()
  ).client_id;
  const customerTable = await insertTable(built, 'Bench customer rates', customerRows);
  const plan = (
    await db
      .insertInto('routing_plans')
      .values({ name: 'Bench plan' })
      .returning('route_plan_id')
      .executeTakeFirstOrThrow()
  ).route_plan_id;
  const ingress = (
    await db
      .insertInto('trunks')
      .values({
        carrier_id: customerId,
        name: 'Bench ingress',
        direction: 'ingress',
        rate_table_id: customerTable,
        routing_plan_id: plan,
      })
      .returning('trunk_id')
      .executeTakeFirstOrThrow()
  ).trunk_id;
  await db
    .insertInto('trunk_hosts')
    .values({ trunk_id: ingress, host: '198.51.100.0', netmask: 24 })
    .execute();
  const random = seeded(7);
  const vendorTrunks: number[] = [];
  for (let v = 0; v < VENDORS; v++) {
    const carrierId = (
      await db
        .insertInto('carriers')
        .values({
          name: `Bench vendor ${v + 1}`,
          client_type: 'vendor',
          mode: 'postpaid',
          updated_at: new Date(),
        })
        .returning('client_id')
        .executeTakeFirstOrThrow()
    ).client_id;
    const table = await insertTable(
      built,
      `Bench vendor ${v + 1} rates`,
      sdf.map((d) => ({ ...d, rate: fmt(Math.max(1, Math.round(d.rate4 * (80 + random() * 40))) * 1) })),
    );
    const trunk = (
      await db
        .insertInto('trunks')
        .values({
          carrier_id: carrierId,
          name: `Bench vendor ${v + 1} out`,
          direction: 'egress',
          rate_table_id: table,
          tech_prefix: v % 3 === 0 ? `${100 + v}#` : '',
        })
        .returning('trunk_id')
        .executeTakeFirstOrThrow()
    ).trunk_id;
    await db
      .insertInto('trunk_hosts')
      .values({ trunk_id: trunk, host: `203.0.113.${10 + v}`, port: 5060 })
      .execute();
    vendorTrunks.push(trunk);
  }
  const api = (method: string, p: string, body?: unknown) =>
    fetch(base + p, {
      method,
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ success: boolean; payload: Record<string, unknown> }>);
  const route = await api('POST', '/routing/dynamic_routing/create', {
    name: 'Bench LCR',
    rule: 'lcr',
    trunks: vendorTrunks.map((trunk_id) => ({ trunk_id })),
  });
  if (!route.success) throw new Error(JSON.stringify(route));
  const row = await api('POST', `/routing/routing_plan/${plan}/rows/create`, {
    prefix: '',
    route_type: 'dynamic',
    dynamic_route_id: route.payload.object_id,
  });
  if (!row.success) throw new Error(JSON.stringify(row));
  const key = String((await api('POST', '/routing/switch_key/create', { name: 'bench' })).payload.key);
  return { key, customerTable, sdf, ingress };
}

/** Waits for the snapshot to settle after `after` (a version), returning its status. */
export async function settled(
  base: string,
  token: string,
  after = 0,
): Promise<{
  version: number;
  build_ms: number;
  load_ms: number;
  load_kind: string;
  counts: Record<string, number>;
  built_at: string;
}> {
  for (;;) {
    const r = (await fetch(`${base}/routing/engine/status`, { headers: { 'x-auth-token': token } }).then(
      (x) => x.json(),
    )) as { payload: { building: boolean; version: number; last_error: string | null } };
    if (r.payload.last_error) throw new Error(r.payload.last_error);
    if (!r.payload.building && r.payload.version > after) return r.payload as never;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface LoadResult {
  requests: number;
  failed: number;
  seconds: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** Runs bench/http/load.ts in a second process. */
export async function load(
  url: string,
  count: number,
  seconds: number,
  connections: number,
  opts: { bodies?: unknown[]; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  let bodiesFile: string | undefined;
  if (opts.bodies) {
    bodiesFile = path.join(os.tmpdir(), `tandem-bench-bodies-${randomBytes(4).toString('hex')}.json`);
    fs.writeFileSync(bodiesFile, JSON.stringify(opts.bodies));
  }
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(here, '../http/load.ts'),
        url,
        String(count),
        String(seconds),
        String(connections),
      ],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          ...(bodiesFile ? { LOAD_BODIES: bodiesFile } : {}),
          ...(opts.headers ? { LOAD_HEADERS: JSON.stringify(opts.headers) } : {}),
        },
      },
    );
    return JSON.parse(stdout) as LoadResult;
  } finally {
    if (bodiesFile) fs.rmSync(bodiesFile, { force: true });
  }
}

/** Route API bodies: numbers drawn (seeded) from the deck's codes, padded to 11..12 digits. */
export function routeBodies(
  codes: readonly string[],
  n: number,
  seed = 3,
): { source_ip: string; source_port: number; ani: string; dnis: string }[] {
  const random = seeded(seed);
  return Array.from({ length: n }, (_, i) => {
    let dnis = codes[Math.floor(random() * codes.length)] ?? '1';
    while (dnis.length < 11) dnis += String(Math.floor(random() * 10));
    return {
      source_ip: `198.51.100.${1 + (i % 200)}`,
      source_port: 5060,
      ani: `1555${String(1000000 + i).slice(1)}`,
      dnis,
    };
  });
}

export const machine = () => ({
  cpus: os.cpus().length,
  model: os.cpus()[0]?.model,
  node: process.version,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
});
