import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { openDatabase, type Db } from '../../src/db/connection';
import { Jobs } from '../../src/jobs/queue';
import { startHarness, type Harness } from './harness';

/**
 * The durable job queue (docs/jobs.md) on the database the suite runs on: each test uses its own
 * Jobs instances (runners) with their own kinds, beside the app's runner, as separate server
 * processes would. On PostgreSQL the second runner has its own connection pool.
 */
let h: Harness;
let db: Db;
let otherDb: Db;
let closeOther: () => Promise<void> = async () => {};
const log = pino({ level: 'silent' });
const runners: Jobs[] = [];

const runner = (on: Db, opts: Partial<{ pollMs: number; concurrency: number; leaseMs: number }> = {}) => {
  const j = new Jobs(on, log, { pollMs: 20, concurrency: 4, leaseMs: 5_000, ...opts });
  runners.push(j);
  return j;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(
  what: string,
  f: () => Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
const job = (id: number) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const statusIs = (id: number, status: string) => async () => {
  const j = await job(id);
  return j.status === status ? j : null;
};

beforeAll(async () => {
  h = await startHarness();
  db = h.built.services.db;
  otherDb = db;
  if (h.built.services.config.databaseUrl) {
    const other = await openDatabase(h.built.services.config);
    otherDb = other.db;
    closeOther = () => other.close();
  }
});
afterAll(async () => {
  for (const r of runners) await r.runner.stop(1000);
  await closeOther();
  await h.close();
});

describe('jobs: run, progress, idempotency', () => {
  it('runs an enqueued job once, records its progress and result; the same key never makes two jobs', async () => {
    const j = runner(db);
    const seen: unknown[] = [];
    j.define<{ n: number }>('t.count', async (p, ctx) => {
      seen.push(p);
      for (let i = 1; i <= p.n; i++) ctx.progress({ done: i, total: p.n, message: `row ${i}` });
      return { counted: p.n };
    });
    j.start();
    const a = await j.enqueue(
      't.count',
      { n: 3 },
      { key: 'count-1', user: { user_id: null, name: 'tester' } },
    );
    const b = await j.enqueue('t.count', { n: 9 }, { key: 'count-1' });
    expect(a.created).toBe(true);
    expect(b).toEqual({ id: a.id, created: false });
    const done = await until('finished', statusIs(a.id, 'finished'));
    expect(done).toMatchObject({
      attempts: 1,
      progress_done: 3,
      progress_total: 3,
      progress_message: 'row 3',
      result: { counted: 3 },
      user_name: 'tester',
      locked_by: null,
    });
    expect(seen).toEqual([{ n: 3 }]);
    const rows = await db.selectFrom('jobs').select('id').where('key', '=', 'count-1').execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses an unknown kind', async () => {
    await expect(runner(db).enqueue('t.nope', {})).rejects.toThrow(/not defined/);
  });
});

describe('jobs: failures, kill, rerun', () => {
  it('retries a failing job with backoff, then fails it after its last attempt', async () => {
    const j = runner(db);
    let calls = 0;
    j.define(
      't.flaky',
      async () => {
        calls++;
        if (calls < 2) throw new Error('flaky once');
        return 'ok';
      },
      { backoffMs: 50 },
    );
    j.define(
      't.broken',
      async () => {
        throw new Error('always broken');
      },
      { maxAttempts: 2, backoffMs: 20 },
    );
    j.start();
    const flaky = await j.enqueue('t.flaky', {});
    const broken = await j.enqueue('t.broken', {});
    expect(await until('flaky finished', statusIs(flaky.id, 'finished'))).toMatchObject({
      attempts: 2,
      error: '',
    });
    expect(await until('broken failed', statusIs(broken.id, 'failed'))).toMatchObject({
      attempts: 2,
      error: 'always broken',
    });
    expect(calls).toBe(2);
  });

  it('kills a running job (its signal aborts, it is never retried) and a pending one; reruns a killed job', async () => {
    const j = runner(db);
    let aborted = 0;
    let started = 0;
    j.define('t.wait', async (_p, ctx) => {
      started++;
      ctx.progress({ done: 1, total: 10, message: 'waiting' });
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      aborted++;
      throw ctx.signal.reason;
    });
    j.start();
    const running = await j.enqueue('t.wait', { x: 1 });
    await until('running', statusIs(running.id, 'running'));
    await until('started', async () => started === 1);
    const pending = await j.enqueue('t.wait', {}, { runAt: new Date(Date.now() + 3_600_000) });

    expect(await j.kill(running.id, 'admin')).toBe(true);
    expect(await j.kill(pending.id, 'admin')).toBe(true);
    await until('aborted', async () => aborted === 1);
    await sleep(150);
    expect(await job(running.id)).toMatchObject({ status: 'killed', killed_by: 'admin', attempts: 1 });
    expect(await job(pending.id)).toMatchObject({ status: 'killed', attempts: 0 });
    expect(started).toBe(1);
    expect(await j.kill(running.id, 'admin')).toBe(false);

    // Another process kills it: this runner's heartbeat notices and aborts the handler.
    const remote = await j.enqueue('t.wait', {});
    await until('remote running', statusIs(remote.id, 'running'));
    await until('started twice', async () => started === 2);
    expect(await runner(otherDb).kill(remote.id, 'other')).toBe(true);
    await until('aborted by heartbeat', async () => aborted === 2);

    const again = await j.rerun(pending.id, { user_id: null, name: 'admin' });
    expect(again).toBeTypeOf('number');
    await until('rerun running', statusIs(again!, 'running'));
    expect(await j.kill(again!, 'admin')).toBe(true);
  });

  it('reruns a finished, failed or killed job as a new job with the same payload; not a pending one', async () => {
    const j = runner(db);
    j.define<{ v: number }>('t.echo', async (p) => p.v * 2);
    const first = await j.enqueue('t.echo', { v: 21 });
    expect(await j.rerun(first.id, { user_id: null, name: 'admin' })).toBeNull(); // still pending
    j.start();
    await until('first', statusIs(first.id, 'finished'));
    const again = await j.rerun(first.id, { user_id: null, name: 'operator' });
    expect(again).not.toBeNull();
    expect(await until('rerun', statusIs(again!, 'finished'))).toMatchObject({
      kind: 't.echo',
      payload: { v: 21 },
      result: 42,
      rerun_of: first.id,
      user_name: 'operator',
    });
  });
});

describe('jobs: several runners on one database', () => {
  it('two runners run each of 30 jobs exactly once', async () => {
    const a = runner(db, { concurrency: 3 });
    const b = runner(otherDb, { concurrency: 3 });
    const runs = new Map<number, number>();
    const handler = async (_p: unknown, ctx: { id: number }) => {
      runs.set(ctx.id, (runs.get(ctx.id) ?? 0) + 1);
      await sleep(5);
    };
    a.define('t.once', handler);
    b.define('t.once', handler);
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push((await a.enqueue('t.once', { i })).id);
    a.start();
    b.start();
    await until(
      'all finished',
      async () => {
        const n = await db
          .selectFrom('jobs')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('kind', '=', 't.once')
          .where('status', '=', 'finished')
          .executeTakeFirstOrThrow();
        return Number(n.n) === 30;
      },
      30_000,
    );
    expect(ids.every((id) => runs.get(id) === 1)).toBe(true);
    const by = await db.selectFrom('jobs').select('attempts').where('kind', '=', 't.once').execute();
    expect(by.every((r) => r.attempts === 1)).toBe(true);
  });

  it('a runner stopped mid-job (as if killed) loses the job after its lease; another runner resumes it', async () => {
    const a = runner(db, { leaseMs: 400 });
    const b = runner(otherDb, { leaseMs: 400 });
    let releaseA!: () => void;
    const seen: { runner: string; attempt: number; previous: number }[] = [];
    a.define('t.resume', async (_p, ctx) => {
      seen.push({ runner: 'a', attempt: ctx.attempt, previous: ctx.previous.done });
      ctx.progress({ done: 40, total: 100, message: 'a' });
      await new Promise<void>((r) => (releaseA = r));
      return 'from a';
    });
    b.define('t.resume', async (_p, ctx) => {
      seen.push({ runner: 'b', attempt: ctx.attempt, previous: ctx.previous.done });
      ctx.progress({ done: 100, total: 100, message: 'b' });
      return 'from b';
    });
    const { id } = await a.enqueue('t.resume', {});
    a.start();
    await until('a has it with progress', async () => (await job(id)).progress_done === 40);
    a.runner.halt(); // the process dies: no heartbeat, no release
    b.start();
    const done = await until('b finished it', statusIs(id, 'finished'), 10_000);
    expect(done).toMatchObject({ attempts: 2, result: 'from b', progress_done: 100 });
    expect(seen).toEqual([
      { runner: 'a', attempt: 1, previous: 0 },
      { runner: 'b', attempt: 2, previous: 40 },
    ]);
    // The stalled handler returning later changes nothing.
    releaseA();
    await sleep(100);
    expect(await job(id)).toMatchObject({ status: 'finished', result: 'from b' });
  });

  it('a job whose process died on its last attempt is failed, not run again', async () => {
    const a = runner(db, { leaseMs: 200 });
    a.define('t.last', () => new Promise(() => {}), { maxAttempts: 1 });
    const { id } = await a.enqueue('t.last', {});
    a.start();
    await until('running', statusIs(id, 'running'));
    a.runner.halt();
    const b = runner(otherDb, { leaseMs: 200 });
    let ran = false;
    b.define('t.last', async () => {
      ran = true;
    });
    b.start();
    expect(await until('failed', statusIs(id, 'failed'))).toMatchObject({ attempts: 1 });
    expect(ran).toBe(false);
  });
});

describe('jobs: recurring slots', () => {
  it('two processes claim a slot once; a missed day catches up once; the next slot runs again', async () => {
    const a = runner(db);
    const b = runner(otherDb);
    for (const j of [a, b]) {
      j.define('t.daily', async () => {});
      j.every('t.daily', { daily: '01:00' });
    }
    const now = Date.parse('2030-03-10T05:00:00Z');
    const [x, y] = await Promise.all([a.enqueueDueSlots(now), b.enqueueDueSlots(now)]);
    expect([...x, ...y]).toHaveLength(1);
    expect(await a.enqueueDueSlots(now + 3_600_000)).toEqual([]);
    // Down for three days: one run for the latest slot, not three.
    const later = Date.parse('2030-03-13T02:00:00Z');
    const caught = [...(await b.enqueueDueSlots(later)), ...(await a.enqueueDueSlots(later))];
    expect(caught).toHaveLength(1);
    const rows = await db
      .selectFrom('jobs')
      .select(['key', 'schedule'])
      .where('kind', '=', 't.daily')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { key: 't.daily@2030-03-10T01:00:00.000Z', schedule: 't.daily' },
      { key: 't.daily@2030-03-13T01:00:00.000Z', schedule: 't.daily' },
    ]);
  });
});

describe('jobs: restart', () => {
  it('a job running when the server stops runs to the end after the next start; a slot is not run again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-jobs-'));
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: h.built.services.config.databaseUrl ?? '',
      DATA_DIR: dataDir,
      JOBS_POLL_MS: '20',
      LOG_LEVEL: 'error',
      PASSWORD_COST: '10',
      WEB_DIST: '/nonexistent',
    });
    let aborted = false;
    const first = await buildApp(config, { logger: false });
    first.services.jobs.define('t.restart', async (_p, ctx) => {
      ctx.progress({ done: 1, total: 2 });
      await new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r()));
      aborted = true;
      throw ctx.signal.reason;
    });
    first.services.jobs.define('t.nightly', async () => {});
    first.services.jobs.every('t.nightly', { daily: '00:00' });
    await first.app.ready();
    const { id } = await first.services.jobs.enqueue('t.restart', {});
    const byId = (d: Db) => d.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await until('running', async () => (await byId(first.services.db)).status === 'running');
    await first.close();
    expect(aborted).toBe(true);

    const second = await buildApp(config, { logger: false });
    const afterStop = await byId(second.services.db);
    expect(afterStop).toMatchObject({ status: 'pending', attempts: 0, progress_done: 1, locked_by: null });
    let resumedFrom = -1;
    second.services.jobs.define('t.restart', async (_p, ctx) => {
      resumedFrom = ctx.previous.done;
      ctx.progress({ done: 2 });
    });
    second.services.jobs.define('t.nightly', async () => {});
    second.services.jobs.every('t.nightly', { daily: '00:00' });
    await second.app.ready();
    await until('finished after restart', async () => (await byId(second.services.db)).status === 'finished');
    expect(await byId(second.services.db)).toMatchObject({ attempts: 1, progress_done: 2 });
    expect(resumedFrom).toBe(1);
    const nightly = await second.services.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 't.nightly')
      .execute();
    expect(nightly).toHaveLength(1);
    await second.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000); // two starts on a PGlite folder on disk (initdb and every migration)
});
