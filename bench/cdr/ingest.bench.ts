/**
 * CDR ingest (issue 10): POST /api/switch/cdr over HTTP on loopback, batches of 1,000 CDRs (BENCH_BATCH), each
 * rated on both legs (the SDF deck as the customer's table and 10 vendor tables, setup.ts), stored
 * (cdr_keys, the day partition and its 6 indexes, by COPY) and billed (ledger rows, balances) in one
 * transaction per batch, its CDRs queued for the traffic summaries, which the server folds in the
 * background meanwhile (migration 0038). The switch is a worker thread (its own event loop and
 * core time, as a switch is another machine) posting bodies serialised before the clock starts.
 * Same-run baselines: the same rows written by one plain multi-row INSERT (unnest of column arrays)
 * into an unindexed, unpartitioned table, and on PostgreSQL by COPY FROM STDIN (CSV), one COPY per
 * batch, into another such table (the fastest way rows go in): no rating, no keys, no ledger. Then
 * how long until the summaries have folded every batch (sustained rate: CDRs over ingest + catch-up).
 * Also: how long after a batch commits the route API sees the new balance, in the process that
 * ingested it and (PostgreSQL) in a second server process on the same database (BalancePoller).
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 *
 *   npx tsx bench/cdr/ingest.bench.ts
 * Env: BENCH_CDRS (default 50000), BENCH_BATCH (1000: the issue's batch size), BENCH_SENDERS (1:
 * batches in flight at once, as from that many switch nodes), BENCH_TRAFFIC:
 *   switch (default): as a switch sends them: each batch the calls that ended in the next 2 s, so a
 *     run spans minutes; destinations by popularity (Zipf, s = 1, over the SDF codes in a fixed
 *     shuffled order: a few hundred codes carry most calls, as in wholesale traffic); each code's
 *     calls to its LCR vendor (80 %) or the next one; 4 customer hosts.
 *   uniform: the worst case for the summaries: start times spread over a whole day, every SDF code
 *     equally likely, vendors round robin, 200 hosts: nearly every CDR is a summary key of its own.
 * Targets (issue 10): at least 50,000 CDRs/s on PostgreSQL; a balance change visible to routing in
 * under 1 s.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { moveBalances } from '../../apps/server/src/modules/cdr/ledger';
import { configure, machine, seeded, settled, startServer, VENDORS } from '../routing/setup';

const TOTAL = Number(process.env.BENCH_CDRS ?? 50_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1_000);
/** Batches in flight at once: one switch sends one after the other; several switch nodes send side by side. */
const SENDERS = Number(process.env.BENCH_SENDERS ?? 1);
const TRAFFIC = (process.env.BENCH_TRAFFIC ?? 'switch') as 'switch' | 'uniform';
if (TRAFFIC !== 'switch' && TRAFFIC !== 'uniform') throw new Error('BENCH_TRAFFIC: switch or uniform');
/** A batch of the 'switch' traffic holds the calls that ended in this many ms. */
const SWITCH_BATCH_MS = 2_000;

/** Answered and failed attempts from the bench customer's network to the SDF codes over the vendors (BENCH_TRAFFIC). */
function cdrs(
  codes: readonly string[],
  ingress: number,
  vendors: readonly number[],
  n: number,
  seed: number,
  traffic: 'switch' | 'uniform' = 'uniform',
) {
  const random = seeded(seed);
  const tag = randomBytes(4).toString('hex');
  const day = Date.UTC(2026, 10, 20);
  const pick = traffic === 'switch' ? zipf(codes.length) : null;
  // the switch's batch `seed` holds the calls that ended in its 2 s (batches numbered from 1)
  const endsFrom = day + 10 * 3_600_000 + (seed - 1) * SWITCH_BATCH_MS;
  return Array.from({ length: n }, (_, i) => {
    const c = pick ? pick(random()) : Math.floor(random() * codes.length);
    let dnis = codes[c] ?? '1';
    while (dnis.length < 11) dnis += String(Math.floor(random() * 10));
    const answered = random() < 0.5;
    const duration = answered ? 1 + Math.floor(random() * 300) : 0;
    const setup = answered ? 4000 : 6000;
    const start = pick
      ? endsFrom + Math.floor(random() * SWITCH_BATCH_MS) - duration * 1000 - setup
      : day + Math.floor(random() * 86_000_000);
    const answer = answered ? start + 4000 : null;
    const end = (answer ?? start + 6000) + duration * 1000;
    // switch: each code's LCR vendor, or the next one for a failover share; uniform: round robin
    const vendor = pick ? (c + (random() < 0.8 ? 0 : 1)) % vendors.length : i % vendors.length;
    return {
      call_id: `bench-${tag}-${seed}-${i}`,
      attempt: 1,
      is_final_attempt: true,
      start_time: new Date(start).toISOString(),
      answer_time: answer === null ? null : new Date(answer).toISOString(),
      end_time: new Date(end).toISOString(),
      duration,
      ingress_trunk_id: ingress,
      egress_trunk_id: vendors[vendor]!,
      source_ip: `198.51.100.${1 + (i % (pick ? 4 : 200))}`,
      ani: `1555${String(1000000 + (i % 999999)).slice(1)}`,
      dnis,
      egress_dnis: dnis,
      release_cause: answered ? 200 : 486,
      q850_cause: answered ? 16 : 17,
      release_side: answered ? 'O' : 'T',
      pdd_ms: 1500 + Math.floor(random() * 3000),
      codec: 'PCMA',
    };
  });
}

/** An index in [0, n) by popularity: rank k (k = 1..n) with weight 1/k (Zipf, s = 1); u uniform in [0, 1). */
function zipf(n: number): (u: number) => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1);
  // ranks in a fixed shuffled order of the codes, so the popular ones are not all one country
  const order = Array.from({ length: n }, (_, i) => i);
  const shuffle = seeded(4242);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(shuffle() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return (u) => {
    const x = u * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo]!;
  };
}

/**
 * The switch: a worker thread (its own event loop) posting the serialised batches, `senders` at a
 * time, each sender one after the other; answers each batch's time and answer.
 */
const SWITCH = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, key, bodies, senders } = workerData;
(async () => {
  const times = new Array(bodies.length);
  const answers = new Array(bodies.length);
  let next = 0;
  const t0 = performance.now();
  const sender = async () => {
    for (let b = next++; b < bodies.length; b = next++) {
      const tb = performance.now();
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-switch-key': key }, body: bodies[b] });
      answers[b] = await r.json();
      times[b] = Math.round(performance.now() - tb);
    }
  };
  await Promise.all(Array.from({ length: senders }, sender));
  parentPort.postMessage({ ms: performance.now() - t0, times, answers });
})().catch((e) => parentPort.postMessage({ error: String(e) }));
`;

function send(url: string, key: string, bodies: string[], senders: number) {
  return new Promise<{
    ms: number;
    times: number[];
    answers: { success: boolean; payload: Record<string, unknown> }[];
  }>((resolve, reject) => {
    const w = new Worker(SWITCH, { eval: true, workerData: { url, key, bodies, senders } });
    w.once('message', (m: { error?: string; ms: number; times: number[]; answers: never[] }) => {
      void w.terminate();
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    w.once('error', reject);
  });
}

const post = async (url: string, body: unknown, headers: Record<string, string>) => {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await r.json()) as { success: boolean; payload: Record<string, unknown> };
};

async function run(label: string, databaseUrl: string | null) {
  const { built, base, token, dropDb, url } = await startServer(databaseUrl);
  let second: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    const { key, sdf } = await configure(built, base, token, 'sdf');
    await settled(base, token);
    const db = built.services.db;
    const trunks = await db.selectFrom('trunks').select(['trunk_id', 'direction', 'carrier_id']).execute();
    const ingress = trunks.find((t) => t.direction === 'ingress')!;
    const vendors = trunks.filter((t) => t.direction === 'egress').map((t) => t.trunk_id);
    if (vendors.length !== VENDORS) throw new Error('bench configuration');
    const codes = sdf.map((d) => d.code);
    const headers = { 'x-switch-key': key };

    // warm-up (partition of the day made, JIT, connection pool)
    const warm = await post(
      `${base}/switch/cdr`,
      { batch_id: 'warm', cdrs: cdrs(codes, ingress.trunk_id, vendors, 1000, 99) },
      headers,
    );
    if (!warm.success) throw new Error(JSON.stringify(warm));

    // ingest over HTTP from the switch's thread, bodies serialised before the clock starts
    const batches = Array.from({ length: Math.ceil(TOTAL / BATCH) }, (_, b) =>
      cdrs(codes, ingress.trunk_id, vendors, Math.min(BATCH, TOTAL - b * BATCH), b + 1, TRAFFIC),
    );
    const bodies = batches.map((list, b) => JSON.stringify({ batch_id: `bench-${b}`, cdrs: list }));
    const pgKinds0 = postgresCpuByKind();
    const pg0 = postgresCpuMs(pgKinds0);
    const cpu0 = process.cpuUsage();
    const sent = await send(`${base}/switch/cdr`, key, bodies, SENDERS);
    const cpu = process.cpuUsage(cpu0);
    const pgKinds = postgresCpuByKind();
    const pgCpu = url ? postgresCpuMs(pgKinds) - pg0 : null;
    for (const [k, v] of pgKinds0) pgKinds.set(k, (pgKinds.get(k) ?? 0) - v);
    const ingestMs = sent.ms;
    const perBatch = sent.times;
    let unpriced = 0;
    sent.answers.forEach((r, b) => {
      if (!r.success || r.payload.stored !== batches[b]!.length)
        throw new Error(JSON.stringify(r).slice(0, 500));
      unpriced += Number(r.payload.unpriced);
    });
    // the summaries: folded in the background meanwhile; how long after the last batch until all are
    const tq = performance.now();
    for (;;) {
      const q = await sql<{ n: string }>`SELECT count(*)::text AS n FROM cdr_summary_queue`.execute(db);
      if (q.rows[0]!.n === '0') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const catchUpMs = performance.now() - tq;
    const summaryRows = await sql<{ fine: string; detail: string; hosts: string }>`
      SELECT (SELECT count(*) FROM cdr_summaries)::text AS fine,
        (SELECT count(*) FROM cdr_summaries_daily_detail)::text AS detail,
        (SELECT count(*) FROM cdr_host_summaries)::text AS hosts`.execute(db);

    // baseline: the same rows, one plain INSERT per batch into an unindexed table
    await sql`CREATE TABLE bench_cdr_raw (LIKE cdrs)`.execute(db);
    const cols = (
      await sql<{ column_name: string; data_type: string }>`
        SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'cdrs'
        ORDER BY ordinal_position`.execute(db)
    ).rows;
    const rowsOf = async (b: number) =>
      (await sql<Record<string, unknown>>`SELECT * FROM cdrs WHERE batch_id = ${`bench-${b}`}`.execute(db))
        .rows;
    // baseline 2 (PostgreSQL): the same rows by COPY FROM STDIN (CSV), one COPY per batch, into
    // another unindexed table: the fastest way rows go into PostgreSQL, the ratio issue 10 asks for
    const copy = url ? new pg.Client({ connectionString: url }) : null;
    if (copy) {
      await sql`CREATE TABLE bench_cdr_copy (LIKE cdrs)`.execute(db);
      await copy.connect();
    }
    let baselineMs = 0;
    let copyMs: number | null = copy ? 0 : null;
    try {
      for (let b = 0; b < batches.length; b++) {
        const rows = await rowsOf(b);
        const arrays = cols.map((c) => rows.map((r) => textOf(r[c.column_name])));
        const tb = performance.now();
        await sql`INSERT INTO bench_cdr_raw SELECT * FROM unnest(${sql.join(
          cols.map((c, i) => sql`${arrays[i]}::${sql.raw(pgType(c.data_type))}[]`),
        )})`.execute(db);
        baselineMs += performance.now() - tb;
        if (!copy || copyMs === null) continue;
        const text = rows
          .map((r) => cols.map((c) => csvField(textOf(r[c.column_name]))).join(','))
          .join('\n');
        const tc = performance.now();
        await pipeline(
          Readable.from([text + '\n']),
          copy.query(copyFrom('COPY bench_cdr_copy FROM STDIN (FORMAT csv)')),
        );
        copyMs += performance.now() - tc;
      }
    } finally {
      await copy?.end();
    }
    const total = batches.reduce((a, l) => a + l.length, 0);
    const disk = await sql<{ cdrs: string; keys: string; raw: string }>`
      SELECT (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'cdrs'::regclass)::text AS cdrs,
             pg_total_relation_size('cdr_keys')::text AS keys,
             pg_total_relation_size('bench_cdr_raw')::text AS raw`.execute(db);
    const cdrRows = Number(
      (await sql<{ n: string }>`SELECT count(*)::text AS n FROM cdrs`.execute(db)).rows[0]!.n,
    );
    const d = disk.rows[0]!;
    const bytesPerCdr = (Number(d.cdrs) + Number(d.keys)) / cdrRows;

    // visibility: a prepaid customer whose credit a batch uses up; how long until routing refuses
    await db
      .updateTable('carriers')
      .set({ mode: 'prepaid', credit_limit: '0', allowed_credit: '0', unlimited_credit: false })
      .where('client_id', '=', ingress.carrier_id)
      .execute();
    await db.transaction().execute(async (trx) => {
      const bal = await trx
        .selectFrom('carriers')
        .select('balance')
        .where('client_id', '=', ingress.carrier_id)
        .executeTakeFirstOrThrow();
      // bring the balance to 100.00 through the ledger
      const micros = BigInt(Math.round(Number(bal.balance) * 1e6));
      await moveBalances(trx, [
        {
          client_id: ingress.carrier_id,
          kind: 'adjustment',
          ref: 'bench-topup',
          amount: 100_000_000n - micros,
        },
      ]);
    });
    let otherBase: string | null = null;
    if (databaseUrl) {
      // a second server process on the same database (in this process: its own engine, live state, poller)
      const cfg = loadConfig({
        ...process.env,
        DATABASE_URL: built.services.config.databaseUrl!,
        PASSWORD_COST: '10',
        LOG_LEVEL: 'error',
        WEB_DIST: '/nonexistent',
      });
      second = await buildApp(cfg, { logger: false });
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      otherBase = `http://127.0.0.1:${(second.app.server.address() as { port: number }).port}/api`;
    }
    built.services.configChanged.notify();
    await settled(base, token, 1);
    if (otherBase) await settled(otherBase, token);
    const call = { source_ip: '198.51.100.9', source_port: 5060, ani: '15551234567', dnis: '447700900123' };
    const routes = async (b: string) =>
      (await post(`${b}/switch/route`, call, headers)).payload.result as string;
    for (const b of [base, otherBase])
      if (b && (await routes(b)) !== 'route') throw new Error(`not routed before the batch on ${b}`);
    // one batch of 1,000 hour-long UK calls: far more than 100.00
    const drain = cdrs(['447'], ingress.trunk_id, vendors, 1000, 77).map((c) => {
      const start = Date.parse(c.start_time);
      return {
        ...c,
        answer_time: new Date(start + 4000).toISOString(),
        end_time: new Date(start + 4000 + 3_600_000).toISOString(),
        duration: 3600,
        release_cause: 200,
      };
    });
    const tPost = performance.now();
    const r = await post(`${base}/switch/cdr`, { batch_id: 'bench-drain', cdrs: drain }, headers);
    const tCommit = performance.now();
    if (!r.success) throw new Error(JSON.stringify(r));
    const until = async (b: string) => {
      for (;;) {
        if ((await routes(b)) !== 'route') return performance.now() - tCommit;
        if (performance.now() - tCommit > 10_000) return Infinity;
      }
    };
    const sameProcess = await until(base);
    const otherProcess = otherBase ? await until(otherBase) : null;

    const rate = Math.round(total / (ingestMs / 1000));
    const baseRate = Math.round(total / (baselineMs / 1000));
    return {
      database: label,
      cdrs: total,
      batch: BATCH,
      senders: SENDERS,
      traffic: TRAFFIC,
      unpriced,
      ingest_ms: Math.round(ingestMs),
      batch_ms: perBatch,
      cdrs_per_s: rate,
      // CPU time during the ingest: this process (server, and the switch's thread: little) and the
      // PostgreSQL server's processes (Linux /proc; the database is on this machine)
      cpu_ms: {
        process: Math.round((cpu.user + cpu.system) / 1000),
        postgresql: pgCpu,
        // by the process's title: the client backends, autovacuum, the WAL writer... (a process that
        // ended during the run, an autovacuum worker most often, is missing from both sides)
        postgresql_by_process: url ? Object.fromEntries([...pgKinds].filter(([, v]) => v > 0)) : null,
        per_cdr_us: Math.round(((cpu.user + cpu.system) / 1000 + (pgCpu ?? 0)) / (total / 1000)),
      },
      summaries_caught_up_ms: Math.round(catchUpMs),
      sustained_cdrs_per_s: Math.round(total / ((ingestMs + catchUpMs) / 1000)),
      summary_rows: {
        fine: Number(summaryRows.rows[0]!.fine),
        daily_detail: Number(summaryRows.rows[0]!.detail),
        hosts: Number(summaryRows.rows[0]!.hosts),
      },
      baseline_plain_insert_ms: Math.round(baselineMs),
      baseline_cdrs_per_s: baseRate,
      ratio_to_baseline: Math.round((rate / baseRate) * 1000) / 1000,
      baseline_copy_ms: copyMs === null ? null : Math.round(copyMs),
      baseline_copy_cdrs_per_s: copyMs === null ? null : Math.round(total / (copyMs / 1000)),
      ratio_to_copy: copyMs === null ? null : Math.round((rate / (total / (copyMs / 1000))) * 1000) / 1000,
      disk: {
        cdr_partitions_bytes: Number(d.cdrs),
        cdr_keys_bytes: Number(d.keys),
        bytes_per_cdr: Math.round(bytesPerCdr),
        gb_per_million: Math.round((bytesPerCdr * 1e6) / 1e7) / 100,
        raw_unindexed_bytes_per_cdr: Math.round(Number(d.raw) / total),
      },
      visibility_ms: {
        batch_post_ms: Math.round(tCommit - tPost),
        same_process: Math.round(sameProcess * 10) / 10,
        other_process: otherProcess === null ? null : Math.round(otherProcess),
      },
      meets_target: {
        ingest_50k_per_s: rate >= 50_000,
        sustained_50k_per_s: total / ((ingestMs + catchUpMs) / 1000) >= 50_000,
        visible_under_1s: sameProcess < 1000 && (otherProcess === null || otherProcess < 1000),
      },
    };
  } finally {
    if (second) await second.close();
    await built.close();
    await dropDb();
  }
}

/** CPU time (ms) of PostgreSQL's processes by kind (their titles: "client backend" for connections). */
function postgresCpuByKind(): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const key =
        ['checkpointer', 'background writer', 'walwriter', 'autovacuum', 'logical replication'].find((k) =>
          title.includes(k),
        ) ?? 'client backend';
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      kinds.set(key, (kinds.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // the process ended meanwhile
    }
  }
  return kinds;
}

/** CPU time (user + system, ms) of every process named postgres on this machine (Linux /proc). */
function postgresCpuMs(kinds = postgresCpuByKind()): number {
  return [...kinds.values()].reduce((a, b) => a + b, 0);
}

/** A driver value as the text PostgreSQL reads back (null stays null). */
function textOf(v: unknown): string | null {
  return v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v as string);
}

/** A value's text as a CSV field for COPY (FORMAT csv): empty for NULL, quoted otherwise. */
const csvField = (text: string | null): string => (text === null ? '' : '"' + text.replace(/"/g, '""') + '"');

function pgType(informationSchemaType: string): string {
  switch (informationSchemaType) {
    case 'timestamp with time zone':
      return 'timestamptz';
    case 'character varying':
      return 'text';
    default:
      return informationSchemaType;
  }
}

const results = [];
if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await run('pglite', null));
if (process.env.DATABASE_URL) results.push(await run('postgresql', process.env.DATABASE_URL));
console.log(JSON.stringify({ bench: 'POST /api/switch/cdr', machine: machine(), results }, null, 2));
