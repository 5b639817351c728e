/**
 * DID import (issue 14): BENCH_DIDS numbers (default 1,000,000, one per line, 10 digits) imported
 * into PostgreSQL through the real path: the CSV file uploaded over HTTP to POST
 * /api/did/import/file (the request reads and checks the whole file, then queues the durable job
 * `did.import` with its import log row), the job writing the numbers in steps of 50,000 (each step
 * one transaction: the numbers, their history rows, the log row's counts) and the vendor's import
 * charge at the end, until the log row is `finished`. Then the routing snapshot's rebuild with every
 * DID (it holds them all, docs/did.md "Not done yet").
 *
 * Same-run baseline: the same file loaded by the database itself, `COPY bench_copy (number) FROM
 * '<file>'` into a copy of `dids` (its columns, defaults, CHECK and indexes: the unique number),
 * the least any import of these rows can cost; when the server cannot read the file (a database on
 * another machine) the baseline is the same rows pushed as multi-row `INSERT ... SELECT unnest` of
 * 50,000 numbers. Target: under 30 s for the import (docs/performance.md).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/did/import.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { uploadFile } from '../support/upload';
import { settled, startServer } from '../routing/setup';

const NUMBERS = Number(process.env.BENCH_DIDS ?? 1_000_000);
const LIMIT_S = 30;

if (!process.env.DATABASE_URL) {
  console.log(JSON.stringify({ skipped: 'DID import benchmark needs DATABASE_URL (PostgreSQL)' }));
  process.exit(0);
}

const round = (x: number) => Math.round(x * 100) / 100;
const number = (i: number) => `49${String(i).padStart(8, '0')}`;

async function main() {
  const { built, base, token, dropDb } = await startServer(process.env.DATABASE_URL!);
  const db = built.services.db;
  // A folder the database server can read too (it runs on this machine for the COPY baseline).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-did-bench-'));
  fs.chmodSync(dir, 0o755);
  try {
    const port = Number(new URL(base).port);
    const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
      const r = await fetch(`${base}${p}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-auth-token': token },
        body: body ? JSON.stringify(body) : undefined,
      });
      const j = (await r.json()) as { success: boolean; payload: T };
      if (!j.success) throw new Error(`${method} ${p}: ${JSON.stringify(j)}`);
      return j.payload;
    };
    const rule = await api<{ object_id: number }>('POST', '/did/billing_rule/create', {
      name: 'Bench vendor cost',
      monthly_price: '0.5',
      per_minute: '0.004',
      setup_fee: '0.1',
    });
    const vendor = await api<{ object_id: number }>('POST', '/did/vendor/create', {
      name: 'Bench DID vendor',
      hosts: ['203.0.113.77'],
      billing_rule_id: rule.object_id,
    });
    const before = await settled(base, token);

    const file = path.join(dir, 'dids.csv');
    const out = fs.openSync(file, 'w');
    let chunk = '';
    for (let i = 0; i < NUMBERS; i++) {
      chunk += number(i) + '\n';
      if (chunk.length > 1 << 20) {
        fs.writeSync(out, chunk);
        chunk = '';
      }
    }
    fs.writeSync(out, chunk);
    fs.closeSync(out);
    fs.chmodSync(file, 0o644);
    const bytes = fs.statSync(file).size;

    // The real path: upload, check and queue; the job writes the steps.
    const t0 = performance.now();
    const r = await uploadFile<{ task_id: number; job_id: number; total: number }>(
      port,
      '/api/did/import/file',
      token,
      { vendor_id: String(vendor.object_id), duplicate: 'ignore' },
      file,
    );
    if (!r.success) throw new Error(JSON.stringify(r));
    const queued = performance.now();
    let task: { status: string; done: number; inserted: number; error: string } | undefined;
    for (;;) {
      task = await db
        .selectFrom('did_upload_tasks')
        .select(['status', 'done', 'inserted', 'error'])
        .where('id', '=', r.payload.task_id)
        .executeTakeFirstOrThrow();
      if (task.status === 'finished' || task.status === 'failed') break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const importS = (performance.now() - t0) / 1000;
    if (task.status !== 'finished') throw new Error(`import failed: ${task.error}`);
    const t1 = performance.now();
    const snapshot = await settled(base, token, before.version);
    const rebuildS = (performance.now() - t1) / 1000;
    const counts = (
      await sql<{ dids: string; history: string; charges: string }>`
        SELECT (SELECT count(*) FROM dids)::text AS dids,
          (SELECT count(*) FROM did_history WHERE action = 'imported')::text AS history,
          (SELECT count(*) FROM ledger WHERE kind = 'did_charge')::text AS charges`.execute(db)
    ).rows[0]!;

    // Baseline: the database loads the same file itself into a copy of dids.
    await sql`CREATE TABLE bench_copy (LIKE dids INCLUDING ALL)`.execute(db);
    await sql
      .raw(
        `ALTER TABLE bench_copy ALTER vendor_id SET DEFAULT ${vendor.object_id}, ALTER created_at SET DEFAULT now(), ALTER updated_at SET DEFAULT now()`,
      )
      .execute(db);
    let baselineKind = 'COPY FROM file';
    let b0 = performance.now();
    try {
      await sql.raw(`COPY bench_copy (number) FROM '${file}'`).execute(db);
    } catch (e) {
      baselineKind = `multi-row INSERT ... unnest, 50,000 per statement (COPY refused: ${(e as Error).message})`;
      await sql`TRUNCATE bench_copy`.execute(db);
      b0 = performance.now();
      for (let i = 0; i < NUMBERS; i += 50_000) {
        const part = Array.from({ length: Math.min(50_000, NUMBERS - i) }, (_, k) => number(i + k));
        await sql`INSERT INTO bench_copy (number) SELECT unnest(${part}::text[])`.execute(db);
      }
    }
    const baselineS = (performance.now() - b0) / 1000;
    const copied = Number(
      (await sql<{ n: string }>`SELECT count(*)::text AS n FROM bench_copy`.execute(db)).rows[0]!.n,
    );
    const pgVersion = (await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db))
      .rows[0]?.v;

    const result = {
      benchmark: 'DID import, CSV file through POST /api/did/import/file and the did.import job',
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        node: process.version,
        postgresql: pgVersion,
      },
      numbers: NUMBERS,
      file_mb: round(bytes / 1048576),
      import_seconds: round(importS),
      upload_check_and_queue_seconds: round((queued - t0) / 1000),
      job_seconds: round(importS - (queued - t0) / 1000),
      numbers_per_second: Math.round(NUMBERS / importS),
      baseline: baselineKind,
      baseline_seconds: round(baselineS),
      ratio_to_baseline: round(importS / baselineS),
      snapshot_rebuild_seconds_after: round(rebuildS),
      snapshot_build_ms: snapshot.build_ms,
      snapshot_load_ms: snapshot.load_ms,
      stored: {
        dids: Number(counts.dids),
        history: Number(counts.history),
        charge_rows: Number(counts.charges),
      },
      baseline_rows: copied,
      limit_seconds: LIMIT_S,
      pass:
        importS < LIMIT_S &&
        Number(counts.dids) === NUMBERS &&
        Number(counts.history) === NUMBERS &&
        copied === NUMBERS &&
        task.inserted === NUMBERS,
    };
    console.log(JSON.stringify(result, null, 2));
    if (!result.pass) process.exitCode = 1;
  } finally {
    await built.close();
    await dropDb();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
