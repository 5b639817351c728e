import { z } from 'zod';
import { adminOnly, SIGNED_IN } from '../access';
import { idParams } from '../common';
import { endpoint } from '../endpoint';
import { timezoneOffset } from './config';

/**
 * Statistics (issue 11, docs/statistics.md): reports read the traffic summaries (15-minute UTC
 * intervals kept by the CDR ingest), never the raw CDRs. Admins see every carrier; a client user
 * its own traffic (as customer), a vendor user its side (as vendor: what it sold and earned), an
 * agent its clients' traffic. Cost, rate and profit only for roles with "view cost and rate in
 * reports" (read on FUNC.costAndRate).
 */
export const FUNC = {
  dashboard: '/statistics/dashboard',
  summaryReport: '/statistics/summary_report',
  /** "View cost and rate in reports" (spec 02 section 6): the one Finance function permission the CDR search reads too. */
  costAndRate: 'finance:view_cost_and_rate',
  /** "View all carriers" (spec 02 section 6): without it, statistics show the carriers of the user's list only. */
  viewAllCarriers: 'statistics:view_all_carriers',
  activeCalls: '/statistics/active_call_report',
} as const;
const TAG = 'statistics';
const PORTALS = ['client', 'vendor', 'agent'] as const;

export const GROUP_BY = [
  'customer',
  'vendor',
  'ingress_trunk',
  'egress_trunk',
  'country',
  'code',
  'release_cause',
  'day',
  'hour',
  'ingress_host',
  'egress_host',
] as const;
export type GroupBy = (typeof GROUP_BY)[number];
/** What each portal user may group by (carriers on the other side of the call stay hidden). */
export const PORTAL_GROUP_BY: Record<(typeof PORTALS)[number], readonly GroupBy[]> = {
  client: ['ingress_trunk', 'country', 'code', 'release_cause', 'day', 'hour'],
  vendor: ['egress_trunk', 'country', 'code', 'release_cause', 'day', 'hour'],
  agent: ['customer', 'ingress_trunk', 'country', 'code', 'release_cause', 'day', 'hour'],
};
export const DURATION_FILTERS = ['all', 'non_zero', 'zero'] as const;

/** A wall-clock time in the user's time zone: `YYYY-MM-DD HH:mm` (or with a T). */
export const localTime = z
  .string()
  .max(19)
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/, { message: 'invalidValue' })
  .refine((v) => !Number.isNaN(Date.parse(v.replace(' ', 'T') + 'Z')), { message: 'invalidValue' });

/** A comma-separated list of ids in a query (`1,2,3`), at most 200. */
const idList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v === ''
        ? []
        : v.split(',').map((x) => (/^\d+$/.test(x.trim()) ? Number(x.trim()) : x))
      : v,
  z.array(z.number().int().positive().max(2_147_483_647)).max(200),
);
const groupList = z.preprocess(
  (v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',')) : v),
  z
    .array(z.enum(GROUP_BY))
    .max(3)
    .refine((a) => new Set(a).size === a.length, { message: 'invalidValue' })
    .refine((a) => !(a.includes('day') && a.includes('hour')), { message: 'invalidValue' }),
);

export const summaryQuery = z.object({
  /** Start, inclusive, in `tz`. */
  from: localTime,
  /** End, exclusive, in `tz`; after `from`, at most 400 days later. */
  to: localTime,
  /** The user's time zone as the frame shows it ('+0800'); day and hour groups follow it. */
  tz: timezoneOffset.default('+0000'),
  group_by: groupList.default([]),
  customer_ids: idList.default([]),
  vendor_ids: idList.default([]),
  ingress_trunk_ids: idList.default([]),
  egress_trunk_ids: idList.default([]),
  /** Destination country (the vendor rate row's country), exact. */
  country: z.string().trim().max(64).optional(),
  /** Destination code (the vendor's), exact. */
  code: z.string().trim().max(32).regex(/^\d*$/, { message: 'invalidValue' }).optional(),
  /** Non-zero: answered calls that lasted at least a second; zero: the others. */
  duration: z.enum(DURATION_FILTERS).default('all'),
  /** Rows sorted by this figure, largest first, and cut to `limit` (for "top N"); default: by group. */
  order_by: z.enum(['attempts', 'duration', 'revenue', 'cost', 'profit']).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
  /** Only DID traffic (calls from DID vendors to DIDs, docs/did.md) or only termination; unset: both. */
  traffic: z.enum(['termination', 'did']).optional(),
});
export type SummaryQuery = z.input<typeof summaryQuery>;

/** Figures of one report row (or the totals). Money as exact decimal text; null where hidden or undefined. */
export const figures = z.object({
  attempts: z.number(),
  answered: z.number(),
  non_zero: z.number(),
  ner_calls: z.number(),
  short_calls: z.number(),
  unpriced: z.number(),
  /** Seconds, answer to end. */
  duration: z.number(),
  /** Billed seconds on the customer's side (for a vendor user: its own side). */
  billed_time: z.number(),
  /** Billed seconds on the vendor's side; null when cost is hidden. */
  cost_billed_time: z.number().nullable(),
  /** What the customer pays (for a vendor user: what it earned). */
  revenue: z.string(),
  cost: z.string().nullable(),
  profit: z.string().nullable(),
  /** Profit / revenue, percent with 2 decimals (exact). */
  margin: z.string().nullable(),
  asr: z.number().nullable(),
  acd: z.number().nullable(),
  aloc: z.number().nullable(),
  pdd: z.number().nullable(),
  ner: z.number().nullable(),
});
export type Figures = z.output<typeof figures>;

export const summaryRow = figures.extend({
  /** The group's values, for the dimensions grouped by (others absent). */
  customer_id: z.number().nullable().optional(),
  customer: z.string().nullable().optional(),
  vendor_id: z.number().nullable().optional(),
  vendor: z.string().nullable().optional(),
  ingress_trunk_id: z.number().nullable().optional(),
  ingress_trunk: z.string().nullable().optional(),
  egress_trunk_id: z.number().nullable().optional(),
  egress_trunk: z.string().nullable().optional(),
  country: z.string().optional(),
  code: z.string().optional(),
  release_cause: z.number().optional(),
  /** `YYYY-MM-DD` in the user's time zone. */
  day: z.string().optional(),
  /** `YYYY-MM-DD HH:00` in the user's time zone. */
  hour: z.string().optional(),
  /** Where the calls came from (the CDR's source IP) and went to (the egress host). */
  ingress_host: z.string().optional(),
  egress_host: z.string().optional(),
});
export type SummaryRow = z.output<typeof summaryRow>;

/** Where the figures come from, so a report never passes a gap for a figure. */
export const coverage = z.object({
  /** The range covered, UTC, widened to whole 15-minute intervals. */
  from: z.string(),
  to: z.string(),
  /** Where the summaries begin (UTC midnight of their oldest interval's day); null when there is no traffic at all yet. */
  data_from: z.string().nullable(),
  /** False when the range starts before `data_from`: the part before it has no figures. */
  complete: z.boolean(),
  /** Whether cost, profit and margin are shown to this user. */
  cost_visible: z.boolean(),
});

export const summaryReport = z.object({
  coverage,
  rows: z.array(summaryRow),
  /** Rows before `limit` cut them. */
  total_rows: z.number(),
  /** Sums of every row that matched (before `limit`). */
  totals: figures,
});
export type SummaryReport = z.output<typeof summaryReport>;

export const getSummaryReport = endpoint({
  method: 'GET',
  path: '/stats/summary',
  summary:
    'Summary report: traffic figures grouped as asked, with a totals row (own traffic only for portal users)',
  tag: TAG,
  access: adminOnly(FUNC.summaryReport, 'read', PORTALS),
  query: summaryQuery,
  payload: summaryReport,
});

/** Dashboard quick ranges (spec 02 section 8): minutes back from now. */
export const QUICK_RANGES = {
  last_5m: 5,
  last_15m: 15,
  last_30m: 30,
  last_1h: 60,
  last_2h: 120,
  last_6h: 360,
  last_12h: 720,
  last_24h: 1440,
  last_7d: 7 * 1440,
  last_15d: 15 * 1440,
  last_30d: 30 * 1440,
  last_60d: 60 * 1440,
} as const;
export type QuickRange = keyof typeof QUICK_RANGES;
export const QUICK_RANGE_KEYS = Object.keys(QUICK_RANGES) as QuickRange[];
/** Dashboard periods of the portals: today and this month in the carrier's time zone. */
export const CALENDAR_RANGES = ['today', 'this_month'] as const;

export const dashboardQuery = z.object({
  range: z
    .string()
    .refine((v) => v in QUICK_RANGES || (CALENDAR_RANGES as readonly string[]).includes(v), {
      message: 'invalidValue',
    })
    .default('last_1h'),
  tz: timezoneOffset.default('+0000'),
  top: z.coerce
    .number()
    .int()
    .min(5)
    .max(100)
    .refine((v) => v === 5 || v === 10 || v === 100, { message: 'invalidValue' })
    .default(5),
});

export const seriesPoint = z.object({
  /** Interval start, UTC ISO. */
  at: z.string(),
  attempts: z.number(),
  answered: z.number(),
  duration: z.number(),
  asr: z.number().nullable(),
});

export const dashboard = z.object({
  coverage,
  totals: figures,
  /** Calls over time: per 15 minutes up to 2 days, per hour up to 15 days, else per day. */
  step_minutes: z.number(),
  series: z.array(seriesPoint),
  /** Top by attempts (empty where the user may not see that side). */
  top_customers: z.array(summaryRow),
  top_vendors: z.array(summaryRow),
  top_destinations: z.array(summaryRow),
});
export type Dashboard = z.output<typeof dashboard>;

export const getDashboard = endpoint({
  method: 'GET',
  path: '/stats/dashboard',
  summary:
    'Dashboard figures for a quick range: totals, QoS, calls over time, top customers, vendors, destinations',
  tag: TAG,
  access: adminOnly(FUNC.dashboard, 'read', PORTALS),
  query: dashboardQuery,
  payload: dashboard,
});

/** Active Call Report: the calls up now per trunk and carrier, as the switch last reported them. */
export const activeCallsQuery = z.object({ tz: timezoneOffset.default('+0000') });
export const activeTrunk = z.object({
  trunk_id: z.number(),
  trunk: z.string().nullable(),
  direction: z.enum(['ingress', 'egress']).nullable(),
  carrier_id: z.number().nullable(),
  carrier: z.string().nullable(),
  /** Calls up now: the switch's last report plus the calls routed since it (as the call limits count them). */
  calls: z.number(),
  /** The trunk's call limit (null: none). */
  call_limit: z.number().nullable(),
  /** Most calls up at once today (in `tz`) as reported. */
  peak_today: z.number().nullable(),
});
export const activeCarrier = z.object({
  carrier_id: z.number(),
  carrier: z.string().nullable(),
  /** Calls up on its ingress trunks (as customer) and egress trunks (as vendor). */
  ingress_calls: z.number(),
  egress_calls: z.number(),
});
export const activeCalls = z.object({
  /** When the switch last reported its calls (UTC ISO); null: never since this server started. */
  reported_at: z.string().nullable(),
  /** Calls up over the ingress trunks (each call once). */
  total: z.number(),
  /** The switch's peak today (in `tz`). */
  peak_today: z.number().nullable(),
  trunks: z.array(activeTrunk),
  carriers: z.array(activeCarrier),
});
export const getActiveCalls = endpoint({
  method: 'GET',
  path: '/stats/active_calls',
  summary: 'Active Call Report: calls up now per trunk and carrier, from the switch reports (/switch/calls)',
  tag: TAG,
  access: adminOnly(FUNC.activeCalls, 'read'),
  query: activeCallsQuery,
  payload: activeCalls,
});

/**
 * The statistics options of a user (spec 02 section 6): "enable reporting grouping" (a user
 * setting) and the carriers it looks after, which are all it sees in statistics when its role
 * lacks "View All Carriers".
 */
export const reportOptions = z.object({
  report_grouping: z.boolean(),
  carrier_ids: z.array(z.number()),
  /** Whether the role lets the user see every carrier (then `carrier_ids` does not limit it). */
  view_all_carriers: z.boolean(),
});
export const reportOptionsPatch = z
  .object({
    report_grouping: z.boolean(),
    carrier_ids: z.array(z.number().int().positive().max(2_147_483_647)).max(2000),
  })
  .partial()
  .strict();
export const getMyReportOptions = endpoint({
  method: 'GET',
  path: '/stats/options',
  summary: "The signed-in user's statistics options (grouping allowed, carriers it looks after)",
  tag: TAG,
  access: SIGNED_IN,
  payload: reportOptions,
});
export const getUserReportOptions = endpoint({
  method: 'GET',
  path: '/stats/options/:id',
  summary: "A system user's statistics options",
  tag: TAG,
  access: adminOnly('/configuration/users', 'read'),
  params: idParams,
  payload: reportOptions,
});
export const setUserReportOptions = endpoint({
  method: 'PATCH',
  path: '/stats/options/:id',
  summary: "Set a system user's statistics options (report grouping, carriers it looks after)",
  tag: TAG,
  access: adminOnly('/configuration/users', 'write'),
  params: idParams,
  body: reportOptionsPatch,
  payload: reportOptions,
});
