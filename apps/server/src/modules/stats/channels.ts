import { api, type Language } from '@tandem/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { invalidField } from '../../http/errors';
import type { ExportColumn } from '../../jobs/exports';
import type { Services } from '../../services';
import { viewerFor } from './options';
import { localToUtc, offsetMinutes, type Viewer } from './report';
import type { Mailed } from './reports';

type Query = z.output<typeof api.reports.channelQuery>;
type Answer = z.output<typeof api.reports.channelReport>;

const DAY = 86_400_000;
/** The raw CDRs are read for this report only: a month at most. */
export const CHANNEL_MAX_DAYS = 31;

/**
 * Peak concurrent calls per day (in the user's zone) and trunk, from each call's start and end
 * (docs/statistics.md "Daily channel usage"). A call holds a channel from its start to its end;
 * at one instant ends count before starts. Each day also starts with the calls carried over from
 * the day before. Calls are looked for from a day before the range (longer calls are cut).
 */
export async function channelUsage(db: Db, viewer: Viewer, q: Query): Promise<Answer> {
  const { from, to } = channelRange(q);
  const off = offsetMinutes(q.tz);
  const t = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
  const trunk = sql.raw(q.direction === 'ingress' ? 'ingress_trunk_id' : 'egress_trunk_id');
  const carrier = sql.raw(q.direction === 'ingress' ? 'ingress_client_id' : 'egress_client_id');
  const filter = sql`${q.trunk_ids.length ? sql`AND ${trunk} = ANY(${[...q.trunk_ids]}::int4[])` : sql``}
    ${viewer.carrierIds === null ? sql`` : sql`AND ${carrier} = ANY(${[...viewer.carrierIds]}::int4[])`}`;
  // the local midnights of the range (the first: the start itself)
  const firstMidnight = Math.ceil((from + off * 60_000) / DAY) * DAY - off * 60_000;
  const r = await sql<{
    trunk: number;
    day: string;
    peak: string;
    peak_at: Date;
    calls: string;
    name: string | null;
  }>`
    WITH c AS (
      SELECT ${trunk} AS trunk, start_time AS s, end_time AS e FROM cdrs
      WHERE start_time >= ${t(from - DAY)} AND start_time < ${t(to)} AND end_time > ${t(from)}
        AND ${trunk} IS NOT NULL ${filter}
    ),
    marks AS (
      SELECT ${t(from)} AS m
      UNION ALL SELECT generate_series(${t(firstMidnight)}, ${t(to - 1)}, interval '1 day')
    ),
    ev AS (
      SELECT trunk, s AS at, 1 AS delta FROM c
      UNION ALL SELECT trunk, e, -1 FROM c
      UNION ALL SELECT tr.trunk, marks.m, 0 FROM (SELECT DISTINCT trunk FROM c) tr CROSS JOIN marks
    ),
    run AS (
      SELECT trunk, at, delta,
        sum(delta) OVER (PARTITION BY trunk ORDER BY at, delta ROWS UNBOUNDED PRECEDING) AS live
      FROM ev
    ),
    days AS (
      SELECT trunk, to_char((at AT TIME ZONE 'UTC') + make_interval(mins => ${off}), 'YYYY-MM-DD') AS day,
        max(live)::text AS peak, (array_agg(at ORDER BY live DESC, at))[1] AS peak_at,
        count(*) FILTER (WHERE delta = 1)::text AS calls
      FROM run WHERE at >= ${t(from)} AND at < ${t(to)}
      GROUP BY 1, 2
    )
    SELECT days.*, tr.name FROM days LEFT JOIN trunks tr ON tr.trunk_id = days.trunk
    WHERE days.peak::int > 0
    ORDER BY days.day, days.trunk`.execute(db);
  const rows = r.rows.map((x) => ({
    day: x.day,
    trunk_id: Number(x.trunk),
    trunk: x.name,
    peak: Number(x.peak),
    peak_at: new Date(x.peak_at).toISOString(),
    calls: Number(x.calls),
  }));
  return {
    rows,
    peak: rows.reduce((m, x) => Math.max(m, x.peak), 0),
    calls: rows.reduce((s, x) => s + x.calls, 0),
  };
}

/** The UTC range of a channel report, checked (end after start, a month at most). */
export function channelRange(q: Pick<Query, 'from' | 'to' | 'tz'>): { from: number; to: number } {
  const from = localToUtc(q.from, q.tz);
  const to = localToUtc(q.to, q.tz);
  if (!(to > from)) throw invalidField('to', 'endAfterStart');
  if (to - from > CHANNEL_MAX_DAYS * DAY) throw invalidField('to', 'statsRangeTooLong', [CHANNEL_MAX_DAYS]);
  return { from, to };
}

const LABELS: Record<'day' | 'trunk' | 'peak' | 'peak_at' | 'calls', Record<Language, string>> = {
  day: { en: 'Day', de: 'Tag', ch: '日期' },
  trunk: { en: 'Trunk', de: 'Trunk', ch: '中继' },
  peak: { en: 'Peak channels', de: 'Spitzenkanäle', ch: '峰值信道' },
  peak_at: { en: 'Peak at (UTC)', de: 'Spitze um (UTC)', ch: '峰值时间（UTC）' },
  calls: { en: 'Calls started', de: 'Begonnene Anrufe', ch: '发起呼叫' },
};

const channelColumns = (lang: Language): ExportColumn[] =>
  (['day', 'trunk', 'peak', 'peak_at', 'calls'] as const).map((k) => ({
    key: k,
    header: LABELS[k][lang],
    numeric: k === 'peak' || k === 'calls',
  }));
const channelRows = (a: Answer, lang: Language): Record<string, unknown>[] => [
  ...a.rows,
  { day: api.reports.COLUMN_LABELS.total[lang], peak: a.peak, calls: a.calls },
];

/** Export kind `report.daily_channel_usage_report`: the same rows as XLSX or CSV, with the highest peak last. */
export function registerChannelExport(s: Services): void {
  s.exports.register<Query, { lang: Language; viewer: Viewer }>('report.daily_channel_usage_report', {
    permission: { func: api.reports.CHANNEL_FUNC, level: 'read' },
    filter: api.reports.channelQuery,
    fileName: 'daily_channel_usage_report',
    sheet: 'Daily Channel Usage Report',
    async prepare(f, actor, lang) {
      channelRange(f);
      return { lang, viewer: await viewerFor(s.db, actor) };
    },
    columns: ({ lang }) => channelColumns(lang),
    async *pages(filter, _u, { lang, viewer }) {
      yield channelRows(await channelUsage(s.db, viewer, filter), lang);
    },
  });
}

/** The channel report mailed now or on a schedule (reports.ts MAILED). */
export const channelMail: Mailed = {
  label: 'Daily Channel Usage Report',
  func: api.reports.CHANNEL_FUNC,
  parse: (q) => api.reports.channelQuery.parse(q),
  check(_viewer, q, { range = false } = {}) {
    if (range) channelRange(q as Query);
  },
  async sheet(s, viewer, lang, q) {
    const a = await channelUsage(s.db, viewer, q as Query);
    return {
      columns: channelColumns(lang),
      rows: channelRows(a, lang),
      complete: true,
      lines: [`${LABELS.peak[lang]}: ${a.peak}`, `${LABELS.calls[lang]}: ${a.calls}`],
    };
  },
};
