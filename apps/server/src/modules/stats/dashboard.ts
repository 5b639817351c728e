import { api, type GroupBy } from '@tandem/contract';
import { asr } from '@tandem/domain';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import type { Actor } from '../../http/context';
import {
  coverageOf,
  groupedRows,
  offsetMinutes,
  scopeOf,
  sourceOf,
  totalsOf,
  widen,
  type Range,
  type Scope,
} from './report';

type DashQuery = z.output<typeof api.stats.dashboardQuery>;
type Query = z.output<typeof api.stats.summaryQuery>;

const MIN = 60_000;
const DAY = 1440 * MIN;

/** The UTC range of a dashboard period at `now`: minutes back, or today / this month in the zone. */
export function periodOf(range: string, tz: string, now: number): Range {
  const off = offsetMinutes(tz) * MIN;
  if (range === 'today') {
    const start = Math.floor((now + off) / DAY) * DAY - off;
    return widen(start, now);
  }
  if (range === 'this_month') {
    const local = new Date(now + off);
    const start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - off;
    return widen(start, now);
  }
  const minutes = api.stats.QUICK_RANGES[range as api.stats.QuickRange];
  return widen(now - minutes * MIN, now);
}

/** Chart step for a span: 15 minutes up to 2 days, an hour up to 15 days, else a day. */
export const stepFor = (span: number) => (span <= 2 * DAY ? 15 : span <= 15 * DAY ? 60 : 1440);

/** GET /stats/dashboard: totals, QoS, calls over time and the top lists, all from the summaries. */
export async function dashboard(db: Db, actor: Actor, q: DashQuery, now = Date.now()) {
  const scope = scopeOf(actor);
  const range = periodOf(q.range, q.tz, now);
  const base: Query = {
    from: '',
    to: '',
    tz: q.tz,
    group_by: [],
    customer_ids: [],
    vendor_ids: [],
    ingress_trunk_ids: [],
    egress_trunk_ids: [],
    duration: 'all',
    order_by: 'attempts',
    limit: q.top,
  };
  const top = async (g: GroupBy) =>
    scope.allowedGroups && !scope.allowedGroups.includes(g)
      ? []
      : (await groupedRows(db, { ...base, group_by: [g] }, range, scope)).rows;
  const step = stepFor(range.to - range.from);
  const [coverage, totals, series, top_customers, top_vendors, top_destinations] = await Promise.all([
    coverageOf(db, range, scope),
    totalsOf(db, base, range, scope),
    seriesOf(db, range, scope, step, offsetMinutes(q.tz)),
    top('customer'),
    top('vendor'),
    top('country'),
  ]);
  return { coverage, totals, step_minutes: step, series, top_customers, top_vendors, top_destinations };
}

/** Attempts, answered and duration per step (every step of the range, empty ones as zeros). */
async function seriesOf(db: Db, range: Range, scope: Scope, stepMin: number, offMin: number) {
  const stepS = stepMin * 60;
  const offS = stepMin === 1440 ? offMin * 60 : 0;
  const r = await sql<{ at: string; attempts: string; answered: string; duration: string }>`
    SELECT (floor((extract(epoch FROM s.bucket) + ${offS}) / ${stepS}) * ${stepS} - ${offS})::bigint::text AS at,
      sum(s.attempts)::text AS attempts, sum(s.answered)::text AS answered, sum(s.duration)::text AS duration
    FROM ${stepMin >= 60 ? sourceOf({ group_by: [], duration: 'all' }, range) : sql`cdr_summaries s`}
    WHERE s.bucket >= ${new Date(range.from).toISOString()}::timestamptz
      AND s.bucket < ${new Date(range.to).toISOString()}::timestamptz
      ${scope.where ? sql`AND ${scope.where}` : sql``}
    GROUP BY 1`.execute(db);
  const byAt = new Map(r.rows.map((x) => [Number(x.at) * 1000, x]));
  const stepMs = stepS * 1000;
  const first =
    stepMin === 1440
      ? Math.floor((range.from + offS * 1000) / stepMs) * stepMs - offS * 1000
      : Math.floor(range.from / stepMs) * stepMs;
  const points = [];
  for (let at = first; at < range.to; at += stepMs) {
    const x = byAt.get(at);
    const s = {
      attempts: Number(x?.attempts ?? 0),
      answered: Number(x?.answered ?? 0),
      non_zero: 0,
      ner_calls: 0,
      duration: Number(x?.duration ?? 0),
      pdd_sum: 0,
      pdd_calls: 0,
    };
    points.push({
      at: new Date(at).toISOString(),
      attempts: s.attempts,
      answered: s.answered,
      duration: s.duration,
      asr: asr(s),
    });
  }
  return points;
}
