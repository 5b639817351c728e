import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../src/db/schema';
import type { api } from '@tandem/contract';
import type { z } from 'zod';
import type { Harness } from './harness';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

type Totals = z.output<typeof api.stats.summaryReport>['totals'];

/** The world of the statistics tests: an admin, the switch key, and two customers with LCR over vendors. */
export async function statsWorld(
  h: Harness,
): Promise<{ admin: string; key: string; f: Fixture; g: Fixture }> {
  const admin = await h.setupAdmin();
  const key = await switchKey(h, admin);
  const f = await termination(h);
  await lcrOverVendors(h, f);
  const g = await termination(h, '2');
  await lcrOverVendors(h, g, '2');
  await rebuildAfter(h, admin);
  return { admin, key, f, g };
}

/** The totals a report must show, asked of the raw CDRs (the truth the summaries must match). */
export async function rawTotals(db: Kysely<Database>, where: RawBuilder<unknown> = sql`true`) {
  const r = await sql<Record<string, string>>`
    SELECT count(*)::text AS attempts, count(answer_time)::text AS answered,
      count(*) FILTER (WHERE call_duration > 0)::text AS non_zero,
      coalesce(sum(call_duration), 0)::text AS duration,
      coalesce(sum(ingress_billed_time), 0)::text AS billed,
      coalesce(sum(ingress_client_cost + short_call_charge), 0)::text AS revenue,
      coalesce(sum(egress_cost), 0)::text AS cost
    FROM cdrs WHERE ${where}`.execute(db);
  const x = r.rows[0]!;
  return {
    attempts: Number(x.attempts),
    answered: Number(x.answered),
    non_zero: Number(x.non_zero),
    duration: Number(x.duration),
    billed_time: Number(x.billed),
    revenue: Number(x.revenue).toFixed(6),
    cost: Number(x.cost).toFixed(6),
  };
}

/** The same fields of a report's totals or row. */
export const pickTotals = (t: Totals) => ({
  attempts: t.attempts,
  answered: t.answered,
  non_zero: t.non_zero,
  duration: t.duration,
  billed_time: t.billed_time,
  revenue: t.revenue,
  cost: t.cost,
});
