import { api } from '@tandem/contract';
import { addFigures, emptyFigures, qosOf, type MonitorFigures } from '@tandem/domain';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { blockActiveSql } from '../monitoring/blocks';
import { readFigures } from '../monitoring/evaluate';
import { baseQuery, periodOf, stepFor, stepsOf } from './dashboard';
import { coverageOf, groupedRows, offsetMinutes, scopeOf, totalsOf, widen, type Viewer } from './report';
import { foldSummaries } from './summaries';

/**
 * The admin dashboard's tabs besides the overview (contract api.dashboard, docs/statistics.md
 * "Dashboard"): all from the traffic summaries (the client QoS windows through the monitoring
 * rules' exact sliding windows), the alert tab from the monitoring log and the balance alerts.
 */
type ReportQuery = z.output<typeof api.dashboard.reportQuery>;
type ChartsQuery = z.output<typeof api.dashboard.chartsQuery>;
type QosQuery = z.output<typeof api.dashboard.qosQuery>;
type AlertsQuery = z.output<typeof api.dashboard.alertsQuery>;

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Report tab: every group of the range (by customer, vendor, destination or trunk), largest first, with totals. */
export async function reportTab(db: Db, viewer: Viewer, q: ReportQuery, now = Date.now()) {
  const scope = scopeOf(viewer);
  const range = periodOf(q.range, q.tz, now);
  const query = { ...baseQuery(q.tz), group_by: [q.by] };
  await foldSummaries(db); // every CDR committed before the question counts
  const [coverage, totals, grouped] = await Promise.all([
    coverageOf(db, range, scope),
    totalsOf(db, query, range, scope),
    groupedRows(db, query, range, scope),
  ]);
  return { coverage, rows: grouped.rows, total_rows: grouped.total, totals };
}

/** Charts and QoS report tabs: every figure per step of the range (the overview's steps). */
export async function chartsTab(db: Db, viewer: Viewer, q: ChartsQuery, now = Date.now()) {
  const scope = scopeOf(viewer);
  const range = periodOf(q.range, q.tz, now);
  const step = stepFor(range.to - range.from);
  await foldSummaries(db); // every CDR committed before the question counts
  const [coverage, series] = await Promise.all([
    coverageOf(db, range, scope),
    stepsOf(db, range, scope, step, offsetMinutes(q.tz), viewer.carrierIds === null),
  ]);
  return { coverage, step_minutes: step, series };
}

/** Peaks: the last 24 hours per hour and the last 7 days (from the zone's midnight 6 days ago) per day. */
export async function peaksTab(db: Db, viewer: Viewer, tz: string, now = Date.now()) {
  const scope = scopeOf(viewer);
  const off = offsetMinutes(tz) * MIN;
  const hoursRange = widen(Math.floor(now / HOUR) * HOUR - 23 * HOUR, now);
  const daysRange = widen(Math.floor((now + off) / DAY) * DAY - off - 6 * DAY, now);
  const channels = viewer.carrierIds === null;
  await foldSummaries(db); // every CDR committed before the question counts
  const [coverage, hours, days] = await Promise.all([
    coverageOf(db, daysRange, scope),
    stepsOf(db, hoursRange, scope, 60, offsetMinutes(tz), channels),
    stepsOf(db, daysRange, scope, 1440, offsetMinutes(tz), channels),
  ]);
  const busiest = (points: typeof hours) =>
    points.reduce<(typeof hours)[number] | null>(
      (b, p) => (p.attempts > 0 && (b === null || p.attempts > b.attempts) ? p : b),
      null,
    )?.at ?? null;
  const peak = (points: typeof hours) =>
    points.reduce<number | null>((m, p) => (p.channels === null ? m : Math.max(m ?? 0, p.channels)), null);
  return {
    coverage,
    hours,
    days,
    busiest_hour: busiest(hours),
    busiest_day: busiest(days),
    peak_channels_24h: peak(hours),
    peak_channels_7d: peak(days),
  };
}

const qosFigures = (f: MonitorFigures) => {
  const q = qosOf({
    attempts: f.attempts,
    answered: f.answered,
    non_zero: f.non_zero_calls,
    ner_calls: f.ner_calls,
    duration: f.duration,
    pdd_sum: f.pdd_sum,
    pdd_calls: f.pdd_calls,
  });
  return {
    attempts: f.attempts,
    answered: f.answered,
    duration: f.duration,
    asr: q.asr,
    acd: q.acd,
    pdd: q.pdd,
    ner: q.ner,
  };
};

/**
 * Inbound (ingress) and outbound (egress) client QoS tabs: per trunk of the side, its figures over
 * the last 15 minutes, hour and 24 hours, read as the monitoring rules read theirs (readFigures:
 * the 15-minute summaries and the raw CDRs of the window's leading edge, exact to the second).
 */
export async function qosTab(db: Db, viewer: Viewer, q: QosQuery, now = Date.now()) {
  const keys = Object.keys(api.dashboard.QOS_WINDOWS) as api.dashboard.QosWindow[];
  const filter = { side: q.side, trunkIds: null, codeMode: 'all' as const, codes: [], byAni: false };
  const perWindow = await Promise.all(
    keys.map((k) => readFigures(db, filter, now, api.dashboard.QOS_WINDOWS[k])),
  );
  const ids = [...new Set(perWindow.flatMap((m) => [...m.keys()].map(Number)))];
  const names = ids.length
    ? await db
        .selectFrom('trunks as t')
        .leftJoin('carriers as c', 'c.client_id', 't.carrier_id')
        .select(['t.trunk_id', 't.name as trunk', 't.carrier_id', 'c.name as carrier'])
        .where('t.trunk_id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(names.map((n) => [n.trunk_id, n]));
  const allowed = viewer.carrierIds === null ? null : new Set(viewer.carrierIds);
  const totals = keys.map(() => emptyFigures());
  const rows = ids
    .filter((id) => allowed === null || allowed.has(byId.get(id)?.carrier_id ?? -1))
    .map((id) => {
      const n = byId.get(id);
      const w = keys.map((_, i) => perWindow[i]!.get(String(id)) ?? emptyFigures());
      w.forEach((f, i) => addFigures(totals[i]!, f));
      return {
        trunk_id: id,
        trunk: n?.trunk ?? null,
        carrier_id: n?.carrier_id ?? null,
        carrier: n?.carrier ?? null,
        m15: qosFigures(w[0]!),
        h1: qosFigures(w[1]!),
        h24: qosFigures(w[2]!),
      };
    })
    .sort(
      (a, b) => b.h1.attempts - a.h1.attempts || b.h24.attempts - a.h24.attempts || a.trunk_id - b.trunk_id,
    );
  return {
    side: q.side,
    at: new Date(now).toISOString(),
    rows,
    totals: { m15: qosFigures(totals[0]!), h1: qosFigures(totals[1]!), h24: qosFigures(totals[2]!) },
  };
}

/**
 * Alert tab: the monitoring and fraud rules' events of the range (the latest 200, e-mail events
 * counted only), the blocks in force, and the carriers below their low-balance line or zero now.
 * A viewer limited to its carriers sees the events of their trunks and their balances only.
 */
export async function alertsTab(db: Db, viewer: Viewer, q: AlertsQuery, now = Date.now()) {
  const range = periodOf(q.range, q.tz, now);
  const from = new Date(range.from);
  const to = new Date(range.to);
  const ids = viewer.carrierIds;
  const ofCarriers = (col: string) =>
    ids === null
      ? sql<boolean>`true`
      : sql<boolean>`${sql.ref(col)} IN (SELECT trunk_id FROM trunks WHERE carrier_id = ANY(${[...ids]}::int4[]))`;
  const [counts, events, blocks, balances] = await Promise.all([
    sql<{ event: string; n: number }>`
      SELECT event, count(*)::int AS n FROM monitoring_log
      WHERE at >= ${from} AND at < ${to} AND ${ofCarriers('trunk_id')} GROUP BY event`.execute(db),
    sql<{
      at: Date;
      rule_kind: string;
      rule_name: string;
      event: string;
      subject: string;
      detail: string;
      trunk_id: number | null;
    }>`
      SELECT at, rule_kind, rule_name, event, subject, detail, trunk_id FROM monitoring_log
      WHERE at >= ${from} AND at < ${to} AND event NOT IN ('email_sent', 'email_failed')
        AND ${ofCarriers('trunk_id')}
      ORDER BY at DESC, id DESC LIMIT 200`.execute(db),
    sql<{ n: number }>`
      SELECT count(*)::int AS n FROM monitoring_blocks
      WHERE ${blockActiveSql('', new Date(now))} AND ${ofCarriers('trunk_id')}`.execute(db),
    sql<{
      client_id: number;
      name: string;
      event: 'low_balance' | 'zero_balance';
      balance: string;
      changed_at: Date;
    }>`
      SELECT a.client_id, c.name, a.event, c.balance::text AS balance, a.changed_at
      FROM balance_alerts a JOIN carriers c ON c.client_id = a.client_id
      WHERE a.below ${ids === null ? sql`` : sql`AND a.client_id = ANY(${[...ids]}::int4[])`}
      ORDER BY a.event DESC, a.changed_at DESC`.execute(db),
  ]);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    counts: Object.fromEntries(counts.rows.map((r) => [r.event, Number(r.n)])),
    events: events.rows.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
    active_blocks: Number(blocks.rows[0]?.n ?? 0),
    balances: balances.rows.map((b) => ({
      carrier_id: b.client_id,
      carrier: b.name,
      event: b.event,
      balance: b.balance,
      since: new Date(b.changed_at).toISOString(),
    })),
  };
}
