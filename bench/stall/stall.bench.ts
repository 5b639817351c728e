/**
 * Nothing stalls the call path (issue 16): route calls and health pings from a second process
 * (probe.ts) while the server does heavy work, against a same-run baseline without it.
 *   - baseline: the probe alone for BENCH_BASELINE_S seconds;
 *   - import: a BENCH_ROWS-row (300,000) rate deck uploaded (from a third process) to a new rate
 *     table, from the upload until the import is finished and the routing snapshot that reads it
 *     is in service;
 *   - snapshot: a full snapshot load (every rate row read again, as at start-up) and build;
 *   - cdr-ingest: BENCH_CDRS (100,000) CDRs of one day posted to /api/switch/cdr in batches of
 *     10,000 (the bodies are built before the phase, so only the server's work is measured);
 *   - export: a CSV export (kind cdr, the background job) of BENCH_EXPORT_CDRS (1,000,000) CDRs: the
 *     ingested day plus copies on the next day made by SQL before the phase;
 *   - rerate: the customer's rates raised 10 % (the snapshot rebuilt before the phase), then a rerate
 *     of the ingested day: preview and apply, until applied.
 * The configuration is setup.ts's (the SDF deck as the customer's table and 10 vendors' tables:
 * ~300,000 rate rows, an LCR route over 10 vendors). Runs on PGlite, and on PostgreSQL when
 * DATABASE_URL is set. Prints JSON: per phase the route calls' rate, p50, p99 and worst wait, the
 * pings' p99 and worst, and the route rate as a share of the baseline's.
 *   npx tsx bench/stall/stall.bench.ts
 * Env: BENCH_ROWS (300000), BENCH_BASELINE_S (8), BENCH_CONNECTIONS (4), BENCH_CDRS (100000),
 * BENCH_EXPORT_CDRS (1000000), BENCH_PHASES (comma list of import,snapshot,cdr; all by default),
 * BENCH_PROBE_NICE (the probe's nice value, e.g. -10: it gets the CPU before the database),
 * BENCH_PROBE_CLIENT (raw: route calls on raw keep-alive sockets, the default; http: Node's client).
 * Targets (issue 16): worst wait under 100 ms, route rate at least half the baseline's.
 */
import { spawn, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { CdrPartitions, dayOf } from '../../apps/server/src/modules/cdr/partitions';
import { benchTrunks, cdrBatches } from '../cdr/generate';
import { configure, machine, routeBodies, settled, startServer } from '../routing/setup';

const ROWS = Number(process.env.BENCH_ROWS ?? 300_000);
const BASELINE_S = Number(process.env.BENCH_BASELINE_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const CDRS = Number(process.env.BENCH_CDRS ?? 100_000);
const EXPORT_CDRS = Number(process.env.BENCH_EXPORT_CDRS ?? 1_000_000);
const PROBE_NICE = process.env.BENCH_PROBE_NICE;
const PHASES = new Set((process.env.BENCH_PHASES ?? 'import,snapshot,cdr').split(','));
const CDR_DAY = Date.parse('2026-11-20T00:00:00Z');
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
  probe_cpu: number;
  slow: [number, number, string][];
}

async function run(label: string, databaseUrl: string | null, deck: string) {
  const { built, base, token, dropDb } = await startServer(databaseUrl);
  const tmp = path.join(os.tmpdir(), `tandem-stall-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(tmp);
  try {
    const { key, sdf, customerTable } = await configure(built, base, token, 'sdf');
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
        // No content type without a body (Fastify refuses an empty JSON body).
        headers: {
          'x-auth-token': token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ success: boolean; payload: Record<string, unknown> }>);
    const table = Number(
      (await api('POST', '/rate/rate_table/create', { name: 'Stall deck' })).payload.object_id,
    );

    // BENCH_PROBE_NICE (e.g. -10, as root): the probe before the database's processes for the CPU,
    // as a switch on its own machine; on two cores it otherwise competes with PostgreSQL (or PGlite's
    // thread) and its rate says as much about the machine as about the server.
    const probeArgs = [
      '--import',
      'tsx',
      path.join(here, 'probe.ts'),
      base,
      key,
      bodiesFile,
      String(CONNECTIONS),
    ];
    const probe = PROBE_NICE
      ? spawn('nice', ['-n', PROBE_NICE, process.execPath, ...probeArgs], {
          stdio: ['pipe', 'pipe', 'inherit'],
        })
      : spawn(process.execPath, probeArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    probe.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((resolve) => probe.on('exit', () => resolve()));
    const began = performance.now();
    // The server's own event-loop delay per phase (it runs in this process): tells a stall of the
    // server's thread from a probe that waited because the machine's two cores were taken.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const serverMaxMs: Record<string, number> = {};
    // ...and how busy its thread was (event-loop utilisation: 1 = never idle).
    const serverBusy: Record<string, number> = {};
    let elu = performance.eventLoopUtilization();
    let current = '';
    // The server's own stalls per phase, to line up with the probe's slow waits: garbage collections
    // of 10 ms or more and turns of the loop 40 ms or more late ([ms into the phase, ms, what]).
    const stalls: Record<string, [number, number, string][]> = {};
    let phaseAt = performance.now();
    const stall = (at: number, ms: number, what: string) => {
      const list = (stalls[current] ??= []);
      if (list.length < 30) list.push([Math.round(at - phaseAt), Math.round(ms), what]);
    };
    const GC_KINDS: Record<number, string> = {
      [constants.NODE_PERFORMANCE_GC_MINOR]: 'gc minor',
      [constants.NODE_PERFORMANCE_GC_MAJOR]: 'gc major',
      [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'gc incremental',
      [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'gc weak callbacks',
    };
    const gcs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e as { detail?: { kind?: number } }).detail?.kind ?? 0;
        if (e.duration >= 10) stall(e.startTime, e.duration, GC_KINDS[kind] ?? `gc ${kind}`);
      }
    });
    gcs.observe({ entryTypes: ['gc'] });
    let tickAt = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      if (now - tickAt - 5 >= 40) stall(tickAt, now - tickAt - 5, 'loop late');
      tickAt = now;
    }, 5);
    const endPhase = () => {
      serverMaxMs[current] = Math.round(loopDelay.max / 1e5) / 10;
      serverBusy[current] = Math.round(performance.eventLoopUtilization(elu).utilization * 100) / 100;
    };
    const phase = (name: string) => {
      // Where a long run is (stderr), and the probe's phase mark.
      console.error(`[${label} +${((performance.now() - began) / 1000).toFixed(1)} s] ${name}`);
      probe.stdin.write(`phase ${name}\n`);
      if (current) endPhase();
      loopDelay.reset();
      phaseAt = performance.now();
      elu = performance.eventLoopUtilization();
      current = name;
    };

    /** CDR ingest, a 1M-CDR export and a rerate, each its own phase. */
    async function cdrPhases(version: number) {
      const db = built.services.db;
      // Making the bodies holds this process (the server's) for a while: not a phase's figure.
      phase('between');
      const batches = cdrBatches(
        sdf.map((d) => d.code),
        await benchTrunks(db),
        CDR_DAY,
        CDRS,
      ).map((b) => JSON.stringify(b));
      await sleep(200); // the delay of that block is recorded when the loop turns: in 'between'
      phase('cdr-ingest');
      const i0 = performance.now();
      for (const body of batches) {
        const r = await fetch(base + '/switch/cdr', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-switch-key': key },
          body,
        });
        const env = (await r.json()) as { success: boolean; error: unknown };
        if (!env.success) throw new Error(`cdr ingest: ${JSON.stringify(env.error)}`);
      }
      const ingestMs = Math.round(performance.now() - i0);

      // Copies of the ingested day on the next day, by SQL, up to EXPORT_CDRS in all.
      phase('between');
      const copies = Math.max(0, Math.ceil((EXPORT_CDRS - CDRS) / CDRS));
      if (copies) {
        await new CdrPartitions(db).ensure([dayOf(CDR_DAY + 86_400_000)]);
        const cols = (
          await sql<{ c: string }>`SELECT column_name AS c FROM information_schema.columns
            WHERE table_name = 'cdrs' AND table_schema = current_schema() 
            ORDER BY ordinal_position`.execute(db)
        ).rows.map((r) => r.c);
        const shifted: Record<string, string> = {
          cdr_id: `nextval('cdr_keys_cdr_id_seq')`,
          call_id: `call_id || '-' || g`,
          start_time: `start_time + interval '1 day'`,
          answer_time: `answer_time + interval '1 day'`,
          end_time: `end_time + interval '1 day'`,
        };
        const list = cols.map((c) => `"${c}"`).join(', ');
        const select = cols.map((c) => shifted[c] ?? `"${c}"`).join(', ');
        await sql
          .raw(
            `INSERT INTO cdrs (${list}) SELECT ${select} FROM cdrs CROSS JOIN generate_series(1, ${copies}) g
             WHERE start_time < '${new Date(CDR_DAY + 86_400_000).toISOString()}'
             LIMIT ${EXPORT_CDRS - CDRS}`,
          )
          .execute(db);
      }
      const exported = Number(
        (await sql<{ n: string }>`SELECT count(*)::text AS n FROM cdrs`.execute(db)).rows[0]!.n,
      );
      phase('export');
      const e0 = performance.now();
      const started = await api('POST', '/export/create', {
        kind: 'cdr',
        filter: {
          start: new Date(CDR_DAY).toISOString(),
          end: new Date(CDR_DAY + 2 * 86_400_000).toISOString(),
        },
      });
      if (!started.success) throw new Error(`export: ${JSON.stringify(started)}`);
      let exportRow: Record<string, unknown> | undefined;
      for (;;) {
        const items = (await api('GET', '/log/export?per_page=10')).payload.items as Record<
          string,
          unknown
        >[];
        exportRow = items.find((x) => x.id === started.payload.object_id);
        if (exportRow && exportRow.status !== 'pending' && exportRow.status !== 'running') break;
        await sleep(500);
      }
      const exportMs = Math.round(performance.now() - e0);

      phase('between');
      await sql`UPDATE rates SET rate = round(rate * 1.1, 4) WHERE rate_table_id = ${customerTable}`.execute(
        db,
      );
      built.services.configChanged.notify();
      await settled(base, token, version);
      phase('rerate');
      const r0 = performance.now();
      const created = await api('POST', '/tools/rerate/create', {
        start_time: new Date(CDR_DAY).toISOString(),
        end_time: new Date(CDR_DAY + 86_400_000).toISOString(),
      });
      if (!created.success) throw new Error(`rerate: ${JSON.stringify(created)}`);
      const id = Number(created.payload.object_id);
      const waitFor = async (state: string) => {
        for (;;) {
          const run = (await api('GET', `/tools/rerate/${id}`)).payload;
          if (run.state === state) return run;
          if (run.state === 'failed') throw new Error(String(run.error));
          await sleep(200);
        }
      };
      const previewed = await waitFor('previewed');
      const apply = await api('PATCH', `/tools/rerate/${id}/apply`);
      if (!apply.success) throw new Error(`rerate apply: ${JSON.stringify(apply)}`);
      const applied = await waitFor('applied');
      const rerateMs = Math.round(performance.now() - r0);
      return {
        ingest: { cdrs: CDRS, ms: ingestMs, per_s: Math.round(CDRS / (ingestMs / 1000)) },
        export: {
          cdrs_in_range: exported,
          status: exportRow?.status,
          rows: exportRow?.row_count,
          ms: exportMs,
        },
        // The figures without their sample rows and per-carrier lists.
        rerate: {
          cdrs: (previewed.preview as { cdrs: number }).cdrs,
          changed: (applied.result as { changed: number }).changed,
          ms: rerateMs,
        },
      };
    }

    phase('warm-up');
    await sleep(3000);
    phase('baseline');
    await sleep(BASELINE_S * 1000);

    // The import: upload, the background job, and the snapshot rebuild that reads the new table.
    phase('import');
    const t0 = performance.now();
    const { stdout } = !PHASES.has('import')
      ? { stdout: JSON.stringify({ payload: { object_id: 0 } }) }
      : await promisify(execFile)(process.execPath, [
          '--import',
          'tsx',
          path.join(here, 'upload.ts'),
          `${base}/rate/rate_table/${table}/import`,
          token,
          deck,
        ]);
    const taskId = Number((JSON.parse(stdout) as { payload: { object_id: number } }).payload.object_id);
    const progress: { at_s: number; progress: number; live: unknown }[] = [];
    let task: Record<string, unknown> = {};
    for (;;) {
      if (!PHASES.has('import')) break;
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
    if (PHASES.has('import')) status = await settled(base, token, status.version);
    const importAndSnapshotMs = Math.round(performance.now() - t0);

    phase('between');
    await sleep(2000);
    // A full load: the rate cache reads every rate row again (the change log's "whole database" mark).
    phase('snapshot');
    const t1 = performance.now();
    let full = status;
    if (PHASES.has('snapshot')) {
      await sql`INSERT INTO rate_changes (rate_table_id, rate_id) VALUES (0, NULL)`.execute(
        built.services.db,
      );
      built.services.configChanged.notify();
      full = await settled(base, token, status.version);
    }
    const snapshotMs = Math.round(performance.now() - t1);
    const cdr = PHASES.has('cdr') ? await cdrPhases(full.version) : null;
    endPhase();
    loopDelay.disable();
    gcs.disconnect();
    clearInterval(ticker);
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
      cdr,
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
        server_loop_delay_max_ms: serverMaxMs[p.phase] ?? null,
        server_busy: serverBusy[p.phase] ?? null,
        server_stalls: stalls[p.phase] ?? [],
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
const results: Awaited<ReturnType<typeof run>>[] = [];
// Each database's result goes to stderr as soon as it is done (a long run stopped midway keeps what
// it measured); the whole document to stdout at the end.
const done = (r: Awaited<ReturnType<typeof run>>) => {
  results.push(r);
  console.error(JSON.stringify(r));
};
if (only !== 'postgresql') done(await run('pglite', null, deck));
if (process.env.DATABASE_URL && only !== 'pglite')
  done(await run('postgresql', process.env.DATABASE_URL, deck));
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
