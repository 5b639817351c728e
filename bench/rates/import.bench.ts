/**
 * Rate import of a generated US NPA-NXX deck (700,000 codes, deterministic) into PostgreSQL through
 * the real path: multipart upload over HTTP to POST /api/rate/rate_table/:id/import, the background
 * job (stream parse, bulk staging, one-transaction apply) until the task is 'Finished'.
 * Scenarios: into an empty table; the same codes and dates with every rate changed, overwrite (every
 * row updated); that deck once more (nothing changes); a new deck with a later effective date
 * ending the previous rates (700,000 inserted, 700,000 end-dated).
 * Baseline in the same run: the same rows pushed into an unindexed temporary table with the same
 * multi-row unnest INSERTs (what moving the bytes into PostgreSQL costs at least).
 * Memory: the process's peak RSS (server and client in this one process).
 * Needs DATABASE_URL (a PostgreSQL server); prints JSON.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { uploadFile } from '../support/upload';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { readCsv } from '../../apps/server/src/modules/rates/import/read-rows';
import { storedSetupCode } from '../../apps/server/src/modules/users/setup-code';

const ROWS = Number(process.env.BENCH_ROWS ?? 700_000);
const LIMIT_S = 15;
const LIMIT_RSS_MB = 1024;

if (!process.env.DATABASE_URL) {
  console.log(JSON.stringify({ skipped: 'rate import benchmark needs DATABASE_URL (PostgreSQL)' }));
  process.exit(0);
}

/** Deterministic deck: 1 + NPA + NXX codes, rates from a linear congruential generator. */
function writeDeck(file: string, rows: number, effective: string, variant: number): number {
  const out = fs.openSync(file, 'w');
  let seed = 12345 + variant * 7919;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const rate = () => `0.${String(next() % 100000).padStart(5, '0')}`;
  let chunk =
    'code,code_name,country,rate,intra_rate,inter_rate,ij_rate,min_time,interval,effective_date,end_date\n';
  let n = 0;
  for (let npa = 201; n < rows; npa++) {
    for (let nxx = 200; nxx <= 999 && n < rows; nxx++, n++) {
      const r = rate();
      chunk += `1${npa}${nxx},"USA, NPA ${npa}",USA,${r},${rate()},${rate()},${rate()},6,6,${effective},\n`;
      if (chunk.length > 1 << 20) {
        fs.writeSync(out, chunk);
        chunk = '';
      }
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
  return fs.statSync(file).size;
}

async function main() {
  const name = `tandem_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = '/' + name;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-rate-bench-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: u.toString(),
    DATA_DIR: dir,
    PASSWORD_COST: '10',
    LOG_LEVEL: 'error',
    WEB_DIST: '/nonexistent',
  });
  const built = await buildApp(config, { logger: false });
  try {
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (built.app.server.address() as { port: number }).port;
    const api = async <T>(method: string, p: string, body?: unknown, token?: string): Promise<T> => {
      const r = await fetch(`http://127.0.0.1:${port}/api${p}`, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { 'x-auth-token': token } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const j = (await r.json()) as { success: boolean; payload: T };
      if (!j.success) throw new Error(`${method} ${p}: ${JSON.stringify(j)}`);
      return j.payload;
    };
    await api('POST', '/user/create', {
      name: 'bench',
      email: 'bench@example.com',
      passwd: 'Bench#2026',
      setup_code: (await storedSetupCode(built.services.db)) ?? '',
    });
    const { token } = await api<{ token: string }>('POST', '/auth', {
      email_or_name: 'bench',
      password: 'Bench#2026',
    });
    const table = await api<{ object_id: number }>(
      'POST',
      '/rate/rate_table/create',
      { name: 'US NPA-NXX', rate_type: 'us_jurisdictional', decimal_places: 5 },
      token,
    );

    const deck1 = path.join(dir, 'deck1.csv');
    const deck2 = path.join(dir, 'deck2.csv');
    const deck3 = path.join(dir, 'deck3.csv');
    const bytes = writeDeck(deck1, ROWS, '2026-01-01', 0);
    writeDeck(deck2, ROWS, '2026-01-01', 1);
    writeDeck(deck3, ROWS, '2026-02-01', 2);

    // Peak RSS while an import runs (sampled), besides the process's lifetime peak.
    let sampledPeak = 0;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss())), 20);
    const pgc = new pg.Client({ connectionString: u.toString() });
    await pgc.connect();
    const engineIdle = async () => {
      for (let i = 0; i < 1200; i++) {
        const st = await api<{ building: boolean; counts: { rates: number } }>(
          'GET',
          '/routing/engine/status',
          undefined,
          token,
        ).catch(() => null);
        if (!st || !st.building) return st?.counts.rates ?? null;
        await new Promise((res) => setTimeout(res, 100));
      }
      return null;
    };
    // Baseline, measured right before each scenario (the machine's load changes over a run): the
    // same file, parsed by the same reader, pushed with the same unnest INSERTs into an unindexed
    // temporary table.
    const client = new pg.Client({ connectionString: u.toString() });
    await client.connect();
    await client.query(
      'CREATE TEMP TABLE baseline (code text, code_name text, country text, rate numeric, intra_rate numeric, inter_rate numeric, ij_rate numeric, min_time int, "interval" int, effective_date timestamptz, end_date timestamptz)',
    );
    const baselineOf = async (file: string) => {
      await client.query('TRUNCATE baseline');
      const b0 = performance.now();
      let header = true;
      for await (const batch of readCsv(file)) {
        const rows = header ? batch.rows.slice(1) : batch.rows;
        header = false;
        for (let i = 0; i < rows.length; i += 20000) {
          const part = rows.slice(i, i + 20000);
          const col = (k: number) => part.map((r) => r[k] || null);
          await client.query(
            'INSERT INTO baseline SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::int[], $9::int[], $10::timestamptz[], $11::timestamptz[])',
            [col(0), col(1), col(2), col(3), col(4), col(5), col(6), col(7), col(8), col(9), col(10)],
          );
        }
      }
      return (performance.now() - b0) / 1000;
    };
    const runImport = async (label: string, file: string, fields: Record<string, string>) => {
      await engineIdle();
      const baseline = await baselineOf(file);
      global.gc?.();
      sampledPeak = process.memoryUsage.rss();
      const rssBefore = sampledPeak;
      const t0 = performance.now();
      const r = await uploadFile(port, `/api/rate/rate_table/${table.object_id}/import`, token, fields, file);
      if (!r.success) throw new Error(JSON.stringify(r));
      const uploaded = performance.now();
      for (;;) {
        const task = await api<{
          status: string;
          inserted_rows: number;
          updated_rows: number;
          ended_rows: number;
          error_rows: number;
          message: string;
        }>('GET', `/rate/import/${r.payload.object_id}`, undefined, token);
        if (task.status !== 'Insert new rate') {
          const seconds = (performance.now() - t0) / 1000;
          if (task.status !== 'Finished') throw new Error(`${label}: ${JSON.stringify(task)}`);
          const timings = (
            await pgc.query<{ t: Record<string, number> }>(
              "SELECT options->'timings' AS t FROM rate_import_results WHERE task_id = $1",
              [r.payload.object_id],
            )
          ).rows[0]?.t;
          const engineRates = await engineIdle();
          return {
            scenario: label,
            seconds: round(seconds),
            upload_seconds: round((uploaded - t0) / 1000),
            rows_per_second: Math.round(ROWS / seconds),
            baseline_seconds: round(baseline),
            ratio_to_baseline: round(seconds / baseline),
            inserted: task.inserted_rows,
            updated: task.updated_rows,
            ended: task.ended_rows,
            errors: task.error_rows,
            job_timings_ms: timings,
            rss_mb: { before: mb(rssBefore), peak_during_import: mb(sampledPeak) },
            engine_rates_after: engineRates,
          };
        }
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    const empty = await runImport('empty table', deck1, { duplicate_mode: 'overwrite' });
    const overwrite = await runImport('same codes and dates, every rate changed, overwrite', deck2, {
      duplicate_mode: 'overwrite',
    });
    const same = await runImport('same deck again, overwrite (nothing changes)', deck2, {
      duplicate_mode: 'overwrite',
    });
    const newer = await runImport('new deck, later effective date, end previous', deck3, {
      duplicate_mode: 'overwrite',
      end_previous: 'true',
    });

    await client.end();
    await pgc.end();
    clearInterval(sampler);

    const rssPeakMb = Math.round(process.resourceUsage().maxRSS / 1024);
    const pgVersion = (await admin.query<{ v: string }>('SHOW server_version')).rows[0]?.v;
    const results = [empty, overwrite, same, newer];
    console.log(
      JSON.stringify(
        {
          benchmark: 'rate import, US NPA-NXX deck',
          machine: {
            cpus: os.cpus().length,
            model: os.cpus()[0]?.model,
            node: process.version,
            postgresql: pgVersion,
          },
          rows: ROWS,
          file_mb: round(bytes / 1048576),
          baseline:
            'measured before each scenario: the same file, same reader, unnest INSERTs of 20,000 rows into an unindexed temp table',
          results,
          peak_rss_mb: rssPeakMb,
          peak_rss_note:
            'lifetime peak of the one process: server, routing engine snapshot (rebuilt after each import with every rate row in memory), import job, upload client',
          limits: { seconds: LIMIT_S, rss_mb: LIMIT_RSS_MB },
          pass: results.every((r) => r.seconds < LIMIT_S && r.rss_mb.peak_during_import < LIMIT_RSS_MB),
        },
        null,
        2,
      ),
    );
  } finally {
    await built.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const round = (x: number) => Math.round(x * 100) / 100;
const mb = (bytes: number) => Math.round(bytes / 1048576);
await main();
