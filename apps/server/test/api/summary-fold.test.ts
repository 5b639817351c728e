import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldSummaries } from '../../src/modules/stats/summaries';
import { cdrOf, sendCdrs, cdrHarness } from './cdr-fixtures';
import { ok, type Harness } from './harness';
import type { Fixture } from './routing-fixtures';

/**
 * The summaries follow the CDRs through the fold (migration 0038, docs/statistics.md): a batch
 * queues its CDRs in its own transaction; the fold moves every queued batch into the summary tables
 * once, in one transaction. Background folds are off here (SUMMARY_FOLD_MS=0), so each step is seen.
 */
let h: Harness;
let admin: string;
let key: string;
let f: Fixture;

beforeAll(async () => {
  ({ h, admin, key, f } = await cdrHarness({ SUMMARY_FOLD_MS: '0' }));
});
afterAll(() => h.close());

const db = () => h.built.services.db;
const queued = async () =>
  (await db().selectFrom('cdr_summary_queue').select('batch_id').orderBy('batch_id').execute()).map(
    (q) => q.batch_id,
  );
/** Attempts in the 15-minute, hourly, daily, daily detail and host summaries. */
const attempts = async () =>
  (
    await sql<{ t: string; n: string }>`
      SELECT 'fine' AS t, coalesce(sum(attempts), 0)::text AS n FROM cdr_summaries
      UNION ALL SELECT 'hourly', coalesce(sum(attempts), 0)::text FROM cdr_summaries_hourly
      UNION ALL SELECT 'daily', coalesce(sum(attempts), 0)::text FROM cdr_summaries_daily
      UNION ALL SELECT 'detail', coalesce(sum(attempts), 0)::text FROM cdr_summaries_daily_detail
      UNION ALL SELECT 'hosts', coalesce(sum(attempts), 0)::text FROM cdr_host_summaries`.execute(db())
  ).rows.map((r) => Number(r.n));
const batch = (id: string, n: number, hour: number) =>
  sendCdrs(
    h,
    key,
    id,
    Array.from({ length: n }, (_, i) =>
      cdrOf(f, {
        duration: i % 3 === 0 ? 0 : 30 + i,
        start: `2026-11-20T${String(hour).padStart(2, '0')}:0${i % 10}:00Z`,
      }),
    ),
  );

describe('Summary fold', () => {
  it('a batch queues its CDRs with them; a failed fold changes nothing; the fold moves each batch once', async () => {
    ok(await batch('fold-a', 5, 8));
    ok(await batch('fold-b', 7, 9));
    expect(await queued()).toEqual(['fold-a', 'fold-b']);
    expect(await attempts()).toEqual([0, 0, 0, 0, 0]);

    // a fold whose transaction fails (a crash before its commit): the queue and the tables stay
    await db()
      .transaction()
      .execute(async (trx) => {
        expect(await foldSummaries(trx)).toEqual({ batches: 2, cdrs: 12 });
        throw new Error('crash');
      })
      .catch((e: Error) => expect(e.message).toBe('crash'));
    expect(await queued()).toEqual(['fold-a', 'fold-b']);
    expect(await attempts()).toEqual([0, 0, 0, 0, 0]);

    // two folds at once (two processes): each batch is summarised by one of them, once
    const [one, two] = await Promise.all([foldSummaries(db()), foldSummaries(db())]);
    expect(one.batches + two.batches).toBe(2);
    expect(one.cdrs + two.cdrs).toBe(12);
    expect(await queued()).toEqual([]);
    expect(await attempts()).toEqual([12, 12, 12, 12, 12]);
    expect(await foldSummaries(db())).toEqual({ batches: 0, cdrs: 0 });
    expect(await attempts()).toEqual([12, 12, 12, 12, 12]);
  });

  it('folds a long queue in several transactions of whole batches, until it is empty', async () => {
    ok(await batch('fold-d', 3, 11));
    ok(await batch('fold-e', 4, 12));
    ok(await batch('fold-f', 2, 13));
    const before = await attempts();
    // at most 4 CDRs a transaction: d (3), then e (4: the first batch is always taken), then f
    expect(await foldSummaries(db(), 4)).toEqual({ batches: 3, cdrs: 9 });
    expect(await queued()).toEqual([]);
    expect(await attempts()).toEqual(before.map((n) => n + 9));
  });

  it('a report folds first: it counts a batch committed just before it was asked', async () => {
    ok(await batch('fold-c', 4, 10));
    expect(await queued()).toEqual(['fold-c']);
    const r = ok(
      await h.call<{ totals: { attempts: number } }>(
        'GET',
        `/api/stats/summary?${new URLSearchParams({ from: '2026-11-20 00:00', to: '2026-11-21 00:00' }).toString()}`,
        { token: admin },
      ),
    );
    expect(r.totals.attempts).toBe(25);
    expect(await queued()).toEqual([]);
  });
});
