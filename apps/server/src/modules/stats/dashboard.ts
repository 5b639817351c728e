import { api, type GroupBy } from '@tandem/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import {
  coverageOf,
  figuresOf,
  groupedRows,
  offsetMinutes,
  scopeOf,
  sourceOf,
  SUMS,
  totalsOf,
  widen,
  type Range,
  type Scope,
  type SumsRow,
  type Viewer,
} from './report';
import { foldSummaries } from './summaries';

type DashQuery = z.output<typeof api.stats.dashboardQuery>;
type Query = z.output<typeof api.stats.summaryQuery>;
type ChartPoint = z.output<typeof api.dashboard.chartPoint>;

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

/** The summary question of a dashboard: no grouping, no filter (the viewer's scope applies). */
export const baseQuery = (tz: string, limit = 10_000): Query => ({
  from: '',
  to: '',
  tz,
  group_by: [],
  customer_ids: [],
  vendor_ids: [],
  ingress_trunk_ids: [],
  egress_trunk_ids: [],
  duration: 'all',
  order_by: 'attempts',
  limit,
});

/** GET /stats/dashboard: totals, QoS, calls over time and the top lists, all from the summaries. */
export async function dashboard(db: Db, viewer: Viewer, q: DashQuery, now = Date.now()) {
  const scope = scopeOf(viewer);
  const range = periodOf(q.range, q.tz, now);
  const base = baseQuery(q.tz, q.top);
  const top = async (g: GroupBy) =>
    scope.allowedGroups && !scope.allowedGroups.includes(g)
      ? []
      : (await groupedRows(db, { ...base, group_by: [g] }, range, scope)).rows;
  const step = stepFor(range.to - range.from);
  await foldSummaries(db); // every CDR committed before the question counts
  const [coverage, totals, steps, top_customers, top_vendors, top_destinations] = await Promise.all([
    coverageOf(db, range, scope),
    totalsOf(db, base, range, scope),
    stepsOf(db, range, scope, step, offsetMinutes(q.tz), false),
    top('customer'),
    top('vendor'),
    top('country'),
  ]);
  const series = steps.map((p) => ({
    at: p.at,
    attempts: p.attempts,
    answered: p.answered,
    duration: p.duration,
    asr: p.asr,
  }));
  return { coverage, totals, step_minutes: step, series, top_customers, top_vendors, top_destinations };
}

/**
 * Every figure per step of a range (every step, empty ones as zeros; a day step starts at the
 * zone's midnight), with the average calls up (Erlang: answered seconds of the calls started in
 * the step over its length) and, with `channels`, the most calls up at once the switch reported in
 * it (trunk_channel_peaks, the whole switch: only for viewers of every carrier).
 */
export async function stepsOf(
  db: Db,
  range: Range,
  scope: Scope,
  stepMin: number,
  offMin: number,
  channels: boolean,
): Promise<ChartPoint[]> {
  const stepS = stepMin * 60;
  const offS = stepMin === 1440 ? offMin * 60 : 0;
  const stepOf = (col: string) =>
    sql.raw(`(floor((extract(epoch FROM ${col}) + ${offS}) / ${stepS}) * ${stepS} - ${offS})::bigint::text`);
  const from = new Date(range.from).toISOString();
  const to = new Date(range.to).toISOString();
  const [sums, peaks] = await Promise.all([
    sql<SumsRow & { at: string }>`
      SELECT ${stepOf('s.bucket')} AS at, ${SUMS}
      FROM ${stepMin >= 60 ? sourceOf({ group_by: [], duration: 'all' }, range) : sql`cdr_summaries s`}
      WHERE s.bucket >= ${from}::timestamptz AND s.bucket < ${to}::timestamptz
        ${scope.where ? sql`AND ${scope.where}` : sql``}
      GROUP BY 1`.execute(db),
    channels
      ? sql<{ at: string; peak: number }>`
          SELECT ${stepOf('slot')} AS at, max(peak)::int AS peak FROM trunk_channel_peaks
          WHERE trunk_id = 0 AND slot >= ${from}::timestamptz AND slot < ${to}::timestamptz
          GROUP BY 1`.execute(db)
      : Promise.resolve({ rows: [] }),
  ]);
  const byAt = new Map(sums.rows.map((x) => [Number(x.at) * 1000, x]));
  const peakAt = new Map(peaks.rows.map((x) => [Number(x.at) * 1000, Number(x.peak)]));
  const stepMs = stepS * 1000;
  const first = Math.floor((range.from + offS * 1000) / stepMs) * stepMs - offS * 1000;
  const points: ChartPoint[] = [];
  for (let at = first; at < range.to; at += stepMs) {
    const f = figuresOf(byAt.get(at) ?? ({} as SumsRow), scope);
    points.push({
      ...f,
      at: new Date(at).toISOString(),
      erlangs: Math.round((f.duration / stepS) * 100) / 100,
      channels: peakAt.get(at) ?? null,
    });
  }
  return points;
}
