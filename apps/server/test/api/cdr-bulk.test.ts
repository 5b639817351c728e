import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, importCdrsCommand } from '../../src/cli-commands';
import { cdrFileBatches } from '../../src/modules/cdr/cdr-file';
import { seedDemoTraffic } from '../../src/modules/cdr/demo-traffic';
import { openStandaloneIngest } from '../../src/modules/cdr/standalone';
import { startHarness, type Harness } from './harness';
import { cdrOf } from './cdr-fixtures';
import { lcrOverVendors, rebuildAfter, termination, type Fixture } from './routing-fixtures';

// Bulk ingest (ingestMany), the import-cdrs command and the demo traffic, on the harness's database
// (PGlite in memory, or a fresh PostgreSQL database when DATABASE_URL is set).

let h: Harness;
let f: Fixture;
let dir: string;
const lines: string[] = [];
const out = (l: string) => void lines.push(l);

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.setupAdmin();
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cdr-bulk-'));
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await h.close();
});

const db = () => h.built.services.db;
const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db())).rows[0]!;
const count = async (where = sql`true`) =>
  (await one(sql<{ n: number }>`SELECT count(*)::int AS n FROM cdrs WHERE ${where}`)).n;
/** Carriers whose stored balance differs from their ledger sum. */
const unbalanced = async () =>
  (
    await sql<{ client_id: number }>`
      SELECT c.client_id FROM carriers c
      LEFT JOIN (SELECT client_id, sum(amount) AS s FROM ledger GROUP BY client_id) l ON l.client_id = c.client_id
      WHERE c.balance <> coalesce(l.s, 0)`.execute(db())
  ).rows;
const balance = async (id: number) =>
  (await one(sql<{ b: string }>`SELECT balance::text AS b FROM carriers WHERE client_id = ${id}`)).b;

const FIELDS = [
  'call_id',
  'attempt',
  'is_final_attempt',
  'start_time',
  'answer_time',
  'end_time',
  'duration',
  'ingress_trunk_id',
  'egress_trunk_id',
  'source_ip',
  'ani',
  'dnis',
  'egress_dnis',
  'release_cause',
  'release_side',
  'pdd_ms',
];
function writeCsv(name: string, cdrs: Record<string, unknown>[]): string {
  const file = path.join(dir, name);
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v as string));
  fs.writeFileSync(
    file,
    [FIELDS.join(','), ...cdrs.map((c) => FIELDS.map((k) => cell(c[k])).join(','))].join('\r\n'),
  );
  return file;
}
function writeJsonl(name: string, cdrs: Record<string, unknown>[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, cdrs.map((c) => JSON.stringify(c)).join('\n') + '\n');
  return file;
}

describe('tandem import-cdrs', () => {
  it('bills a CSV file in batches with progress and a summary; a second run bills nothing', async () => {
    const cdrs = [
      ...Array.from({ length: 7 }, () => cdrOf(f, { duration: 60 })), // UK 0.05 each
      cdrOf(f, { duration: 0 }),
      cdrOf(f, { dnis: '33123456789' }), // no rate: stored unpriced
      { ...cdrOf(f), ani: '', egress_trunk_id: null, egress_dnis: null },
    ];
    const file = writeCsv('calls.csv', cdrs);
    const before = Number(await balance(f.customer));
    lines.length = 0;
    const t = await importCdrsCommand(h.built.services, { file, batchSize: 3 }, out);
    expect(t).toMatchObject({ batches: 4, received: 10, stored: 10, duplicates: 0, unpriced: 1 });
    expect(lines[0]).toMatch(/10 CDRs, batches of 3/);
    expect(lines.filter((l) => /^\s+\d+\/10 /.test(l))).toHaveLength(4);
    expect(lines.at(-1)).toMatch(/stored 10, duplicates 0, unpriced 1; revenue 0\.400000/);
    expect(Number(await balance(f.customer))).toBeCloseTo(before - 0.4, 6);
    expect(await count(sql`batch_id LIKE 'file-%'`)).toBe(10);
    expect(await unbalanced()).toEqual([]);
    const row = await one(
      sql<{
        ani: string;
        egress_trunk_id: number | null;
      }>`SELECT ani, egress_trunk_id FROM cdrs WHERE call_id = ${cdrs[9]!.call_id as string}`,
    );
    expect(row).toEqual({ ani: '', egress_trunk_id: null });

    lines.length = 0;
    const again = await importCdrsCommand(h.built.services, { file, batchSize: 3 }, out);
    expect(again).toMatchObject({ batches: 4, skipped_batches: 4, stored: 0, duplicates: 10 });
    expect(lines.filter((l) => /imported before, skipped/.test(l))).toHaveLength(4);
    // batched differently: other batch ids, but every (call_id, attempt) is stored already
    const third = await importCdrsCommand(h.built.services, { file, batchSize: 4 }, out);
    expect(third).toMatchObject({ stored: 0, duplicates: 10, skipped_batches: 0 });
    expect(Number(await balance(f.customer))).toBeCloseTo(before - 0.4, 6);
    expect(await count(sql`batch_id LIKE 'file-%'`)).toBe(10);
  });

  it('resumes a stopped import: the batches done are skipped, the rest billed once', async () => {
    const cdrs = Array.from({ length: 9 }, () => cdrOf(f, { duration: 30, dnis: '12125550100' })); // 0.01 each
    const file = writeJsonl('calls.jsonl', cdrs);
    const before = Number(await balance(f.customer));
    // the first two batches of three went in before the stop
    const standalone = await openStandaloneIngest(h.built.services);
    try {
      let n = 0;
      async function* firstTwo() {
        for await (const b of cdrFileBatches(file, 'jsonl', 3)) if (n++ < 2) yield b;
      }
      expect((await standalone.ingest.ingestMany(firstTwo(), 'file')).stored).toBe(6);
    } finally {
      await standalone.close();
    }
    const t = await importCdrsCommand(h.built.services, { file, batchSize: 3 }, out);
    expect(t).toMatchObject({ batches: 3, skipped_batches: 2, stored: 3, duplicates: 6 });
    expect(Number(await balance(f.customer))).toBeCloseTo(before - 0.09, 6);
    expect(await unbalanced()).toEqual([]);
  });

  it('refuses a file with a bad CDR, naming its line and field, and stores nothing', async () => {
    const bad = cdrOf(f);
    bad.end_time = '2026-11-20T09:00:00Z';
    const wrongType = { ...cdrOf(f), duration: 'long' };
    const file = writeCsv('bad.csv', [cdrOf(f), bad, cdrOf(f), wrongType]);
    const before = await count();
    const err = await importCdrsCommand(h.built.services, { file, batchSize: 10 }, out).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/nothing stored/);
    expect((err as Error).message).toMatch(/line 3, end_time/);
    expect((err as Error).message).toMatch(/line 5, duration/);
    const unknownColumn = path.join(dir, 'unknown.csv');
    fs.writeFileSync(unknownColumn, 'call_id,colour\nx,red\n');
    await expect(
      importCdrsCommand(h.built.services, { file: unknownColumn, batchSize: 10 }, out),
    ).rejects.toThrow(/line 1, colour: Unknown column\(s\) in the header row: colour/);
    const notJson = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(notJson, `${JSON.stringify(cdrOf(f))}\n{oops\n`);
    await expect(importCdrsCommand(h.built.services, { file: notJson, batchSize: 10 }, out)).rejects.toThrow(
      /line 2, CDR: not a JSON object/,
    );
    await expect(
      importCdrsCommand(h.built.services, { file: path.join(dir, 'missing.csv'), batchSize: 10 }, out),
    ).rejects.toThrow(/no such file/);
    await expect(importCdrsCommand(h.built.services, { file: 'x.txt', batchSize: 10 }, out)).rejects.toThrow(
      /\.csv, \.jsonl/,
    );
    await expect(importCdrsCommand(h.built.services, { file, batchSize: 0 }, out)).rejects.toThrow(
      /--batch-size/,
    );
    expect(await count()).toBe(before);
  });
});

describe('seedDemoTraffic', () => {
  it('sends a month of routed attempts through the ingest, and nothing the second time', async () => {
    const now = new Date();
    const r = await seedDemoTraffic(h.built.services, { calls: 3_000, now });
    expect(r.planned).toBe(2);
    expect(r.batches).toBe(2);
    expect(r.stored).toBe(r.received);
    expect(r.stored).toBeGreaterThan(3_000); // failovers make more attempts than calls

    const s = await one(
      sql<{
        calls: number;
        attempts: number;
        answered: number;
        failovers: number;
        unpriced: number;
        first: Date;
        last: Date;
        acd: number;
        pdd: number;
        causes: number;
        finals: number;
      }>`
      SELECT count(DISTINCT call_id)::int AS calls, count(*)::int AS attempts,
        count(*) FILTER (WHERE call_duration > 0)::int AS answered,
        count(*) FILTER (WHERE attempt > 1)::int AS failovers,
        count(*) FILTER (WHERE unpriced_reason IS NOT NULL)::int AS unpriced,
        min(start_time) AS first, max(start_time) AS last,
        avg(call_duration) FILTER (WHERE call_duration > 0)::float8 AS acd,
        avg(pdd) FILTER (WHERE call_duration > 0)::float8 AS pdd,
        count(DISTINCT release_cause)::int AS causes,
        count(*) FILTER (WHERE is_final_attempt)::int AS finals
      FROM cdrs WHERE batch_id LIKE 'demo-%'`,
    );
    expect(s.calls).toBe(3_000);
    expect(s.finals).toBe(3_000);
    expect(s.answered / s.calls).toBeGreaterThan(0.3); // ASR
    expect(s.answered / s.calls).toBeLessThan(0.75);
    expect(s.failovers).toBeGreaterThan(30);
    expect(s.unpriced).toBeGreaterThan(0);
    expect(s.unpriced / s.attempts).toBeLessThan(0.05);
    expect(s.acd).toBeGreaterThan(100); // about 3 minutes
    expect(s.acd).toBeLessThan(260);
    expect(s.pdd).toBeGreaterThan(1_000);
    expect(s.causes).toBeGreaterThanOrEqual(6);
    expect(new Date(s.last).getTime()).toBeLessThan(now.getTime());
    expect(new Date(s.first).getTime()).toBeGreaterThan(now.getTime() - 31 * 86_400_000);
    // priced at the fixture's rates: revenue and cost moved through the ledger
    expect(r.revenue).toBeGreaterThan(0n);
    expect(r.cost).toBeGreaterThan(0n);
    expect(await unbalanced()).toEqual([]);

    const again = await seedDemoTraffic(h.built.services, { calls: 3_000 });
    expect(again).toMatchObject({ planned: 0, batches: 0, stored: 0 });
    expect(again.anchor).toEqual(r.anchor);
  });

  it('a run stopped half-way completes on the next run, billing each call once', async () => {
    // a new anchor (other calls): drop the demo batches of the test above from view by id prefix
    const before = await count(sql`batch_id LIKE 'demo-%'`);
    await sql`UPDATE cdr_batches SET source = 'switch' WHERE source = 'demo'`.execute(db());
    const now = new Date(Date.now() - 86_400_000);
    let stop = 0;
    await expect(
      seedDemoTraffic(h.built.services, {
        calls: 2_500,
        now,
        onBatch: () => {
          if (++stop === 1) throw new Error('stopped');
        },
      }),
    ).rejects.toThrow('stopped');
    const half = await count(sql`batch_id LIKE 'demo-%'`);
    expect(half - before).toBeGreaterThan(0);
    const r = await seedDemoTraffic(h.built.services, { calls: 2_500 });
    expect(r).toMatchObject({ planned: 2, batches: 2, skipped_batches: 1 });
    expect(await count(sql`batch_id LIKE 'demo-%'`)).toBe(half + r.stored);
    expect(
      (
        await one(
          sql<{
            n: number;
          }>`SELECT count(DISTINCT call_id)::int AS n FROM cdrs WHERE call_id LIKE ${`demo-${r.anchor.getTime()}-%`}`,
        )
      ).n,
    ).toBe(2_500);
    expect(await unbalanced()).toEqual([]);
  });
});
