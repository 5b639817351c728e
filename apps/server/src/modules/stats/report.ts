import { api, type GroupBy } from '@tandem/contract';
import {
  formatMoney,
  marginPercent,
  parseMoney,
  qosOf,
  SUMMARY_INTERVAL_MS,
  intervalOf,
  type TrafficSums,
  zoneOffsetMinutes,
} from '@tandem/domain';
import { sql, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import type { Actor } from '../../http/context';
import { invalidField } from '../../http/errors';
import { foldSummaries } from './summaries';

type Query = z.output<typeof api.stats.summaryQuery>;
type Figures = z.output<typeof api.stats.figures>;
type Row = z.output<typeof api.stats.summaryRow>;
type Coverage = z.output<typeof api.stats.coverage>;

/** Who is asking: which traffic they may see, and whether cost is shown. */
export interface Scope {
  /** SQL condition over cdr_summaries (alias s) limiting the rows to the user's traffic. */
  where: RawBuilder<unknown> | null;
  /** A vendor user sees its side: "revenue" is what it earned (the operator's cost). */
  vendorSide: boolean;
  costVisible: boolean;
  allowedGroups: readonly GroupBy[] | null;
}

/**
 * Who a report is for, as plain data (a job runs a report later for the user who asked, with the
 * permission it had): the user type, its carrier or agent, whether cost is shown, and its
 * statistics options (options.ts: the carriers it looks after, whether it may group).
 */
export interface Viewer {
  type: Actor['type'];
  clientId: number | null;
  agentId: number | null;
  /** Admins with "view cost and rate in reports" (read on FUNC.costAndRate). */
  costVisible: boolean;
  /** Admins without "View All Carriers": the carriers they look after (their traffic only); null: every carrier. */
  carrierIds: readonly number[] | null;
  /** "Enable reporting grouping": false, reports keep their default grouping. */
  grouping: boolean;
}

/** The server's tenancy: a portal user sees its own traffic whatever ids it sends (DESIGN, issue 11). */
export function scopeOf(viewer: Viewer): Scope {
  switch (viewer.type) {
    case 'admin': {
      const ids = viewer.carrierIds;
      return {
        where:
          ids === null
            ? null
            : sql`(s.ingress_client_id = ANY(${[...ids]}::int4[]) OR s.egress_client_id = ANY(${[...ids]}::int4[]))`,
        vendorSide: false,
        costVisible: viewer.costVisible,
        allowedGroups: null,
      };
    }
    case 'client':
      return {
        where: sql`s.ingress_client_id = ${viewer.clientId ?? -1}`,
        vendorSide: false,
        costVisible: false,
        allowedGroups: api.stats.PORTAL_GROUP_BY.client,
      };
    case 'vendor':
      return {
        where: sql`s.egress_client_id = ${viewer.clientId ?? -1}`,
        vendorSide: true,
        costVisible: false,
        allowedGroups: api.stats.PORTAL_GROUP_BY.vendor,
      };
    case 'agent':
      return {
        where: sql`s.ingress_client_id IN (SELECT client_id FROM carriers WHERE agent_id = ${viewer.agentId ?? -1})`,
        vendorSide: false,
        costVisible: false,
        allowedGroups: api.stats.PORTAL_GROUP_BY.agent,
      };
  }
}

/** Offset of a '+0800' zone in minutes (the domain's one parser). */
export const offsetMinutes = (tz: string) => zoneOffsetMinutes(tz);

/** A wall-clock time in a zone as UTC milliseconds. */
export const localToUtc = (local: string, tz: string) =>
  Date.parse(local.replace(' ', 'T') + (local.length === 16 ? ':00' : '') + 'Z') - offsetMinutes(tz) * 60_000;

const MAX_RANGE_MS = 400 * 86_400_000;

/** The range asked, in UTC, widened to whole summary intervals. */
export interface Range {
  from: number;
  to: number;
}
export const widen = (fromMs: number, toMs: number): Range => ({
  from: intervalOf(fromMs),
  to: Math.ceil(toMs / SUMMARY_INTERVAL_MS) * SUMMARY_INTERVAL_MS,
});

const GROUPS: Record<GroupBy, { cols: (tzMin: number) => [string, string][] }> = {
  customer: { cols: () => [['customer_id', 's.ingress_client_id']] },
  vendor: { cols: () => [['vendor_id', 's.egress_client_id']] },
  ingress_trunk: { cols: () => [['ingress_trunk_id', 's.ingress_trunk_id']] },
  egress_trunk: { cols: () => [['egress_trunk_id', 's.egress_trunk_id']] },
  country: { cols: () => [['country', 's.term_country']] },
  code: { cols: () => [['code', 's.egress_code']] },
  release_cause: { cols: () => [['release_cause', 's.release_cause']] },
  day: {
    cols: (m) => [['day', `to_char((s.bucket AT TIME ZONE 'UTC') + interval '${m} minutes', 'YYYY-MM-DD')`]],
  },
  hour: {
    cols: (m) => [
      ['hour', `to_char((s.bucket AT TIME ZONE 'UTC') + interval '${m} minutes', 'YYYY-MM-DD HH24:00')`],
    ],
  },
  ingress_host: { cols: () => [['ingress_host', 's.source_ip']] },
  egress_host: { cols: () => [['egress_host', 's.egress_host']] },
};
const HOST_GROUPS: readonly GroupBy[] = ['ingress_host', 'egress_host'];
const byHost = (q: Pick<Query, 'group_by'>) => q.group_by.some((g) => HOST_GROUPS.includes(g));

export const SUMS = sql`sum(s.attempts)::text AS attempts, sum(s.answered)::text AS answered,
  sum(s.non_zero_calls)::text AS non_zero, sum(s.ner_calls)::text AS ner_calls,
  sum(s.short_calls)::text AS short_calls, sum(s.unpriced)::text AS unpriced,
  sum(s.duration)::text AS duration, sum(s.ingress_billed_time)::text AS ingress_billed_time,
  sum(s.egress_billed_time)::text AS egress_billed_time, sum(s.revenue)::text AS revenue,
  sum(s.cost)::text AS cost, sum(s.pdd_sum)::text AS pdd_sum, sum(s.pdd_calls)::text AS pdd_calls`;

export interface SumsRow {
  attempts: string | null;
  answered: string | null;
  non_zero: string | null;
  ner_calls: string | null;
  short_calls: string | null;
  unpriced: string | null;
  duration: string | null;
  ingress_billed_time: string | null;
  egress_billed_time: string | null;
  revenue: string | null;
  cost: string | null;
  pdd_sum: string | null;
  pdd_calls: string | null;
}

const n = (v: string | null | undefined) => (v === null || v === undefined ? 0 : Number(v));
const money = (v: string | null | undefined) => (v === null || v === undefined ? 0n : parseMoney(v));

/** A row of sums as figures for this user (money exact; cost hidden unless allowed). */
export function figuresOf(r: SumsRow, scope: Scope): Figures {
  const sums: TrafficSums = {
    attempts: n(r.attempts),
    answered: n(r.answered),
    non_zero: n(r.non_zero),
    ner_calls: n(r.ner_calls),
    duration: n(r.duration),
    pdd_sum: n(r.pdd_sum),
    pdd_calls: n(r.pdd_calls),
  };
  const revenue = scope.vendorSide ? money(r.cost) : money(r.revenue);
  const cost = money(r.cost);
  const show = scope.costVisible && !scope.vendorSide;
  return {
    attempts: sums.attempts,
    answered: sums.answered,
    non_zero: sums.non_zero,
    ner_calls: sums.ner_calls,
    short_calls: n(r.short_calls),
    unpriced: n(r.unpriced),
    duration: sums.duration,
    billed_time: scope.vendorSide ? n(r.egress_billed_time) : n(r.ingress_billed_time),
    cost_billed_time: show ? n(r.egress_billed_time) : null,
    revenue: formatMoney(revenue, 6),
    cost: show ? formatMoney(cost, 6) : null,
    profit: show ? formatMoney(revenue - cost, 6) : null,
    margin: show ? marginPercent(revenue, cost) : null,
    ...qosOf(sums),
  };
}

/** The WHERE of a report: range, tenancy and filters. */
function whereOf(q: Query, range: Range, scope: Scope): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [
    sql`s.bucket >= ${new Date(range.from).toISOString()}::timestamptz`,
    sql`s.bucket < ${new Date(range.to).toISOString()}::timestamptz`,
  ];
  if (scope.where) c.push(scope.where);
  const anyOf = (col: string, ids: readonly number[]) => {
    if (ids.length > 0) c.push(sql`${sql.raw(col)} = ANY(${[...ids]}::int4[])`);
  };
  anyOf('s.ingress_client_id', q.customer_ids);
  anyOf('s.egress_client_id', q.vendor_ids);
  anyOf('s.ingress_trunk_id', q.ingress_trunk_ids);
  anyOf('s.egress_trunk_id', q.egress_trunk_ids);
  if (q.country) c.push(sql`s.term_country = ${q.country}`);
  if (q.code) c.push(sql`s.egress_code = ${q.code}`);
  // DID traffic came in on a DID vendor's trunk (docs/did.md); termination is everything else.
  if (q.traffic === 'did')
    c.push(sql`s.ingress_trunk_id IN (SELECT trunk_id FROM trunks WHERE trunk_type2 = 'did')`);
  if (q.traffic === 'termination')
    c.push(sql`s.ingress_trunk_id NOT IN (SELECT trunk_id FROM trunks WHERE trunk_type2 = 'did')`);
  if (q.duration === 'non_zero') c.push(sql`s.non_zero`);
  if (q.duration === 'zero') c.push(sql`NOT s.non_zero`);
  return sql.join(c, sql` AND `);
}

/** Groups the hourly roll-up can answer (it has no code, cause or non-zero key). */
const HOURLY_GROUPS: readonly GroupBy[] = [
  'customer',
  'vendor',
  'ingress_trunk',
  'egress_trunk',
  'country',
  'day',
  'hour',
];
const HOUR = 3_600_000;
const DAY = 86_400_000;
const HOURLY_COLUMNS = `bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, term_country,
  attempts, answered, non_zero_calls, ner_calls, short_calls, unpriced, duration, ingress_billed_time,
  egress_billed_time, revenue, cost, pdd_sum, pdd_calls`;
/** Every column of the 15-minute rows, which the daily detail rows share. */
const DETAIL_COLUMNS = `bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, egress_code,
  term_country, release_cause, release_side, non_zero, attempts, answered, non_zero_calls, ner_calls, short_calls,
  unpriced, duration, ingress_billed_time, egress_billed_time, revenue, cost, pdd_sum, pdd_calls`;

/**
 * The rows a report sums, as `s`, so that it reads as few as its question allows:
 * - when it needs nothing finer than the roll-ups (no code, cause or duration filter or group): the
 *   daily rows for the whole UTC days of the range (not when grouped by hour, nor by day in a zone
 *   other than UTC: a UTC day is not a local day), the hourly rows for the other whole hours, the 15-minute rows of the
 *   ragged ends;
 * - otherwise, on the same condition: the daily detail rows (the 15-minute key per UTC
 *   day) for the whole UTC days, the 15-minute rows of the ragged ends;
 * - otherwise the 15-minute rows.
 */
export function sourceOf(
  q: Pick<Query, 'group_by' | 'code' | 'duration'> & { tz?: string },
  range: Range,
): RawBuilder<unknown> {
  if (byHost(q)) return sql`cdr_host_summaries s`;
  const coarse = q.group_by.every((g) => HOURLY_GROUPS.includes(g)) && !q.code && q.duration === 'all';
  // day rows serve day groups only where a local day is a UTC day (offset +0000)
  const utcDays = q.tz === undefined || offsetMinutes(q.tz) === 0;
  const daily = !q.group_by.includes('hour') && (utcDays || !q.group_by.includes('day'));
  const t = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
  const part = (cols: RawBuilder<unknown>, table: string, from: number, to: number) =>
    sql`SELECT ${cols} FROM ${sql.table(table)} WHERE bucket >= ${t(from)} AND bucket < ${t(to)}`;
  if (!coarse) {
    const dFrom = Math.ceil(range.from / DAY) * DAY;
    const dTo = Math.floor(range.to / DAY) * DAY;
    if (!daily || dTo <= dFrom) return sql`cdr_summaries s`;
    const cols = sql.raw(DETAIL_COLUMNS);
    const parts = [
      part(cols, 'cdr_summaries', range.from, dFrom),
      part(cols, 'cdr_summaries_daily_detail', dFrom, dTo),
      part(cols, 'cdr_summaries', dTo, range.to),
    ];
    return sql`(${sql.join(parts, sql` UNION ALL `)}) s`;
  }
  const hFrom = Math.ceil(range.from / HOUR) * HOUR;
  const hTo = Math.floor(range.to / HOUR) * HOUR;
  if (hTo <= hFrom) return sql`cdr_summaries s`;
  let dFrom = Math.ceil(hFrom / DAY) * DAY;
  let dTo = Math.floor(hTo / DAY) * DAY;
  if (!daily || dTo <= dFrom) dFrom = dTo = hTo; // no daily part: hours up to hTo
  const cols = sql.raw(HOURLY_COLUMNS);
  const parts = [
    part(cols, 'cdr_summaries', range.from, hFrom),
    part(cols, 'cdr_summaries_hourly', hFrom, dFrom),
    part(cols, 'cdr_summaries_daily', dFrom, dTo),
    part(cols, 'cdr_summaries_hourly', dTo, hTo),
    part(cols, 'cdr_summaries', hTo, range.to),
  ];
  return sql`(${sql.join(parts, sql` UNION ALL `)}) s`;
}

/**
 * Where the summaries begin: the start (UTC midnight) of the day of their oldest interval; null
 * when there is none yet. They hold every CDR stored since (the migration summarised the CDRs
 * stored before it), so a range from that day on is complete; before it there are no figures.
 */
export async function dataFrom(db: Db): Promise<number | null> {
  const r = await sql<{ b: Date | null }>`SELECT min(bucket) AS b FROM cdr_summaries`.execute(db);
  const b = r.rows[0]?.b ?? null;
  return b === null ? null : Math.floor(new Date(b).getTime() / 86_400_000) * 86_400_000;
}

export async function coverageOf(db: Db, range: Range, scope: Scope): Promise<Coverage> {
  const oldest = await dataFrom(db);
  return {
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    data_from: oldest === null ? null : new Date(oldest).toISOString(),
    complete: oldest !== null && range.from >= oldest,
    cost_visible: scope.costVisible && !scope.vendorSide,
  };
}

/** The totals of a range for this user. */
export async function totalsOf(db: Db, q: Query, range: Range, scope: Scope): Promise<Figures> {
  const r =
    await sql<SumsRow>`SELECT ${SUMS} FROM ${sourceOf(q, range)} WHERE ${whereOf(q, range, scope)}`.execute(
      db,
    );
  return figuresOf(r.rows[0] ?? ({} as SumsRow), scope);
}

/** Grouped rows of a range for this user (names of carriers and trunks joined after the sums). */
export async function groupedRows(
  db: Db,
  q: Query,
  range: Range,
  scope: Scope,
): Promise<{ rows: Row[]; total: number }> {
  const cols = q.group_by.flatMap((g) => GROUPS[g].cols(offsetMinutes(q.tz)));
  if (cols.length === 0) return { rows: [], total: 0 };
  const select = sql.join(cols.map(([a, e]) => sql`${sql.raw(e)} AS ${sql.ref(a)}`));
  const groupBy = sql.join(cols.map((_, i) => sql.raw(String(i + 1))));
  const names: RawBuilder<unknown>[] = [];
  const joins: RawBuilder<unknown>[] = [];
  const named = (id: string, label: string, table: 'carriers' | 'trunks', key: string, alias: string) => {
    if (!cols.some(([a]) => a === id)) return;
    names.push(sql`${sql.raw(`${alias}.name`)} AS ${sql.ref(label)}`);
    joins.push(sql.raw(`LEFT JOIN ${table} ${alias} ON ${alias}.${key} = g.${id}`));
  };
  named('customer_id', 'customer', 'carriers', 'client_id', 'nc');
  named('vendor_id', 'vendor', 'carriers', 'client_id', 'nv');
  named('ingress_trunk_id', 'ingress_trunk', 'trunks', 'trunk_id', 'ni');
  named('egress_trunk_id', 'egress_trunk', 'trunks', 'trunk_id', 'ne');
  const r = await sql<SumsRow & Record<string, unknown>>`
    SELECT g.* ${names.length ? sql`, ${sql.join(names)}` : sql``}
    FROM (SELECT ${select}, ${SUMS} FROM ${sourceOf(q, range)} WHERE ${whereOf(q, range, scope)}
      GROUP BY ${groupBy} HAVING sum(s.attempts) <> 0) g
    ${sql.join(joins, sql` `)}`.execute(db);
  const rows: Row[] = r.rows.map((x) => {
    const row: Row = figuresOf(x, scope);
    for (const [a] of cols) {
      const v = x[a];
      if (a.endsWith('_id')) (row as Record<string, unknown>)[a] = v === 0 ? null : Number(v);
      else if (a === 'release_cause') row.release_cause = Number(v);
      else (row as Record<string, unknown>)[a] = String(v);
    }
    for (const [id, label] of [
      ['customer_id', 'customer'],
      ['vendor_id', 'vendor'],
      ['ingress_trunk_id', 'ingress_trunk'],
      ['egress_trunk_id', 'egress_trunk'],
    ] as const)
      if (cols.some(([a]) => a === id)) row[label] = (x[label] as string | null) ?? null;
    return row;
  });
  const order = q.order_by;
  if (order) {
    const key = (row: Row): number =>
      order === 'attempts' || order === 'duration' ? row[order] : Number(row[order] ?? '0'); // sort only: the figures themselves stay exact text
    rows.sort((a, b) => key(b) - key(a));
  } else {
    const keyOf = (row: Row) => cols.map(([a]) => (row[a as keyof Row] ?? '') as string | number);
    rows.sort((a, b) => {
      const ka = keyOf(a);
      const kb = keyOf(b);
      for (let i = 0; i < ka.length; i++) {
        const x = ka[i] ?? '';
        const y = kb[i] ?? '';
        if (x === y) continue;
        if (typeof x === 'number' && typeof y === 'number') return x - y;
        return String(x) < String(y) ? -1 : 1;
      }
      return 0;
    });
  }
  return { rows: rows.slice(0, q.limit), total: rows.length };
}

/** Checks the query against the user (range, grouping) and returns the UTC range it covers. */
export function rangeOf(q: Query, scope: Scope): Range {
  const from = localToUtc(q.from, q.tz);
  const to = localToUtc(q.to, q.tz);
  if (!(to > from)) throw invalidField('to', 'endAfterStart');
  if (to - from > MAX_RANGE_MS) throw invalidField('to', 'statsRangeTooLong', [400]);
  if (scope.allowedGroups) {
    const bad = q.group_by.find((g) => !scope.allowedGroups!.includes(g));
    if (bad !== undefined) throw invalidField('group_by', 'statsGroupNotAllowed', [bad]);
  }
  if (
    byHost(q) &&
    (q.code || q.duration !== 'all' || q.group_by.includes('code') || q.group_by.includes('release_cause'))
  )
    throw invalidField(q.code ? 'code' : q.duration !== 'all' ? 'duration' : 'group_by', 'statsNotByHost');
  if (!scope.costVisible && (q.order_by === 'cost' || q.order_by === 'profit'))
    throw invalidField('order_by', 'statsCostHidden');
  return widen(from, to);
}

/** GET /stats/summary. */
export async function summaryReport(
  db: Db,
  viewer: Viewer,
  q: Query,
): Promise<z.output<typeof api.stats.summaryReport>> {
  const scope = scopeOf(viewer);
  const range = rangeOf(q, scope);
  await foldSummaries(db); // every CDR committed before the question counts
  const [coverage, totals, grouped] = await Promise.all([
    coverageOf(db, range, scope),
    totalsOf(db, q, range, scope),
    groupedRows(db, q, range, scope),
  ]);
  if (q.group_by.length === 0) {
    const rows = totals.attempts !== 0 ? [totals] : [];
    return { coverage, rows, total_rows: rows.length, totals };
  }
  return { coverage, rows: grouped.rows, total_rows: grouped.total, totals };
}
