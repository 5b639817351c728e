import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, startHarness, type Harness, type HarnessOptions } from './harness';
import { cdrOf, type CdrBatchResult } from './cdr-fixtures';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

// Fault test (issue 10): a server process killed with SIGKILL in the middle of ingesting a batch
// leaves the whole batch or nothing; after a restart the switch resends every batch and each is
// billed exactly once (balances equal the ledger). The server runs as a child process (main.ts) on
// a PGlite folder, or on a fresh PostgreSQL database when DATABASE_URL is set; the test opens the
// same data in-process (harness `dataDir` / `databaseUrl`) to set it up and to check it.

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const PG_BASE = process.env.DATABASE_URL;
const N = 10_000;

let opts: HarnessOptions;
let dataDir: string | null = null;
let pgdb: Awaited<ReturnType<typeof freshPostgresDatabase>> | null = null;
let key: string;
let f: Fixture;

beforeAll(async () => {
  if (PG_BASE) {
    pgdb = await freshPostgresDatabase(PG_BASE);
    opts = { databaseUrl: pgdb.url, keep: true };
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-fault-'));
    opts = { dataDir };
  }
  const h = await startHarness({}, opts);
  try {
    const admin = await h.setupAdmin();
    key = await switchKey(h, admin);
    f = await termination(h);
    await lcrOverVendors(h, f);
    await rebuildAfter(h, admin);
  } finally {
    await h.close();
  }
}, 120_000);
/** Children still running when the test ends (it failed half-way): stopped, never left behind. */
const running = new Set<ChildProcess>();
afterAll(async () => {
  for (const c of running) c.kill('SIGKILL');
  if (pgdb) await pgdb.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

interface Child {
  base: string;
  proc: ChildProcess;
  exited: Promise<void>;
}

/** The server (src/main.ts) as a child process on the test's data; resolves once it answers. */
async function startChild(): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: pgdb?.url ?? '',
      DATA_DIR: dataDir ?? '',
      PASSWORD_COST: '10',
      LOG_LEVEL: 'error',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  running.add(proc);
  const exited = new Promise<void>((resolve) =>
    proc.on('exit', () => {
      running.delete(proc);
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}/api`;
  const until = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    const ok = await fetch(`${base}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { base, proc, exited };
    if (Date.now() > until) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** POST /switch/cdr to a child; waits while the routing engine's first snapshot is built (503). */
async function send(c: Child, batch_id: string, cdrs: unknown[]): Promise<CdrBatchResult> {
  for (;;) {
    const r = await fetch(`${c.base}/switch/cdr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switch-key': key },
      body: JSON.stringify({ batch_id, cdrs }),
    });
    const body = (await r.json()) as { success: boolean; payload: CdrBatchResult };
    if (r.status === 503) {
      await new Promise((res) => setTimeout(res, 100));
      continue;
    }
    if (!body.success) throw new Error(JSON.stringify(body));
    return body.payload;
  }
}

/** The test's data opened in-process (the child must be stopped for PGlite). */
async function inspect<T>(run: (h: Harness) => Promise<T>): Promise<T> {
  const h = await startHarness({}, opts);
  try {
    return await run(h);
  } finally {
    await h.close();
  }
}

const batchOf = (tag: string) =>
  Array.from({ length: N }, (_, i) =>
    cdrOf(f, {
      callId: `${tag}-${i}`,
      duration: i % 3 === 0 ? 0 : 30 + (i % 90),
      start: new Date(Date.UTC(2026, 10, 20, 8) + i * 1000).toISOString(),
    }),
  );

/** Stored CDRs of a batch's calls, its batch row, its ledger rows; carriers whose balance is off. */
async function stateOf(h: Harness, tag: string) {
  const db = h.built.services.db;
  const one = async (q: ReturnType<typeof sql<{ n: number }>>) => (await q.execute(db)).rows[0]!.n;
  return {
    cdrs: await one(sql`SELECT count(*)::int AS n FROM cdrs WHERE call_id LIKE ${tag + '-%'}`),
    keys: await one(sql`SELECT count(*)::int AS n FROM cdr_keys WHERE call_id LIKE ${tag + '-%'}`),
    batches: await one(sql`SELECT count(*)::int AS n FROM cdr_batches WHERE batch_id = ${tag}`),
    ledger: await one(sql`SELECT count(*)::int AS n FROM ledger WHERE ref = ${tag}`),
    unbalanced: await one(sql`
      SELECT count(*)::int AS n FROM carriers c
      LEFT JOIN (SELECT client_id, sum(amount) AS s FROM ledger GROUP BY client_id) l ON l.client_id = c.client_id
      WHERE c.balance <> coalesce(l.s, 0)`),
  };
}

/**
 * PostgreSQL: resolves once a backend of the test's database is inside a batch's transaction and has
 * written (it holds a transaction id and runs a statement of the ingest).
 */
async function inTransaction(): Promise<boolean> {
  const c = new pg.Client({ connectionString: pgdb!.url });
  await c.connect();
  try {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const r = await c.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()
           AND backend_xid IS NOT NULL AND query ~ '(cdr_keys|INSERT INTO cdrs|ledger|cdr_batches|carriers)'`,
        [pgdb!.name],
      );
      if ((r.rows[0] as { n: number }).n > 0) return true;
      await new Promise((res) => setTimeout(res, 5));
    }
    return false;
  } finally {
    await c.end();
  }
}

describe(`SIGKILL in the middle of a batch (${PG_BASE ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('leaves the whole batch or nothing; the resent batches are billed exactly once', async () => {
    const first = batchOf('fault-a');
    let child = await startChild();
    await send(child, 'warm-up', [cdrOf(f, { callId: 'warm-up' })]);
    const t0 = performance.now();
    expect((await send(child, 'fault-a', first)).stored).toBe(N);
    const took = performance.now() - t0;

    // a batch killed while its transaction is under way (PGlite: half-way through the time a batch
    // takes; should the batch have finished first, again with a shorter wait and a new batch)
    let tag = '';
    let second: unknown[] = [];
    for (let k = 0; ; k++) {
      tag = `fault-b${k}`;
      second = batchOf(tag);
      const pending = send(child, tag, second).catch(() => null);
      if (pgdb) expect(await inTransaction()).toBe(true);
      else await new Promise((res) => setTimeout(res, took * 0.5 * 0.6 ** k));
      child.proc.kill('SIGKILL');
      await child.exited;
      if ((await pending) === null || k === 4) break; // no answer: the switch will resend
      child = await startChild();
    }

    const after = await inspect((h) => stateOf(h, tag));
    // all or nothing: the CDRs, their keys, the batch row and its ledger rows together
    expect([0, N]).toContain(after.cdrs);
    expect(after.keys).toBe(after.cdrs);
    expect(after.batches).toBe(after.cdrs === 0 ? 0 : 1);
    expect(after.ledger).toBe(after.cdrs === 0 ? 0 : 2);
    expect(after.unbalanced).toBe(0);
    if (pgdb) expect(after.cdrs).toBe(0); // killed inside the transaction: rolled back

    // restart; the switch resends every batch (it has no answer for the last one)
    child = await startChild();
    expect((await send(child, 'fault-a', first)).duplicate).toBe(true);
    const resent = await send(child, tag, second);
    expect(resent.stored).toBe(N);
    expect(resent.duplicate).toBe(after.cdrs === N);
    child.proc.kill('SIGTERM');
    await child.exited;

    for (const t of ['fault-a', tag]) {
      const s = await inspect((h) => stateOf(h, t));
      expect(s).toEqual({ cdrs: N, keys: N, batches: 1, ledger: 2, unbalanced: 0 });
    }
    const balances = await inspect(async (h) => {
      const r = await sql<{ revenue: string; customer: string }>`
        SELECT (SELECT sum(ingress_client_cost) FROM cdrs)::text AS revenue,
               (SELECT balance FROM carriers WHERE client_id = ${f.customer})::text AS customer`.execute(
        h.built.services.db,
      );
      return r.rows[0]!;
    });
    expect(Number(balances.customer)).toBeCloseTo(-Number(balances.revenue), 6);
  }, 300_000);
});
