import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { analyzeStaleDays, CdrPartitions, partitionName } from '../../src/modules/cdr/partitions';
import { fails, makeRestrictedAdmin, ok, startHarness, type Harness } from './harness';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

/**
 * Configuration > DB Cleansing (issue 10 section 5): the daily job db.cleansing (CDR partitions
 * ahead, days past cdr_retention_days dropped with their keys, logs and exports past their
 * retentions deleted), the page's state with what the next run removes, its permissions; and the
 * planner statistics of fresh CDR days.
 */
let h: Harness;
let admin: string;
let f: Fixture;
let key: string;
const DAY = 86_400_000;
const today = () => Math.floor(Date.now() / DAY) * DAY;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const db = () => h.built.services.db;

beforeAll(async () => {
  h = await startHarness({ JOBS_POLL_MS: '20' }, { cleansing: true });
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
});
afterAll(() => h.close());

const partitions = () => new CdrPartitions(db());
const days = () => partitions().list();
interface State {
  settings: Record<string, number>;
  next_run_at: string;
  cdr_cutoff: string | null;
  partitions: { day: string; name: string; cdrs: number; bytes: number; state: string }[];
  cdr_totals: Record<string, number>;
  logs: { log: string; rows: number; drops: number; oldest: string | null }[];
  exports: { rows: number; drops: number; bytes: number; drop_bytes: number };
  last_run: { job_id: number; status: string } | null;
}
const state = async (token = admin) => ok(await h.call<State>('GET', '/api/config/db-cleansing', { token }));
const setRetention = async (body: Record<string, number>) => {
  const now = await state();
  return ok(
    await h.call<State>('PUT', '/api/config/db-cleansing', {
      token: admin,
      body: { ...now.settings, ...body },
    }),
  );
};

interface JobEnd {
  status: string;
  result: unknown;
  error: string;
}
async function waitJob(id: number): Promise<JobEnd> {
  for (;;) {
    const j = await db()
      .selectFrom('jobs')
      .select(['status', 'result', 'error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (j.status !== 'pending' && j.status !== 'running') return j;
    await sleep(25);
  }
}
async function runJob(): Promise<JobEnd> {
  const { id } = await h.built.services.jobs.enqueue('db.cleansing', {});
  return waitJob(id);
}
const jobRow = (kind: string, status: string, created_at: Date, run_at = created_at) =>
  db()
    .insertInto('jobs')
    .values({ kind, status, created_at, run_at } as never)
    .returning('id')
    .executeTakeFirstOrThrow();

describe('db.cleansing (daily 01:00 UTC)', () => {
  it('is scheduled daily at 01:00 UTC and its current slot was enqueued once at start', async () => {
    const slots = await db()
      .selectFrom('jobs')
      .select(['key', 'status', 'id'])
      .where('kind', '=', 'db.cleansing')
      .where('schedule', '=', 'db.cleansing')
      .execute();
    expect(slots).toHaveLength(1);
    const slotDay = new Date(
      today() + DAY / 24 <= Date.now() ? today() + DAY / 24 : today() - DAY + DAY / 24,
    );
    expect(slots[0]?.key).toBe(`db.cleansing@${slotDay.toISOString()}`);
    expect(await h.built.services.jobs.enqueueDueSlots()).toEqual([]);
    // Let the start-up run end before the next tests set up their partitions.
    expect((await waitJob(Number(slots[0]!.id))).status).toBe('finished');
    const s = await state();
    expect(s.next_run_at).toBe(new Date(slotDay.getTime() + DAY).toISOString());
    expect(s.last_run?.status).toBe('finished');
  });

  it('makes today and the next 7 days, drops the days older than cdr_retention_days, keeps the rest', async () => {
    await setRetention({ cdr_retention_days: 30 });
    const old = today() - 40 * DAY;
    const edge = today() - 30 * DAY;
    await partitions().ensure([old, old + DAY, edge]);
    await db()
      .insertInto('cdr_keys')
      .values({ call_id: 'old-call', attempt: 1, start_time: new Date(old + 3_600_000) })
      .execute();
    // the page says what the run will drop before it runs
    const before = await state();
    expect(before.cdr_cutoff).toBe(new Date(edge).toISOString().slice(0, 10));
    const drops = before.partitions.filter((p) => p.state === 'drops').map((p) => p.name);
    expect(drops).toEqual([partitionName(old + DAY), partitionName(old)]);
    expect(before.partitions.find((p) => p.name === partitionName(edge))?.state).toBe('kept');
    expect(before.partitions.find((p) => p.name === partitionName(today()))?.state).toBe('kept');
    expect(before.partitions.find((p) => p.name === partitionName(today() + DAY))?.state).toBe('ahead');
    expect(before.cdr_totals.drop_partitions).toBe(2);

    const job = await runJob();
    expect(job.status, job.error).toBe('finished');
    const after = await days();
    for (let i = 0; i <= 7; i++) expect(after).toContain(today() + i * DAY);
    expect(after).not.toContain(old);
    expect(after).not.toContain(old + DAY);
    expect(after).toContain(edge);
    expect((job.result as { partitions_dropped: string[] }).partitions_dropped.sort()).toEqual(drops.sort());
    const keys = await db()
      .selectFrom('cdr_keys')
      .select('call_id')
      .where('call_id', '=', 'old-call')
      .execute();
    expect(keys).toEqual([]);
    expect((await state()).cdr_totals.drop_partitions).toBe(0);
  });

  it('keeps everything when cdr_retention_days is 0', async () => {
    await setRetention({ cdr_retention_days: 0 });
    const old = today() - 900 * DAY;
    await partitions().ensure([old]);
    const s = await state();
    expect(s.cdr_cutoff).toBeNull();
    expect(s.partitions.every((p) => p.state !== 'drops')).toBe(true);
    expect((await runJob()).status).toBe('finished');
    expect(await days()).toContain(old);
  });

  it('counts the CDRs of each day exactly (ingested through the switch path) with the partition size', async () => {
    const day = today() - 2 * DAY;
    const start = new Date(day + 5 * 3_600_000).toISOString();
    const cdrs = Array.from({ length: 7 }, () => cdrOf(f, { start }));
    ok(await sendCdrs(h, key, `cleansing-${Date.now()}`, cdrs));
    const p = (await state()).partitions.find((x) => x.name === partitionName(day))!;
    expect(p.cdrs).toBe(7);
    expect(p.bytes).toBeGreaterThan(0);
    expect(p.state).toBe('kept');
  });

  it('deletes the logs older than log_retention_days in chunks; keeps newer ones, queued jobs and jobs an export points at', async () => {
    const old = new Date(Date.now() - 100 * DAY);
    const ago = new Date(Date.now() - 2 * DAY);
    const rows = [...Array.from({ length: 2_500 }, () => old), ago].map((created_at) => ({
      name: 'someone',
      ip: '192.0.2.1',
      result: 'success',
      created_at,
    }));
    await db()
      .insertInto('signin_history')
      .values(rows as never)
      .execute();
    const oldJob = await jobRow('x.old', 'finished', old);
    const queued = await jobRow('x.queued', 'pending', old, new Date(Date.now() + 365 * DAY));
    const exported = await jobRow('x.export', 'finished', old);
    await db()
      .insertInto('export_log')
      .values({ user_name: 'a', entity: 'cdr', file_name: 'keep.csv', job_id: exported.id } as never)
      .execute();

    await setRetention({ log_retention_days: 30, export_retention_days: 0 });
    const s = await state();
    expect(s.logs.find((l) => l.log === 'signin_history')!.drops).toBe(2_500);
    expect(s.logs.find((l) => l.log === 'scheduler_log')!.drops).toBe(1);

    const job = await runJob();
    expect(job.status, job.error).toBe('finished');
    expect((job.result as { logs_deleted: Record<string, number> }).logs_deleted).toMatchObject({
      signin_history: 2_500,
      scheduler_log: 1,
    });
    const left = await db()
      .selectFrom('signin_history')
      .select('created_at')
      .where('name', '=', 'someone')
      .execute();
    expect(left.map((r) => new Date(r.created_at).getTime())).toEqual([ago.getTime()]);
    const ids = (await db().selectFrom('jobs').select('id').where('kind', 'like', 'x.%').execute()).map((r) =>
      Number(r.id),
    );
    expect(ids).not.toContain(Number(oldJob.id));
    expect(ids).toEqual(expect.arrayContaining([Number(queued.id), Number(exported.id)]));
    expect((await state()).logs.find((l) => l.log === 'signin_history')!.drops).toBe(0);
  });

  it('deletes the export files older than export_retention_days with their rows, and nothing newer', async () => {
    const dir = h.built.services.exports.dir;
    fs.mkdirSync(dir, { recursive: true });
    const mk = async (name: string, created_at: Date) => {
      fs.writeFileSync(path.join(dir, name), 'a,b\n1,2\n');
      return db()
        .insertInto('export_log')
        .values({
          user_name: 'a',
          entity: 'cdr',
          file_name: name,
          path: name,
          size_bytes: 8,
          created_at,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
    };
    const oldRow = await mk('export-old-test.csv', new Date(Date.now() - 45 * DAY));
    const newRow = await mk('export-new-test.csv', new Date(Date.now() - 5 * DAY));
    await setRetention({ export_retention_days: 30 });
    const s = await state();
    expect(s.exports.drops).toBe(1);
    expect(s.exports.drop_bytes).toBe(8);
    expect((await runJob()).status).toBe('finished');
    expect(fs.existsSync(path.join(dir, 'export-old-test.csv'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'export-new-test.csv'))).toBe(true);
    const left = (await db().selectFrom('export_log').select('id').execute()).map((r) => Number(r.id));
    expect(left).not.toContain(Number(oldRow.id));
    expect(left).toContain(Number(newRow.id));
  });
});

describe('the page calls', () => {
  it('refuses a retention out of range naming the field, and changes nothing', async () => {
    const before = (await state()).settings;
    const r = await h.call('PUT', '/api/config/db-cleansing', {
      token: admin,
      body: { ...before, log_retention_days: -1 },
    });
    expect(JSON.stringify(fails(r, 110))).toContain('log_retention_days');
    expect((await state()).settings).toEqual(before);
    // the retentions are the system settings of the same names: one value, two pages
    const sys = ok(await h.call<Record<string, number>>('GET', '/api/config/system/all', { token: admin }));
    expect(sys.log_retention_days).toBe(before.log_retention_days);
  });

  it('runs now once per minute however often it is pressed, as a job in the scheduler log', async () => {
    type Run = { job_id: number; created: boolean };
    const a = ok(await h.call<Run>('POST', '/api/config/db-cleansing/run', { token: admin }));
    const b = ok(await h.call<Run>('POST', '/api/config/db-cleansing/run', { token: admin }));
    // two presses in the same minute: one job (a press that straddles a minute makes a second, harmless run)
    if (b.job_id === a.job_id) expect(b.created).toBe(false);
    expect((await waitJob(a.job_id)).status).toBe('finished');
    expect((await waitJob(b.job_id)).status).toBe('finished');
    const last = (await state()).last_run as State['last_run'] & { done: Record<string, number> | null };
    expect(last?.job_id).toBe(Math.max(a.job_id, b.job_id));
    // what the run did, as counts the page words in the user's language
    expect(last?.done).toEqual({
      partitions_made: 0,
      partitions_dropped: 0,
      log_entries_deleted: 0,
      exports_deleted: 0,
    });
  });

  it('needs the page: read to see, write to change, execute to run', async () => {
    const none = await makeRestrictedAdmin(h, admin, 'NoClean');
    fails(await h.call('GET', '/api/config/db-cleansing', { token: none.token }), 140);
    const reader = await makeRestrictedAdmin(h, admin, 'ReadClean', {
      '/configuration/auto_rotation_and_cleaning': 'r',
    });
    const s = await state(reader.token);
    fails(await h.call('PUT', '/api/config/db-cleansing', { token: reader.token, body: s.settings }), 140);
    fails(await h.call('POST', '/api/config/db-cleansing/run', { token: reader.token }), 140);
  });
});

describe('planner statistics of fresh days (analyzeStaleDays)', () => {
  it('analyses a day filled since its last analysis, once, and leaves analysed days alone', async () => {
    const day = today() - 3 * DAY;
    await partitions().ensure([day, day + DAY]);
    const d = db();
    // 3,000 CDRs on the day, none on the next: as after a bulk ingest autovacuum has not seen yet
    await sql`
      INSERT INTO cdrs (cdr_id, batch_id, call_id, attempt, is_final_attempt, start_time, end_time, call_duration, pdd,
        ingress_trunk_id, source_ip, ani, dnis, release_cause, release_side)
      SELECT 900000000 + g, 'b', 'c' || g, 1, true, ${new Date(day).toISOString()}::timestamptz + g * interval '1 second',
        ${new Date(day).toISOString()}::timestamptz + g * interval '1 second', 0, 0, 1, '10.0.0.1', '1', '2', 486, 'T'
      FROM generate_series(1, 3000) g`.execute(d);
    const stats = async () =>
      (
        await sql<{ n: string | null }>`SELECT last_analyze::text AS n FROM pg_stat_user_tables
          WHERE relname = ${partitionName(day)}`.execute(d)
      ).rows[0]?.n ?? null;
    expect(await stats()).toBeNull();
    // The insert's counts reach pg_stat_user_tables when its connection flushes them (at most once
    // a second, later on a busy machine): wait until they show, or they would land after the
    // ANALYZE below and make the day stale again (a harmless second ANALYZE in production).
    const modified = async () =>
      Number(
        (
          await sql<{ n: string | null }>`SELECT n_mod_since_analyze::text AS n FROM pg_stat_user_tables
            WHERE relname = ${partitionName(day)}`.execute(d)
        ).rows[0]?.n ?? 0,
      );
    for (let i = 0; i < 150 && (await modified()) < 3000; i++) await sleep(100);
    const first = await analyzeStaleDays(d, day, day + 2 * DAY);
    expect(first).toContain(partitionName(day));
    expect(await stats()).not.toBeNull();
    expect(await analyzeStaleDays(d, day, day + 2 * DAY)).toEqual([]);
  });
});
