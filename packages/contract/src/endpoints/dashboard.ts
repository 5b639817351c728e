import { z } from 'zod';
import { adminOnly } from '../access';
import { endpoint } from '../endpoint';
import { timezoneOffset } from './config';
import { coverage, dashboardQuery, figures, FUNC, summaryReport } from './stats';

/**
 * The admin dashboard's tabs (spec 02 section 2: /statistics/dashboard/{tab}; docs/statistics.md
 * "Dashboard"): the overview is GET /stats/dashboard; each other tab has its own call, all read
 * with read on /statistics/dashboard and over the same quick ranges. Admins only (the portals have
 * their own dashboards); a role without "View All Carriers" sees its user's carriers only.
 */
export const TABS = [
  'report',
  'charts',
  'alert',
  'ingress_client_qos',
  'egress_client_qos',
  'qos_report',
] as const;
export type DashboardTab = (typeof TABS)[number];
const TAG = 'statistics';
const access = adminOnly(FUNC.dashboard, 'read');

/** Report tab: the range's figures per customer, vendor, destination or trunk, every row, with totals. */
export const REPORT_BY = ['customer', 'vendor', 'country', 'ingress_trunk', 'egress_trunk'] as const;
export const reportQuery = dashboardQuery.omit({ top: true }).extend({
  by: z.enum(REPORT_BY).default('customer'),
});
export const getReport = endpoint({
  method: 'GET',
  path: '/stats/dashboard/report',
  summary: 'Dashboard report tab: the quick range per customer, vendor, destination or trunk, with totals',
  tag: TAG,
  access,
  query: reportQuery,
  payload: summaryReport,
});

/** One step of the charts: every figure, and the channels. */
export const chartPoint = figures.extend({
  /** Step start, UTC ISO. */
  at: z.string(),
  /** Average calls up over the step (Erlang): the answered seconds of the calls started in it / the step's seconds. */
  erlangs: z.number(),
  /** Most calls up at once in the step as the switch reported them (/switch/calls); null without a report. */
  channels: z.number().nullable(),
});
export type ChartPoint = z.output<typeof chartPoint>;
export const chartsQuery = dashboardQuery.omit({ top: true });
export const charts = z.object({
  coverage,
  /** 15 minutes up to 2 days, an hour up to 15 days, else a day (in `tz`). */
  step_minutes: z.number(),
  series: z.array(chartPoint),
});
export const getCharts = endpoint({
  method: 'GET',
  path: '/stats/dashboard/charts',
  summary:
    'Dashboard charts and QoS report tabs: every figure per step of the quick range (calls, minutes, money, QoS, channels)',
  tag: TAG,
  access,
  query: chartsQuery,
  payload: charts,
});

/** Peaks: the last 24 hours per hour and the last 7 days per day (in `tz`), with the busiest of each. */
export const peaksQuery = z.object({ tz: timezoneOffset.default('+0000') });
export const peaks = z.object({
  coverage,
  hours: z.array(chartPoint),
  days: z.array(chartPoint),
  /** The hour and day with the most attempts (null without traffic), and with the most channels. */
  busiest_hour: z.string().nullable(),
  busiest_day: z.string().nullable(),
  peak_channels_24h: z.number().nullable(),
  peak_channels_7d: z.number().nullable(),
});
export const getPeaks = endpoint({
  method: 'GET',
  path: '/stats/dashboard/peaks',
  summary: 'Dashboard peaks: the last 24 hours per hour and the last 7 days per day, with the busiest',
  tag: TAG,
  access,
  query: peaksQuery,
  payload: peaks,
});

/** Client QoS tabs: per trunk of one side, its QoS over the last 15 minutes, hour and 24 hours. */
export const QOS_WINDOWS = { m15: 15, h1: 60, h24: 1440 } as const;
export type QosWindow = keyof typeof QOS_WINDOWS;
export const qosQuery = z.object({ side: z.enum(['ingress', 'egress']).default('ingress') });
export const qosFigures = z.object({
  attempts: z.number(),
  answered: z.number(),
  /** Seconds. */
  duration: z.number(),
  asr: z.number().nullable(),
  acd: z.number().nullable(),
  pdd: z.number().nullable(),
  ner: z.number().nullable(),
});
const windows = z.object({ m15: qosFigures, h1: qosFigures, h24: qosFigures });
export const qosRow = windows.extend({
  trunk_id: z.number(),
  trunk: z.string().nullable(),
  carrier_id: z.number().nullable(),
  carrier: z.string().nullable(),
});
export const qos = z.object({
  side: z.enum(['ingress', 'egress']),
  /** The windows end now (UTC ISO). */
  at: z.string(),
  rows: z.array(qosRow),
  totals: windows,
});
export const getQos = endpoint({
  method: 'GET',
  path: '/stats/dashboard/qos',
  summary:
    'Dashboard inbound (ingress) and outbound (egress) client QoS tabs: per trunk, ASR/ACD/PDD/NER over the last 15 minutes, hour and 24 hours',
  tag: TAG,
  access,
  query: qosQuery,
  payload: qos,
});

/** Alert tab: what fired in the range (monitoring and fraud rules), the blocks in force and the carriers below their balance lines. */
export const alertsQuery = dashboardQuery.omit({ top: true });
export const alertEvent = z.object({
  at: z.string(),
  rule_kind: z.string(),
  rule_name: z.string(),
  event: z.string(),
  subject: z.string(),
  detail: z.string(),
  trunk_id: z.number().nullable(),
});
export const alerts = z.object({
  from: z.string(),
  to: z.string(),
  /** Events per kind in the range (triggered, cleared, blocked, unblocked, loop, email_sent, email_failed). */
  counts: z.record(z.string(), z.number()),
  /** The latest 200 events of the range, newest first (e-mail events left out). */
  events: z.array(alertEvent),
  active_blocks: z.number(),
  /** Carriers whose available credit is below their low-balance line or zero now. */
  balances: z.array(
    z.object({
      carrier_id: z.number(),
      carrier: z.string(),
      event: z.enum(['low_balance', 'zero_balance']),
      balance: z.string(),
      since: z.string(),
    }),
  ),
});
export const getAlerts = endpoint({
  method: 'GET',
  path: '/stats/dashboard/alerts',
  summary:
    'Dashboard alert tab: rule events of the range, blocks in force, carriers below their balance lines',
  tag: TAG,
  access,
  query: alertsQuery,
  payload: alerts,
});
