import { z } from 'zod';
import { adminOnly, SIGNED_IN, type UserType } from '../access';
import { emailList, idParams, listQuery, paged, queryBool } from '../common';
import { endpoint } from '../endpoint';
import type { Language } from '../i18n';
import { timezoneOffset } from './config';
import { getSummaryReport, summaryQuery, summaryReport, type GroupBy } from './stats';

/**
 * The Statistics report screens (issue 11, docs/statistics.md "Reports"), declared once each over
 * ONE mechanism: every report is the summary question (range, group by, filters over the traffic
 * summaries) with its own group-by choices, default grouping, columns and chart. From a
 * declaration come its API call (`GET /stats/reports/{name}`), its e-mail call, its saved
 * schedules, its XLSX export kind (`report.{name}`) and its screen.
 */
export const COLUMNS = [
  'attempts',
  'answered',
  'non_zero',
  'short_calls',
  'share',
  'duration',
  'billed_time',
  'cost_billed_time',
  'revenue',
  'cost',
  'profit',
  'margin',
  'asr',
  'acd',
  'aloc',
  'pdd',
  'ner',
] as const;
export type ReportColumn = (typeof COLUMNS)[number];
/** Shown only to roles with "view cost and rate in reports" (the server leaves them null otherwise). */
export const COST_COLUMNS: readonly ReportColumn[] = ['cost_billed_time', 'cost', 'profit', 'margin'];

/** Column headers of files and mails, per language (the screens use the same words from the web catalogue). */
export const COLUMN_LABELS: Record<ReportColumn | GroupBy | 'total', Record<Language, string>> = {
  attempts: { en: 'Attempts', de: 'Versuche', ch: '尝试次数' },
  answered: { en: 'Answered', de: 'Angenommen', ch: '接通' },
  non_zero: { en: 'Non-zero calls', de: 'Anrufe > 0 s', ch: '非零通话' },
  short_calls: { en: 'Short calls', de: 'Kurzanrufe', ch: '短通话' },
  share: { en: 'Share %', de: 'Anteil %', ch: '占比 %' },
  duration: { en: 'Minutes', de: 'Minuten', ch: '分钟' },
  billed_time: { en: 'Billed minutes', de: 'Abgerechnete Minuten', ch: '计费分钟' },
  cost_billed_time: {
    en: 'Vendor billed minutes',
    de: 'Lieferant abgerechnete Minuten',
    ch: '供应商计费分钟',
  },
  revenue: { en: 'Revenue', de: 'Umsatz', ch: '收入' },
  cost: { en: 'Cost', de: 'Kosten', ch: '成本' },
  profit: { en: 'Profit', de: 'Gewinn', ch: '利润' },
  margin: { en: 'Margin %', de: 'Marge %', ch: '利润率 %' },
  asr: { en: 'ASR %', de: 'ASR %', ch: 'ASR %' },
  acd: { en: 'ACD (min)', de: 'ACD (Min.)', ch: 'ACD（分钟）' },
  aloc: { en: 'ALOC (min)', de: 'ALOC (Min.)', ch: 'ALOC（分钟）' },
  pdd: { en: 'PDD (ms)', de: 'PDD (ms)', ch: 'PDD（毫秒）' },
  ner: { en: 'NER %', de: 'NER %', ch: 'NER %' },
  customer: { en: 'Customer', de: 'Kunde', ch: '客户' },
  vendor: { en: 'Vendor', de: 'Lieferant', ch: '供应商' },
  ingress_trunk: { en: 'Ingress trunk', de: 'Eingangs-Trunk', ch: '入向中继' },
  egress_trunk: { en: 'Egress trunk', de: 'Ausgangs-Trunk', ch: '出向中继' },
  country: { en: 'Country', de: 'Land', ch: '国家' },
  code: { en: 'Code', de: 'Vorwahl', ch: '号码前缀' },
  release_cause: { en: 'Release cause', de: 'Auslösegrund', ch: '释放原因' },
  day: { en: 'Day', de: 'Tag', ch: '日期' },
  hour: { en: 'Hour', de: 'Stunde', ch: '小时' },
  ingress_host: { en: 'Ingress host', de: 'Eingangs-Host', ch: '入向主机' },
  egress_host: { en: 'Egress host', de: 'Ausgangs-Host', ch: '出向主机' },
  total: { en: 'Total', de: 'Summe', ch: '合计' },
};

type Portal = Exclude<UserType, 'admin'>;

export interface ReportDef {
  /** Permission key and the screen's path (the menu item's web_url). */
  func: string;
  /** i18n key of the title (web catalogue) and the English title (files, mails). */
  title: string;
  label: string;
  /** Group-by choices offered (portal users are further limited by stats.PORTAL_GROUP_BY). */
  groups: readonly GroupBy[];
  /** Grouping of the first run. */
  defaults: readonly GroupBy[];
  columns: readonly ReportColumn[];
  /** Default sort (largest first) when the rows are not sorted by group. */
  order?: 'attempts' | 'duration' | 'revenue' | 'cost' | 'profit';
  /** A chart where it helps: of which figures, drawn how. */
  chart: { kind: 'bar' | 'line' | 'pie'; figures: readonly ReportColumn[] } | null;
  /** The whole report is about cost: only for roles with "view cost and rate in reports". */
  costOnly?: boolean;
  /** Portal users admitted (their own traffic only). */
  portal?: readonly Portal[];
  /** The report covers only this traffic (the DID reports: calls from DID vendors to DIDs). */
  traffic?: 'did' | 'termination';
}

const ALL: readonly GroupBy[] = [
  'customer',
  'vendor',
  'ingress_trunk',
  'egress_trunk',
  'country',
  'code',
  'release_cause',
  'day',
  'hour',
];
const TRAFFIC: readonly ReportColumn[] = ['attempts', 'answered', 'non_zero', 'duration', 'billed_time'];
const QOS: readonly ReportColumn[] = ['asr', 'acd', 'aloc', 'pdd', 'ner'];
const MONEY: readonly ReportColumn[] = ['revenue', 'cost', 'profit', 'margin'];

export const REPORTS = {
  summary_report: {
    func: '/statistics/summary_report',
    title: 'stats.summaryReport',
    label: 'Summary Report',
    groups: ALL,
    defaults: [],
    columns: [...TRAFFIC, ...MONEY, ...QOS, 'short_calls'],
    chart: { kind: 'bar', figures: ['attempts', 'duration'] },
    portal: ['client', 'vendor', 'agent'],
  },
  usage_report: {
    func: '/statistics/usage_report',
    title: 'reports.titles.usage_report',
    label: 'Usage Report',
    groups: ALL,
    defaults: ['customer'],
    columns: [...TRAFFIC, 'cost_billed_time', 'revenue', 'cost'],
    order: 'duration',
    chart: { kind: 'bar', figures: ['duration', 'billed_time'] },
  },
  qos_summary: {
    func: '/statistics/qos_summary',
    title: 'reports.titles.qos_summary',
    label: 'QoS Summary',
    groups: ALL,
    defaults: ['customer'],
    columns: ['attempts', 'answered', ...QOS, 'short_calls'],
    order: 'attempts',
    chart: { kind: 'bar', figures: ['asr', 'ner'] },
  },
  disconnect_causes: {
    func: '/statistics/disconnect_causes',
    title: 'reports.titles.disconnect_causes',
    label: 'Disconnect Causes',
    groups: ['release_cause', 'customer', 'vendor', 'ingress_trunk', 'egress_trunk', 'country', 'day'],
    defaults: ['release_cause'],
    columns: ['attempts', 'share', 'answered', 'duration', 'asr'],
    order: 'attempts',
    chart: { kind: 'pie', figures: ['attempts'] },
  },
  profitability_analysis: {
    func: '/statistics/profitability_analysis',
    title: 'reports.titles.profitability_analysis',
    label: 'Profitability Analysis',
    groups: ALL,
    defaults: ['customer'],
    columns: ['attempts', 'duration', 'billed_time', 'cost_billed_time', ...MONEY],
    order: 'profit',
    chart: { kind: 'bar', figures: ['revenue', 'cost', 'profit'] },
    costOnly: true,
  },
  code_based_report: {
    func: '/statistics/code_based_report',
    title: 'reports.titles.code_based_report',
    label: 'Code Based Report',
    groups: ['code', 'country', 'customer', 'vendor', 'ingress_trunk', 'egress_trunk', 'day'],
    defaults: ['country', 'code'],
    columns: ['attempts', 'answered', 'duration', 'billed_time', 'asr', 'acd', ...MONEY],
    order: 'attempts',
    chart: { kind: 'bar', figures: ['attempts', 'duration'] },
  },
  host_based_report: {
    func: '/statistics/host_based_report',
    title: 'reports.titles.host_based_report',
    label: 'Host Based Report',
    groups: [
      'ingress_host',
      'egress_host',
      'customer',
      'vendor',
      'ingress_trunk',
      'egress_trunk',
      'country',
      'day',
      'hour',
    ],
    defaults: ['ingress_host'],
    columns: [
      'attempts',
      'answered',
      'duration',
      'billed_time',
      'revenue',
      'cost',
      'asr',
      'acd',
      'pdd',
      'ner',
    ],
    order: 'attempts',
    chart: { kind: 'bar', figures: ['attempts', 'answered'] },
  },
  inbound_outbound_report: {
    func: '/statistics/inbound_outbound_report',
    title: 'reports.titles.inbound_outbound_report',
    label: 'Inbound/Outbound Report',
    groups: ['ingress_trunk', 'egress_trunk', 'customer', 'vendor', 'country', 'day', 'hour'],
    defaults: ['ingress_trunk', 'egress_trunk'],
    columns: [
      'attempts',
      'answered',
      'duration',
      'billed_time',
      'cost_billed_time',
      'revenue',
      'cost',
      'asr',
      'acd',
    ],
    chart: { kind: 'bar', figures: ['billed_time', 'cost_billed_time'] },
  },
  daily_usage_detail_report: {
    func: '/statistics/daily_usage_detail_report',
    title: 'reports.titles.daily_usage_detail_report',
    label: 'Daily Usage Detail Report',
    groups: ['day', 'customer', 'vendor', 'ingress_trunk', 'egress_trunk', 'country', 'code'],
    defaults: ['day', 'customer'],
    columns: [...TRAFFIC, 'short_calls', 'revenue', 'cost', 'profit', 'asr', 'acd'],
    chart: { kind: 'line', figures: ['attempts', 'duration'] },
  },
  daily_archive_report: {
    func: '/statistics/daily_archive_report',
    title: 'reports.titles.daily_archive_report',
    label: 'Daily Archive Report',
    groups: ['day', 'customer', 'vendor', 'country'],
    defaults: ['day'],
    columns: [...TRAFFIC, ...MONEY, 'asr', 'acd'],
    chart: { kind: 'line', figures: ['attempts', 'duration'] },
  },
  traffic_analytic: {
    func: '/tools/traffic_analytic',
    title: 'reports.titles.traffic_analytic',
    label: 'Traffic Analytic',
    groups: ['hour', 'day', 'customer', 'vendor', 'country', 'code', 'ingress_trunk', 'egress_trunk'],
    defaults: ['hour'],
    columns: ['attempts', 'answered', 'duration', 'asr', 'acd', 'pdd', 'ner'],
    chart: { kind: 'line', figures: ['attempts', 'answered'] },
  },
  termination_report: {
    func: '/clients/termination/report',
    title: 'reports.titles.termination_report',
    label: 'Report',
    groups: ['day', 'hour', 'country', 'code', 'ingress_trunk', 'egress_trunk', 'release_cause'],
    defaults: ['day'],
    columns: [...TRAFFIC, 'revenue', 'asr', 'acd', 'pdd'],
    chart: { kind: 'line', figures: ['attempts', 'duration'] },
    portal: ['client', 'vendor'],
  },
  disconnection_cause_report: {
    func: '/clients/termination/disconnection_cause_report',
    title: 'reports.titles.disconnection_cause_report',
    label: 'Disconnection Cause Report',
    groups: ['release_cause', 'country', 'day', 'ingress_trunk', 'egress_trunk'],
    defaults: ['release_cause'],
    columns: ['attempts', 'share', 'answered', 'duration', 'asr'],
    order: 'attempts',
    chart: { kind: 'pie', figures: ['attempts'] },
    portal: ['client', 'vendor'],
  },
  // Origination (issue 14, docs/did.md "Reports"): the same mechanism over DID traffic only. A DID
  // call's customer is the DID client, its vendor the DID vendor and its code the DID itself.
  did_report: {
    func: '/origination/did_report',
    title: 'reports.titles.did_report',
    label: 'DID Report',
    groups: ['code', 'customer', 'vendor', 'day', 'hour'],
    defaults: ['code'],
    columns: ['attempts', 'answered', 'duration', 'billed_time', 'revenue', 'cost', 'profit', 'asr', 'acd'],
    order: 'attempts',
    chart: { kind: 'bar', figures: ['attempts', 'duration'] },
    traffic: 'did',
  },
  did_usage_report: {
    func: '/origination/did_usage_report',
    title: 'reports.titles.did_usage_report',
    label: 'DID Usage Report',
    groups: ['customer', 'code', 'vendor', 'day'],
    defaults: ['customer'],
    columns: [...TRAFFIC, 'revenue', 'asr', 'acd'],
    order: 'duration',
    chart: { kind: 'bar', figures: ['duration', 'billed_time'] },
    traffic: 'did',
  },
  did_cost_report: {
    func: '/origination/did_cost_report',
    title: 'reports.titles.did_cost_report',
    label: 'DID Cost Report',
    groups: ['vendor', 'code', 'customer', 'day'],
    defaults: ['vendor'],
    columns: ['attempts', 'duration', 'cost_billed_time', 'cost'],
    order: 'cost',
    chart: { kind: 'bar', figures: ['cost'] },
    costOnly: true,
    traffic: 'did',
  },
  did_profitability_report: {
    func: '/origination/profitability_report',
    title: 'reports.titles.did_profitability_report',
    label: 'DID Profitability Report',
    groups: ['customer', 'vendor', 'code', 'day'],
    defaults: ['customer'],
    columns: ['attempts', 'duration', 'billed_time', 'cost_billed_time', ...MONEY],
    order: 'profit',
    chart: { kind: 'bar', figures: ['revenue', 'cost', 'profit'] },
    costOnly: true,
    traffic: 'did',
  },
  did_daily_archive_report: {
    func: '/origination/daily_archive_report',
    title: 'reports.titles.did_daily_archive_report',
    label: 'DID Daily Archive Report',
    groups: ['day', 'customer', 'vendor'],
    defaults: ['day'],
    columns: [...TRAFFIC, ...MONEY, 'asr', 'acd'],
    chart: { kind: 'line', figures: ['attempts', 'duration'] },
    traffic: 'did',
  },
  origination_report: {
    func: '/clients/origination/report',
    title: 'reports.titles.origination_report',
    label: 'Origination Report',
    groups: ['day', 'hour', 'code', 'release_cause'],
    defaults: ['day'],
    columns: [...TRAFFIC, 'revenue', 'asr', 'acd'],
    chart: { kind: 'line', figures: ['attempts', 'duration'] },
    portal: ['client', 'vendor'],
    traffic: 'did',
  },
} as const satisfies Record<string, ReportDef>;
export type ReportName = keyof typeof REPORTS;
export const REPORT_NAMES = Object.keys(REPORTS) as ReportName[];
export const reportDef = (name: ReportName): ReportDef => REPORTS[name];
const TAG = 'statistics';

/** A report's answer: the summary report's (rows, totals row, coverage). */
export const reportAnswer = summaryReport;

const accessOf = (d: ReportDef) => adminOnly(d.func, 'read', d.portal);

/** E-mail a report now (as an XLSX attachment, in a job): the query of the screen and the addresses. */
export const emailBody = z.object({
  query: summaryQuery,
  to: emailList(20).refine((l) => l.length > 0, { message: 'required' }),
});

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/**
 * A saved schedule: the report's grouping and filters (no range: each run covers the period
 * before it, in `tz`: yesterday, last week Monday to Sunday, or last month), mailed at `hour`
 * (in `tz`) every day, every Monday or on the 1st of the month.
 */
export const scheduleBody = z.object({
  name: z.string().trim().min(1, { message: 'required' }).max(100),
  frequency: z.enum(FREQUENCIES),
  hour: z.coerce.number().int().min(0).max(23).default(6),
  tz: timezoneOffset.default('+0000'),
  to: emailList(20).refine((l) => l.length > 0, { message: 'required' }),
  query: summaryQuery.omit({ from: true, to: true, tz: true }).partial().default({}),
});

export const scheduleRow = z.object({
  id: z.number(),
  report: z.string(),
  name: z.string(),
  frequency: z.enum(FREQUENCIES),
  hour: z.number(),
  tz: z.string(),
  to: z.array(z.string()),
  query: z.record(z.string(), z.unknown()),
  active: z.boolean(),
  owner: z.string(),
  next_run_at: z.string(),
  last_run_at: z.string().nullable(),
  created_at: z.string(),
});
export type ScheduleRow = z.output<typeof scheduleRow>;

function endpointsOf<N extends ReportName>(name: N) {
  const d: ReportDef = REPORTS[name];
  const base = `/stats/reports/${name}`;
  return {
    get:
      name === 'summary_report'
        ? getSummaryReport
        : endpoint({
            method: 'GET',
            path: base,
            summary: `${d.label}: traffic figures grouped as asked, with a totals row`,
            tag: TAG,
            access: accessOf(d),
            query: summaryQuery,
            payload: reportAnswer,
          }),
    email: endpoint({
      method: 'POST',
      path: `${base}/email`,
      summary: `${d.label}: e-mail it now as an XLSX attachment (a job; listed in the scheduled report log)`,
      tag: TAG,
      access: accessOf(d),
      body: emailBody,
      payload: z.object({ job_id: z.number() }),
    }),
    schedule: endpoint({
      method: 'POST',
      path: `${base}/schedules`,
      summary: `${d.label}: save a schedule that mails it daily, weekly or monthly`,
      tag: TAG,
      access: accessOf(d),
      body: scheduleBody,
      payload: scheduleRow,
    }),
  };
}

/** The calls of every report, by name. */
export const calls = Object.fromEntries(REPORT_NAMES.map((n) => [n, endpointsOf(n)])) as {
  [N in ReportName]: ReturnType<typeof endpointsOf<N>>;
};

/** Schedules: each user sees and changes its own; admins with read on the log see all. */
export const LOG_FUNC = '/log/scheduled_report_log';

export const listSchedules = endpoint({
  method: 'GET',
  path: '/stats/schedules/list',
  summary: 'Saved report schedules (own; all for admins who may read the scheduled report log)',
  tag: TAG,
  access: SIGNED_IN,
  query: listQuery.extend({
    /** Only the schedules of this report. */
    report: z.string().max(64).optional(),
    /** Only the caller's own (admins who may read the log see everyone's otherwise). */
    mine: queryBool.optional(),
  }),
  payload: paged(scheduleRow),
});

export const setScheduleActive = endpoint({
  method: 'PATCH',
  path: '/stats/schedules/:id',
  summary: 'Pause or resume a saved report schedule',
  tag: TAG,
  access: SIGNED_IN,
  params: idParams,
  body: z.object({ active: z.boolean() }),
  payload: scheduleRow,
});

export const deleteSchedule = endpoint({
  method: 'DELETE',
  path: '/stats/schedules/:id',
  summary: 'Delete a saved report schedule',
  tag: TAG,
  access: SIGNED_IN,
  params: idParams,
  payload: z.object({ id: z.number() }),
});

export const runSchedule = endpoint({
  method: 'POST',
  path: '/stats/schedules/:id/run',
  summary: 'Mail a saved schedule now, over the period before now (the next regular run stays as it is)',
  tag: TAG,
  access: SIGNED_IN,
  params: idParams,
  payload: z.object({ job_id: z.number() }),
});

export const logRow = z.object({
  id: z.number(),
  schedule_id: z.number().nullable(),
  schedule_name: z.string(),
  report: z.string(),
  owner: z.string(),
  period_from: z.string(),
  period_to: z.string(),
  to: z.array(z.string()),
  status: z.enum(['pending', 'sent', 'failed']),
  rows: z.number(),
  error: z.string(),
  job_id: z.number().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type LogRow = z.output<typeof logRow>;

export const listLog = endpoint({
  method: 'GET',
  path: '/log/scheduled_report_log',
  summary:
    'Scheduled report log: each report mailed (by a schedule or sent now), with its recipients and result',
  tag: TAG,
  access: adminOnly(LOG_FUNC, 'read'),
  query: listQuery.extend({
    status: z.enum(['pending', 'sent', 'failed']).optional(),
    report: z.string().max(64).optional(),
  }),
  payload: paged(logRow),
});

/** The same calls flat (`def` marks a group of endpoints for the server's list of every endpoint; the summary report's GET is stats.getSummaryReport). */
export const flatCalls = {
  def: 'reports',
  ...Object.fromEntries(
    REPORT_NAMES.flatMap((n) =>
      Object.entries(calls[n])
        .filter(([k]) => !(n === 'summary_report' && k === 'get'))
        .map(([k, e]) => [`${n}.${k}`, e]),
    ),
  ),
};

/**
 * Daily Channel Usage Report: the peak of concurrent calls per day (in `tz`) and trunk, computed
 * from each call's start and end (the raw CDRs: at most 31 days), with the moment of the peak and
 * the calls started that day.
 */
export const CHANNEL_FUNC = '/statistics/daily_channel_usage_report';
export const channelQuery = z.object({
  from: summaryQuery.shape.from,
  to: summaryQuery.shape.to,
  tz: timezoneOffset.default('+0000'),
  direction: z.enum(['ingress', 'egress']).default('ingress'),
  trunk_ids: summaryQuery.shape.ingress_trunk_ids,
});
export const channelRow = z.object({
  /** `YYYY-MM-DD` in the user's time zone. */
  day: z.string(),
  trunk_id: z.number(),
  trunk: z.string().nullable(),
  /** Most calls up at once that day. */
  peak: z.number(),
  /** When the peak was first reached (UTC ISO). */
  peak_at: z.string(),
  /** Calls started that day. */
  calls: z.number(),
});
export const channelReport = z.object({
  rows: z.array(channelRow),
  /** The highest peak of the range (over every trunk and day). */
  peak: z.number(),
  calls: z.number(),
});
export const getChannelUsage = endpoint({
  method: 'GET',
  path: '/stats/channels',
  summary: 'Daily channel usage: peak concurrent calls per day and trunk, from call start and end',
  tag: TAG,
  access: adminOnly(CHANNEL_FUNC, 'read'),
  query: channelQuery,
  payload: channelReport,
});

/** The channel report mailed now or on a schedule, like every report (e-mail and schedules of the one mechanism). */
export const CHANNEL_REPORT = 'daily_channel_usage_report';
export const channelEmailBody = z.object({
  query: channelQuery,
  to: emailList(20).refine((l) => l.length > 0, { message: 'required' }),
});
export const channelScheduleBody = scheduleBody.extend({
  query: channelQuery.omit({ from: true, to: true, tz: true }).partial().default({}),
});
export const channelCalls = {
  def: 'reports',
  email: endpoint({
    method: 'POST',
    path: '/stats/channels/email',
    summary:
      'Daily Channel Usage Report: e-mail it now as an XLSX attachment (a job; in the scheduled report log)',
    tag: TAG,
    access: adminOnly(CHANNEL_FUNC, 'read'),
    body: channelEmailBody,
    payload: z.object({ job_id: z.number() }),
  }),
  schedule: endpoint({
    method: 'POST',
    path: '/stats/channels/schedules',
    summary: 'Daily Channel Usage Report: save a schedule that mails it daily, weekly or monthly',
    tag: TAG,
    access: adminOnly(CHANNEL_FUNC, 'read'),
    body: channelScheduleBody,
    payload: scheduleRow,
  }),
};

/** Every report that can be mailed and scheduled: the declared ones and the channel report. */
export type MailedReportName = ReportName | typeof CHANNEL_REPORT;
export const MAILED_REPORT_NAMES: readonly MailedReportName[] = [...REPORT_NAMES, CHANNEL_REPORT];
export const isMailedReport = (v: string): v is MailedReportName =>
  (MAILED_REPORT_NAMES as readonly string[]).includes(v);
