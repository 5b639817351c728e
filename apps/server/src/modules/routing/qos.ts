import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { invalidField } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { readFigures } from '../monitoring/evaluate';

/**
 * Trunk QoS: the switch reports per-trunk counters for each interval (POST /switch/qos); the
 * largest-ASR and largest-ACD dynamic routes order their pool by the ASR and ACD over their QoS cycle.
 *
 * - Every report is stored as samples (trunk_qos_samples, stamped with the time received).
 * - trunk_qos holds the figures per trunk and cycle length: for every (trunk, cycle) of a dynamic
 *   route's pool, ASR = answered / attempts * 100 and ACD = billed seconds / answered over the
 *   samples received within the last `cycle` minutes. A trunk with no sample in the window has no
 *   row (the route counts it as ASR 0, ACD 0, and the QoS page shows it as not measured).
 * - Samples older than the longest cycle of any dynamic route (60 minutes when there is none) are
 *   deleted at each report.
 *
 * The figures are recomputed at each report and when a dynamic route's pool or cycle changes
 * (refreshTrunkQos), so a window slides with the reports: the switch is expected to report every
 * few minutes, also for trunks without traffic.
 */
export function registerTrunkQos(app: FastifyInstance, s: Services): void {
  implement(app, s, api.routing.switchQos, async (ctx) => {
    const samples = ctx.body.samples;
    await s.db.transaction().execute(async (trx) => {
      await trunksExist(
        trx,
        samples.map((x) => x.trunk_id),
      );
      if (samples.length)
        await trx
          .insertInto('trunk_qos_samples')
          .values(
            samples.map((x) => ({
              trunk_id: x.trunk_id,
              attempts: x.attempts,
              answered: x.answered,
              billed_seconds: x.billed_seconds,
            })),
          )
          .execute();
      await pruneSamples(trx);
      await refreshTrunkQos(trx);
    });
    s.configChanged.notify();
    return null;
  });
}

/** Refuses a sample of a trunk that does not exist, naming it (samples.<i>.trunk_id). */
async function trunksExist(db: Db, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  const found = new Set(
    (
      await db
        .selectFrom('trunks')
        .select('trunk_id')
        .where('trunk_id', 'in', [...ids])
        .execute()
    ).map((r) => r.trunk_id),
  );
  const i = ids.findIndex((id) => !found.has(id));
  if (i >= 0) {
    const field = `samples.${i}.trunk_id`;
    throw invalidField(field, 'trunkNotFound', [field, ids[i]!]);
  }
}

/** Default QoS cycle of a dynamic route (the contract's default), kept when no route has one. */
const DEFAULT_CYCLE_MINUTES = 60;

/** Deletes the samples no QoS cycle reaches back to. */
async function pruneSamples(db: Db): Promise<void> {
  await sql`
    DELETE FROM trunk_qos_samples
    WHERE received_at <= now() - make_interval(mins =>
      (SELECT coalesce(max(qos_cycle_minutes), ${DEFAULT_CYCLE_MINUTES})::int FROM dynamic_routes))
  `.execute(db);
}

interface QosRow {
  trunk_id: number;
  cycle_minutes: number;
  attempts: number;
  answered: number;
  billed_seconds: number;
  updated_at: Date;
  source: 'cdr' | 'switch';
}

/**
 * Recomputes trunk_qos: one row per (trunk, cycle) of the dynamic routes' pools. The figures come
 * from the CDRs when the trunk has CDRs in the window (its egress attempts over the last `cycle`
 * minutes, read as the monitoring rules read theirs: the 15-minute traffic summaries and the raw
 * CDRs of the window's leading edge; ACD from the answered seconds), else from the switch's
 * /switch/qos samples received within the window; pairs with neither have no row. One source per
 * trunk, never both added. Runs in the caller's transaction (now() is the transaction's start for
 * the samples). Answers whether any figure changed.
 */
export async function refreshTrunkQos(db: Db, now = Date.now()): Promise<boolean> {
  // One refresh at a time (two reports at once would delete and upsert the same rows); reads go on.
  await sql`LOCK TABLE trunk_qos IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  const pairs = await sql<{ trunk_id: number; cycle_minutes: number }>`
    SELECT DISTINCT d.trunk_id, r.qos_cycle_minutes AS cycle_minutes
    FROM dynamic_route_trunks d JOIN dynamic_routes r ON r.dynamic_route_id = d.dynamic_route_id`.execute(db);
  const samples = await sql<QosRow>`
    WITH pairs AS (
      SELECT DISTINCT d.trunk_id, r.qos_cycle_minutes AS cycle_minutes
      FROM dynamic_route_trunks d
      JOIN dynamic_routes r ON r.dynamic_route_id = d.dynamic_route_id
    )
    SELECT p.trunk_id, p.cycle_minutes,
      sum(s.attempts)::bigint AS attempts,
      sum(s.answered)::bigint AS answered,
      sum(s.billed_seconds)::bigint AS billed_seconds,
      max(s.received_at) AS updated_at
    FROM pairs p
    JOIN trunk_qos_samples s
      ON s.trunk_id = p.trunk_id AND s.received_at > now() - make_interval(mins => p.cycle_minutes)
    GROUP BY p.trunk_id, p.cycle_minutes`.execute(db);
  const sampled = new Map(samples.rows.map((r) => [`${r.trunk_id}:${r.cycle_minutes}`, r]));
  const cycles = new Map<number, number[]>();
  for (const p of pairs.rows)
    cycles.set(p.cycle_minutes, [...(cycles.get(p.cycle_minutes) ?? []), p.trunk_id]);
  const fromCdrs = new Map<string, QosRow>();
  for (const [cycle, trunkIds] of cycles) {
    const figures = await readFigures(
      db,
      { side: 'egress', trunkIds, codeMode: 'all', codes: [], byAni: false },
      now,
      cycle,
    );
    for (const [trunk, f] of figures)
      if (f.attempts > 0)
        fromCdrs.set(`${trunk}:${cycle}`, {
          trunk_id: Number(trunk),
          cycle_minutes: cycle,
          attempts: f.attempts,
          answered: f.answered,
          billed_seconds: f.duration,
          updated_at: new Date(now),
          source: 'cdr',
        });
  }
  const rows: QosRow[] = [];
  for (const p of pairs.rows) {
    const key = `${p.trunk_id}:${p.cycle_minutes}`;
    const r = fromCdrs.get(key) ?? sampled.get(key);
    if (r)
      rows.push({
        ...r,
        attempts: Number(r.attempts),
        answered: Number(r.answered),
        billed_seconds: Number(r.billed_seconds),
        source: r.source ?? 'switch',
      });
  }
  const before = await db
    .selectFrom('trunk_qos')
    .select(['trunk_id', 'cycle_minutes', 'attempts', 'answered', 'billed_seconds', 'source'])
    .execute();
  const same =
    before.length === rows.length &&
    rows.every((r) =>
      before.some(
        (b) =>
          b.trunk_id === r.trunk_id &&
          b.cycle_minutes === r.cycle_minutes &&
          Number(b.attempts) === r.attempts &&
          Number(b.answered) === r.answered &&
          Number(b.billed_seconds) === r.billed_seconds &&
          b.source === r.source,
      ),
    );
  if (same) return false;
  const col = <K extends keyof QosRow>(k: K) => rows.map((r) => r[k]);
  await sql`
    DELETE FROM trunk_qos q
    WHERE NOT EXISTS (
      SELECT 1 FROM unnest(${col('trunk_id')}::int4[], ${col('cycle_minutes')}::int4[]) AS k(t, c)
      WHERE k.t = q.trunk_id AND k.c = q.cycle_minutes
    )`.execute(db);
  if (rows.length)
    await sql`
      INSERT INTO trunk_qos (trunk_id, cycle_minutes, attempts, answered, billed_seconds, asr, acd, updated_at, source)
      SELECT t, c, a, n, b,
        CASE WHEN a > 0 THEN round(n * 100.0 / a, 2) ELSE 0 END,
        CASE WHEN n > 0 THEN least(round(b::numeric / n, 2), 99999999.99) ELSE 0 END,
        u, src
      FROM unnest(${col('trunk_id')}::int4[], ${col('cycle_minutes')}::int4[], ${col('attempts')}::int8[],
        ${col('answered')}::int8[], ${col('billed_seconds')}::int8[], ${col('updated_at')}::timestamptz[],
        ${col('source')}::text[]) AS x(t, c, a, n, b, u, src)
      ON CONFLICT (trunk_id, cycle_minutes) DO UPDATE SET
        attempts = excluded.attempts,
        answered = excluded.answered,
        billed_seconds = excluded.billed_seconds,
        asr = excluded.asr,
        acd = excluded.acd,
        updated_at = excluded.updated_at,
        source = excluded.source`.execute(db);
  return true;
}

/** How often the CDR-based figures are recomputed while CDRs arrive, and at the latest. */
const AFTER_CDRS_MS = 5_000;
const EVERY_MS = 60_000;

/**
 * Keeps the dynamic routes' figures in step with the CDRs (docs/statistics.md "Dynamic routes"):
 * a refresh a few seconds after CDR batches are stored (coalesced: one per burst) and every minute
 * (so a window slides when no CDR arrives), each in its own transaction; the routing engine is told
 * only when a figure changed (a QoS-only change is patched into the snapshot in service).
 */
export class QosRefresher {
  private soon: NodeJS.Timeout | null = null;
  private every: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly s: Services) {}

  start(): void {
    this.every = setInterval(() => void this.run(), EVERY_MS);
    this.every.unref();
  }

  stop(): void {
    if (this.every) clearInterval(this.every);
    if (this.soon) clearTimeout(this.soon);
    this.every = this.soon = null;
  }

  /** CDRs were stored: refresh within a few seconds. */
  cdrsStored(): void {
    if (this.soon || this.every === null) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.run();
    }, AFTER_CDRS_MS);
    this.soon.unref();
  }

  /** One refresh now (waits for one running). */
  async run(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        const changed = await this.s.db.transaction().execute((trx) => refreshTrunkQos(trx));
        if (changed) this.s.configChanged.notify();
      } catch (e) {
        this.s.log.warn({ err: e }, 'dynamic route QoS not refreshed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
