/**
 * Nothing stalls the call path (issue 16): route calls and health pings from a second process
 * (probe.ts) while the server does heavy work, against a same-run baseline without it.
 *   - baseline: the probe alone for BENCH_BASELINE_S seconds;
 *   - import: a BENCH_ROWS-row (300,000) rate deck uploaded (from a third process) to a new rate
 *     table, from the upload until the import is finished and the routing snapshot that reads it
 *     is in service;
 *   - snapshot: a full snapshot load (every rate row read again, as at start-up) and build.
 * The configuration is setup.ts's (the SDF deck as the customer's table and 10 vendors' tables:
 * ~300,000 rate rows, an LCR route over 10 vendors). Runs on PGlite, and on PostgreSQL when
 * DATABASE_URL is set. Prints JSON: per phase the route calls' rate, p50, p99 and worst wait, the
 * pings' p99 and worst, and the route rate as a share of the baseline's.
 *   npx tsx bench/stall/stall.bench.ts
 * Env: BENCH_ROWS (300000), BENCH_BASELINE_S (8), BENCH_CONNECTIONS (4).
 * Targets (issue 16): worst wait under 100 ms, route rate at least half the baseline's.
 */
import { spawn, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { configure, machine, routeBodies, settled, startServer } from '../routing/setup';

const ROWS = Number(process.env.BENCH_ROWS ?? 300_000);
const BASELINE_S = Number(process.env.BENCH_BASELINE_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const here = import.meta.dirname;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A deterministic US deck of `rows` codes with the columns real decks have. */
function writeDeck(file: string, rows: number): void {
  const out = fs.openSync(file, 'w');
  let chunk = 'code,code_name,country,rate,intra_rate,inter_rate,min_time,interval,effective_date\n';
  let n = 0;
  for (let npa = 201; n < rows; npa++) {
    for (let nxx = 200; nxx <= 999 && n < rows; nxx++, n++) {
      const r = `0.${String((n * 7919) % 100000).padStart(5, '0')}`;
      chunk += `1${npa}${nxx},"USA, NPA ${npa}",USA,${r},${r},${r},6,6,2026-01-01 00:00:00\n`;
      if (chunk.length > 1 << 20) {
        fs.writeSync(out, chunk);
        chunk = '';
      }
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}

interface PhaseResult {
  phase: string;
  seconds: number;
  route: { calls: number; failed: number; rps: number; p50_ms: number; p99_ms: number; max_ms: number };
  health: { pings: number; failed: number; p99_ms: number; max_ms: number };
}

async function run(label: string, databaseUrl: string | null, deck: string) {
  const { built, base, token, dropDb } = await startServer(databaseUrl);
  const tmp = path.join(os.tmpdir(), `tandem-stall-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(tmp);
  try {
    const { key, sdf } = await configure(built, base, token, 'sdf');
    let status = await settled(base, token);
    const bodiesFile = path.join(tmp, 'bodies.json');
    fs.writeFileSync(
      bodiesFile,
      JSON.stringify(
        routeBodies(
          sdf.map((d) => d.code),
          5000,
        ),
      ),
    );
    const api = (method: string, p: string, body?: unknown) =>
      fetch(base + p, {
        method,
        headers: { 'content-type': 'application/json', 'x-auth-token': token },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ success: boolean; payload: Record<string, unknown> }>);
    const table = Number(
      (await api('POST', '/rate/rate_table/create', { name: 'Stall deck' })).payload.object_id,
    );

    const probe = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'probe.ts'), base, key, bodiesFile, String(CONNECTIONS)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    probe.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((resolve) => probe.on('exit', () => resolve()));
    const phase = (name: string) => probe.stdin.write(`phase ${name}\n`);

    phase('warm-up');
    await sleep(3000);
    phase('baseline');
    await sleep(BASELINE_S * 1000);

    // The import: upload, the background job, and the snapshot rebuild that reads the new table.
    phase('import');
    const t0 = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      path.join(here, 'upload.ts'),
      `${base}/rate/rate_table/${table}/import`,
      token,
      deck,
    ]);
    const taskId = Number((JSON.parse(stdout) as { payload: { object_id: number } }).payload.object_id);
    const progress: { at_s: number; progress: number; live: unknown }[] = [];
    let task: Record<string, unknown>;
    for (;;) {
      task = (await api('GET', `/rate/import/${taskId}`)).payload;
      progress.push({
        at_s: Math.round(performance.now() - t0) / 1000,
        progress: task.progress as number,
        live: task.live,
      });
      if (task.status !== 'Insert new rate') break;
      await sleep(500);
    }
    const importMs = Math.round(performance.now() - t0);
    status = await settled(base, token, status.version);
    const importAndSnapshotMs = Math.round(performance.now() - t0);

    phase('between');
    await sleep(2000);
    // A full load: the rate cache reads every rate row again (the change log's "whole database" mark).
    phase('snapshot');
    const t1 = performance.now();
    await sql`INSERT INTO rate_changes (rate_table_id, rate_id) VALUES (0, NULL)`.execute(built.services.db);
    built.services.configChanged.notify();
    const full = await settled(base, token, status.version);
    const snapshotMs = Math.round(performance.now() - t1);
    probe.stdin.write('stop\n');
    await exited;
    const phases = (JSON.parse(out) as PhaseResult[]).filter((p) => p.phase !== 'between');
    const baseline = phases.find((p) => p.phase === 'baseline')!;
    return {
      database: label,
      import: {
        rows: ROWS,
        status: task.status,
        total_rows: task.total_rows,
        inserted_rows: task.inserted_rows,
        ms: importMs,
        with_snapshot_ms: importAndSnapshotMs,
        progress,
      },
      snapshot: {
        kind: full.load_kind,
        rates: full.counts.rates,
        load_ms: full.load_ms,
        build_ms: full.build_ms,
        ms: snapshotMs,
      },
      phases: phases.map((p) => ({
        ...p,
        route_rate_vs_baseline: Math.round((p.route.rps / Math.max(1, baseline.route.rps)) * 100) / 100,
        worst_wait_ms: Math.max(p.route.max_ms, p.health.max_ms),
        meets_target:
          p.phase === 'baseline'
            ? null
            : Math.max(p.route.max_ms, p.health.max_ms) <= 100 && p.route.rps >= baseline.route.rps / 2,
      })),
    };
  } finally {
    await built.close();
    await dropDb();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const deck = path.join(os.tmpdir(), `tandem-stall-deck-${ROWS}.csv`);
if (!fs.existsSync(deck)) writeDeck(deck, ROWS);
const only = process.env.BENCH_ONLY; // 'pglite' | 'postgresql'
const results = [];
if (only !== 'postgresql') results.push(await run('pglite', null, deck));
if (process.env.DATABASE_URL && only !== 'pglite')
  results.push(await run('postgresql', process.env.DATABASE_URL, deck));
console.log(
  JSON.stringify(
    {
      bench: 'stall: route calls and pings during heavy work',
      machine: machine(),
      connections: CONNECTIONS,
      results,
    },
    null,
    2,
  ),
);
