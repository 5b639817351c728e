import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { analyzeStaleDays, CdrPartitions, partitionName } from '../../src/modules/cdr/partitions';
import { ok, startHarness, type Harness } from './harness';

/** The recurring job cdr.partitions: partitions ahead, days past cdr_retention_days dropped. */
let h: Harness;
let admin: string;
const DAY = 86_400_000;
const today = () => Math.floor(Date.now() / DAY) * DAY;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await startHarness({ JOBS_POLL_MS: '20' });
  admin = await h.setupAdmin();
});
afterAll(() => h.close());

const partitions = () => new CdrPartitions(h.built.services.db);
const days = () => partitions().list();

async function runJob(): Promise<{ status: string; result: unknown }> {
  const { id } = await h.built.services.jobs.enqueue('cdr.partitions', {});
  for (;;) {
    const j = await h.built.services.db
      .selectFrom('jobs')
      .select(['status', 'result'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (j.status !== 'pending' && j.status !== 'running') return j;
    await sleep(25);
  }
}

describe('cdr.partitions (daily 01:00 UTC)', () => {
  it('is scheduled daily at 01:00 UTC and its current slot was enqueued once at start', async () => {
    const slots = await h.built.services.db
      .selectFrom('jobs')
      .select(['key', 'status'])
      .where('kind', '=', 'cdr.partitions')
      .where('schedule', '=', 'cdr.partitions')
      .execute();
    expect(slots).toHaveLength(1);
    const slotDay = new Date(
      today() + DAY / 24 <= Date.now() ? today() + DAY / 24 : today() - DAY + DAY / 24,
    );
    expect(slots[0]?.key).toBe(`cdr.partitions@${slotDay.toISOString()}`);
    expect(await h.built.services.jobs.enqueueDueSlots()).toEqual([]);
    // Let the start-up run end before the next tests set up their partitions.
    for (;;) {
      const j = await h.built.services.db
        .selectFrom('jobs')
        .select('status')
        .where('key', '=', slots[0]!.key)
        .executeTakeFirstOrThrow();
      if (j.status === 'finished') break;
      await sleep(25);
    }
  });

  it('makes today and the next 7 days, drops the days older than cdr_retention_days, keeps the rest', async () => {
    ok(await h.call('PATCH', '/api/config/system', { token: admin, body: { cdr_retention_days: 30 } }));
    const keeper = partitions();
    const old = today() - 40 * DAY;
    const edge = today() - 30 * DAY;
    await keeper.ensure([old, old + DAY, edge]);
    await h.built.services.db
      .insertInto('cdr_keys')
      .values({ call_id: 'old-call', attempt: 1, start_time: new Date(old + 3_600_000) })
      .execute();
    const job = await runJob();
    expect(job.status).toBe('finished');
    const after = await days();
    for (let i = 0; i <= 7; i++) expect(after).toContain(today() + i * DAY);
    expect(after).not.toContain(old);
    expect(after).not.toContain(old + DAY);
    expect(after).toContain(edge);
    expect((job.result as { dropped: string[] }).dropped).toEqual(
      expect.arrayContaining([`cdrs_${new Date(old).toISOString().slice(0, 10).replaceAll('-', '')}`]),
    );
    const keys = await h.built.services.db
      .selectFrom('cdr_keys')
      .select('call_id')
      .where('call_id', '=', 'old-call')
      .execute();
    expect(keys).toEqual([]);
  });

  it('keeps everything when cdr_retention_days is 0', async () => {
    ok(await h.call('PATCH', '/api/config/system', { token: admin, body: { cdr_retention_days: 0 } }));
    const old = today() - 900 * DAY;
    await partitions().ensure([old]);
    expect((await runJob()).status).toBe('finished');
    expect(await days()).toContain(old);
  });
});

describe('planner statistics of fresh days (analyzeStaleDays)', () => {
  it('analyses a day filled since its last analysis, once, and leaves analysed days alone', async () => {
    const day = today() - 3 * DAY;
    await partitions().ensure([day, day + DAY]);
    const db = h.built.services.db;
    // 3,000 CDRs on the day, none on the next: as after a bulk ingest autovacuum has not seen yet
    await sql`
      INSERT INTO cdrs (cdr_id, batch_id, call_id, attempt, is_final_attempt, start_time, end_time, call_duration, pdd,
        ingress_trunk_id, source_ip, ani, dnis, release_cause, release_side)
      SELECT 900000000 + g, 'b', 'c' || g, 1, true, ${new Date(day).toISOString()}::timestamptz + g * interval '1 second',
        ${new Date(day).toISOString()}::timestamptz + g * interval '1 second', 0, 0, 1, '10.0.0.1', '1', '2', 486, 'T'
      FROM generate_series(1, 3000) g`.execute(db);
    const stats = async () =>
      (
        await sql<{ n: string | null }>`SELECT last_analyze::text AS n FROM pg_stat_user_tables
          WHERE relname = ${partitionName(day)}`.execute(db)
      ).rows[0]?.n ?? null;
    expect(await stats()).toBeNull();
    await sleep(1200); // the insert's counts reach pg_stat_user_tables (flushed at most once a second)
    const first = await analyzeStaleDays(db, day, day + 2 * DAY);
    expect(first).toContain(partitionName(day));
    expect(await stats()).not.toBeNull();
    expect(await analyzeStaleDays(db, day, day + 2 * DAY)).toEqual([]);
  });
});
