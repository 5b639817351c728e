import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { invalidField } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';

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

/**
 * Recomputes trunk_qos from the samples: one row per (trunk, cycle) of the dynamic routes' pools
 * with samples in the window; rows without samples any more are deleted. Runs in the caller's
 * transaction (PostgreSQL's now() is the transaction's start, one instant for every window).
 */
export async function refreshTrunkQos(db: Db): Promise<void> {
  // One refresh at a time (two reports at once would delete and upsert the same rows); reads go on.
  await sql`LOCK TABLE trunk_qos IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  await sql`
    WITH pairs AS (
      SELECT DISTINCT d.trunk_id, r.qos_cycle_minutes AS cycle_minutes
      FROM dynamic_route_trunks d
      JOIN dynamic_routes r ON r.dynamic_route_id = d.dynamic_route_id
    ),
    figures AS (
      SELECT p.trunk_id, p.cycle_minutes,
        sum(s.attempts)::bigint AS attempts,
        sum(s.answered)::bigint AS answered,
        sum(s.billed_seconds)::bigint AS billed_seconds,
        max(s.received_at) AS updated_at
      FROM pairs p
      JOIN trunk_qos_samples s
        ON s.trunk_id = p.trunk_id AND s.received_at > now() - make_interval(mins => p.cycle_minutes)
      GROUP BY p.trunk_id, p.cycle_minutes
    ),
    gone AS (
      DELETE FROM trunk_qos q
      WHERE NOT EXISTS (
        SELECT 1 FROM figures f WHERE f.trunk_id = q.trunk_id AND f.cycle_minutes = q.cycle_minutes
      )
    )
    INSERT INTO trunk_qos (trunk_id, cycle_minutes, attempts, answered, billed_seconds, asr, acd, updated_at)
    SELECT trunk_id, cycle_minutes, attempts, answered, billed_seconds,
      CASE WHEN attempts > 0 THEN round(answered * 100.0 / attempts, 2) ELSE 0 END,
      CASE WHEN answered > 0 THEN least(round(billed_seconds::numeric / answered, 2), 99999999.99) ELSE 0 END,
      updated_at
    FROM figures
    ON CONFLICT (trunk_id, cycle_minutes) DO UPDATE SET
      attempts = excluded.attempts,
      answered = excluded.answered,
      billed_seconds = excluded.billed_seconds,
      asr = excluded.asr,
      acd = excluded.acd,
      updated_at = excluded.updated_at
  `.execute(db);
}
