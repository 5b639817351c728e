import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, instantFilter, listQuery, paged } from '../common';
import { amount, crudEndpoints, entityName, percent } from '../crud';
import { endpoint } from '../endpoint';
import { coercedInt4, DECIMAL_MAX, int4, integer } from '../input-rules';
import {
  blockUploadResult,
  mediaIpBlockCreate,
  mediaIpBlockFilters,
  mediaIpBlockRow,
} from './routing-extras';

/**
 * Monitoring (issue 15, docs/monitoring.md): fraud detection rules, monitoring rules and loop
 * detection rules; their execution log; the blocks they placed (lifted by time or by hand); the
 * fraud report. Rules are evaluated by the durable job `monitoring.evaluate` every minute; blocks
 * and loop rules reach the route API within a second.
 */
const tag = 'monitoring';
export const FRAUD_FUNC = '/monitoring/fraud_detection';
export const RULE_FUNC = '/monitoring/rule';
export const LOOP_FUNC = '/monitoring/loop_detection';
export const FRAUD_REPORT_FUNC = '/statistics/fraud_report';

const id = int4().positive();
const trunkIds = z.array(id).max(1000).default([]);
const threshold = amount.nullable().default(null);
const pct = percent.nullable().default(null);
const positive = (max = 1_000_000) => integer({ min: 1, max, message: 'positiveInteger' });

export const EMAIL_TARGETS = ['none', 'partner', 'own', 'both'] as const;
export type EmailTarget = (typeof EMAIL_TARGETS)[number];
export const RULE_KINDS = ['fraud', 'rule', 'loop'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const LOG_EVENTS = [
  'run',
  'triggered',
  'cleared',
  'blocked',
  'unblocked',
  'email_sent',
  'email_failed',
  'loop',
] as const;
export type LogEvent = (typeof LOG_EVENTS)[number];
/** Execution schedule of a monitoring rule: every N minutes. */
export const RULE_SCHEDULES = [1, 5, 10, 15, 30, 60, 120, 360, 720, 1440] as const;
/** Sample sizes (the window a monitoring rule looks at), minutes. */
export const SAMPLE_SIZES = [5, 15, 30, 60, 120, 360, 720, 1440] as const;

const actionFields = {
  /** Minutes after which a block lifts on its own; null = until lifted by hand. */
  unblock_after_minutes: positive(525_600).nullable().default(null),
  email_to: z.enum(EMAIL_TARGETS).default('none'),
  email_subject: z.string().trim().max(200).default(''),
};
const stamps = {
  is_active: z.boolean(),
  last_run_at: z.string().nullable(),
  updated_at: z.string(),
  updated_by: z.string(),
};

// ---------------------------------------------------------------------------------------------
// Fraud detection

export const fraudRuleCreate = z
  .object({
    rule_name: entityName(),
    /** Every ingress trunk, or the listed ones. */
    scope: z.enum(['all', 'trunks']).default('trunks'),
    /** Block the ingress trunk, or the calling ANI on it. */
    granularity: z.enum(['trunk', 'ani']).default('trunk'),
    trunk_ids: trunkIds,
    /** Thresholds over the last 60 minutes: minutes, revenue, cost above. */
    hour_minutes: threshold,
    hour_revenue: threshold,
    hour_cost: threshold,
    /** The same over the last 24 hours. */
    day_minutes: threshold,
    day_revenue: threshold,
    day_cost: threshold,
    /** Over the last 60 minutes: ASR below (percent), ACD below (minutes). */
    asr_below: pct,
    acd_below: threshold,
    /** Fewer attempts than this in a window: not judged. */
    min_attempts: positive().default(1),
    block: z.boolean().default(true),
    ...actionFields,
  })
  .strict();
export type FraudRuleCreate = z.output<typeof fraudRuleCreate>;
export const FRAUD_THRESHOLDS = [
  'hour_minutes',
  'hour_revenue',
  'hour_cost',
  'day_minutes',
  'day_revenue',
  'day_cost',
  'asr_below',
  'acd_below',
] as const;

const trunkRef = z.object({ trunk_id: z.number(), name: z.string(), carrier_name: z.string() });
export const fraudRuleRow = z.object({
  id: z.number(),
  rule_name: z.string(),
  scope: z.enum(['all', 'trunks']),
  granularity: z.enum(['trunk', 'ani']),
  trunk_ids: z.array(z.number()),
  trunks: z.array(trunkRef),
  hour_minutes: z.string().nullable(),
  hour_revenue: z.string().nullable(),
  hour_cost: z.string().nullable(),
  day_minutes: z.string().nullable(),
  day_revenue: z.string().nullable(),
  day_cost: z.string().nullable(),
  asr_below: z.string().nullable(),
  acd_below: z.string().nullable(),
  min_attempts: z.number(),
  block: z.boolean(),
  unblock_after_minutes: z.number().nullable(),
  email_to: z.enum(EMAIL_TARGETS),
  email_subject: z.string(),
  /** Times the rule fired in the last hour and the last 24 hours. */
  triggers_1h: z.number(),
  triggers_24h: z.number(),
  active_blocks: z.number(),
  ...stamps,
});
export type FraudRuleRow = z.output<typeof fraudRuleRow>;
export const fraudRule = crudEndpoints({
  base: '/monitoring/fraud_detection',
  tag,
  func: FRAUD_FUNC,
  name: 'fraud detection rule',
  row: fraudRuleRow,
  create: fraudRuleCreate,
  filters: { rule_name: z.string().max(100).optional(), trunk_id: coercedInt4().positive().optional() },
  activation: true,
});

// ---------------------------------------------------------------------------------------------
// Monitoring rules

export const monitoringRuleCreate = z
  .object({
    rule_name: entityName(),
    /** Which trunks it watches. */
    side: z.enum(['egress', 'ingress']).default('egress'),
    trunk_ids: trunkIds,
    /** Destination codes (prefixes of the rated code): all, only these, or all but these. */
    code_mode: z.enum(['all', 'include', 'exclude']).default('all'),
    codes: z
      .array(
        z
          .string()
          .trim()
          .regex(/^\d{1,32}$/, { message: 'digitsOnly' }),
      )
      .max(1000)
      .default([]),
    /** Thresholds over the sample: the rule breaches when any set one is crossed. */
    asr_below: pct,
    acd_below: threshold,
    ner_below: pct,
    /** Profitability below (percent; may be negative: a loss). */
    profit_below: z
      .union([z.string(), z.number().min(-DECIMAL_MAX).max(DECIMAL_MAX)])
      .transform((v) => String(v).trim())
      .refine((v) => /^-?\d{1,12}(\.\d{1,6})?$/.test(v), { message: 'invalidValue' })
      .nullable()
      .default(null),
    sdp_above: pct,
    pdd_above: threshold,
    /** Fewer attempts than this in the sample: not judged. */
    min_attempts: positive(),
    /** The window it looks at, minutes (the last N minutes, sliding). */
    sample_minutes: positive(10_080),
    /** Runs every N minutes. */
    every_minutes: positive(10_080),
    /** Block the trunk, the route (the trunk for the included codes), or nothing. */
    action_block: z.enum(['none', 'trunk', 'route']).default('none'),
    ...actionFields,
  })
  .strict();
export type MonitoringRuleCreate = z.output<typeof monitoringRuleCreate>;
export const RULE_THRESHOLDS = [
  'asr_below',
  'acd_below',
  'ner_below',
  'profit_below',
  'sdp_above',
  'pdd_above',
] as const;
export const monitoringRuleRow = z.object({
  id: z.number(),
  rule_name: z.string(),
  side: z.enum(['egress', 'ingress']),
  trunk_ids: z.array(z.number()),
  trunks: z.array(trunkRef),
  code_mode: z.enum(['all', 'include', 'exclude']),
  codes: z.array(z.string()),
  asr_below: z.string().nullable(),
  acd_below: z.string().nullable(),
  ner_below: z.string().nullable(),
  profit_below: z.string().nullable(),
  sdp_above: z.string().nullable(),
  pdd_above: z.string().nullable(),
  min_attempts: z.number(),
  sample_minutes: z.number(),
  every_minutes: z.number(),
  action_block: z.enum(['none', 'trunk', 'route']),
  unblock_after_minutes: z.number().nullable(),
  email_to: z.enum(EMAIL_TARGETS),
  email_subject: z.string(),
  next_run_at: z.string().nullable(),
  active_blocks: z.number(),
  ...stamps,
});
export type MonitoringRuleRow = z.output<typeof monitoringRuleRow>;
export const monitoringRule = crudEndpoints({
  base: '/monitoring/rule',
  tag,
  func: RULE_FUNC,
  name: 'monitoring rule',
  row: monitoringRuleRow,
  create: monitoringRuleCreate,
  filters: { rule_name: z.string().max(100).optional(), trunk_id: coercedInt4().positive().optional() },
  activation: true,
});

// ---------------------------------------------------------------------------------------------
// Loop detection

export const loopRuleCreate = z
  .object({
    rule_name: entityName(),
    trunk_ids: trunkIds,
    /** DNIS ranges: a prefix (4420) or from-to of one length (4420700-4420799). */
    number_ranges: z.array(z.string().trim().max(80)).max(200).default([]),
    /** More than this many calls with the same ANI and DNIS ... */
    max_calls: positive(100_000),
    /** ... within this many seconds (counter time) ... */
    window_seconds: positive(86_400),
    /** ... are refused for this many seconds. */
    block_seconds: positive(604_800),
  })
  .strict();
export type LoopRuleCreate = z.output<typeof loopRuleCreate>;
export const loopRuleRow = z.object({
  id: z.number(),
  rule_name: z.string(),
  trunk_ids: z.array(z.number()),
  trunks: z.array(trunkRef),
  number_ranges: z.array(z.string()),
  max_calls: z.number(),
  window_seconds: z.number(),
  block_seconds: z.number(),
  /** Loops found in the last 24 hours (all server processes). */
  loops_24h: z.number(),
  is_active: z.boolean(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type LoopRuleRow = z.output<typeof loopRuleRow>;
export const loopRule = crudEndpoints({
  base: '/monitoring/loop_detection',
  tag,
  func: LOOP_FUNC,
  name: 'loop detection rule',
  row: loopRuleRow,
  create: loopRuleCreate,
  filters: { rule_name: z.string().max(100).optional() },
  activation: true,
});

// ---------------------------------------------------------------------------------------------
// Execution log, blocks, run now

export const logRow = z.object({
  id: z.number(),
  at: z.string(),
  rule_kind: z.enum(RULE_KINDS),
  rule_id: z.number().nullable(),
  rule_name: z.string(),
  event: z.enum(LOG_EVENTS),
  trunk_id: z.number().nullable(),
  trunk_name: z.string().nullable(),
  carrier_name: z.string().nullable(),
  subject: z.string(),
  detail: z.string(),
  /** The figures seen (metric -> value) when a rule fired or cleared. */
  figures: z.record(z.string(), z.number().nullable()).nullable(),
});
export type MonitoringLogRow = z.output<typeof logRow>;
export const logQuery = listQuery.extend({
  rule_id: coercedInt4().positive().optional(),
  event: z.enum(LOG_EVENTS).optional(),
  trunk_id: coercedInt4().positive().optional(),
  from: instantFilter.optional(),
  to: instantFilter.optional(),
});

export const blockRow = z.object({
  block_id: z.number(),
  rule_kind: z.enum(RULE_KINDS),
  rule_id: z.number().nullable(),
  rule_name: z.string(),
  side: z.enum(['ingress', 'egress']),
  trunk_id: z.number(),
  trunk_name: z.string().nullable(),
  carrier_name: z.string().nullable(),
  ani: z.string().nullable(),
  codes: z.array(z.string()).nullable(),
  created_at: z.string(),
  until: z.string().nullable(),
  lifted_at: z.string().nullable(),
  lifted_by: z.string().nullable(),
  lift_reason: z.enum(['expired', 'manual']).nullable(),
  active: z.boolean(),
});
export type MonitoringBlockRow = z.output<typeof blockRow>;
export const blockQuery = listQuery.extend({
  rule_id: coercedInt4().positive().optional(),
  active: z.enum(['true', 'false']).optional(),
});

function area(func: string, base: string, what: string) {
  return {
    log: endpoint({
      method: 'GET',
      path: `${base}/log`,
      summary: `Execution log of the ${what}s (runs, triggers, clears, blocks, unblocks, e-mails)`,
      tag,
      access: adminOnly(func, 'read'),
      query: logQuery,
      payload: paged(logRow),
    }),
    blocks: endpoint({
      method: 'GET',
      path: `${base}/blocks`,
      summary: `Blocks placed by the ${what}s (active first)`,
      tag,
      access: adminOnly(func, 'read'),
      query: blockQuery,
      payload: paged(blockRow),
    }),
    unblock: endpoint({
      method: 'POST',
      path: `${base}/blocks/:id/unblock`,
      summary: `Lift a block placed by a ${what} now`,
      tag,
      access: adminOnly(func, 'execute'),
      params: idParams,
      payload: z.null(),
    }),
    run: endpoint({
      method: 'POST',
      path: `${base}/run`,
      summary: `Evaluate the ${what}s now (queues the monitoring job)`,
      tag,
      access: adminOnly(func, 'execute'),
      payload: z.object({ job_id: z.number() }),
    }),
  };
}
export const {
  log: fraudLog,
  blocks: fraudBlocks,
  unblock: fraudUnblock,
  run: fraudRun,
} = area(FRAUD_FUNC, '/monitoring/fraud_detection', 'fraud detection rule');
export const {
  log: ruleLog,
  blocks: ruleBlocks,
  unblock: ruleUnblock,
  run: ruleRun,
} = area(RULE_FUNC, '/monitoring/rule', 'monitoring rule');
export const loopLog = endpoint({
  method: 'GET',
  path: '/monitoring/loop_detection/log',
  summary: 'Loops found (ANI and DNIS pairs refused) by the loop detection rules',
  tag,
  access: adminOnly(LOOP_FUNC, 'read'),
  query: logQuery,
  payload: paged(logRow),
});

// ---------------------------------------------------------------------------------------------
// Fraud report

export const fraudReportRow = z.object({
  id: z.number(),
  at: z.string(),
  rule_id: z.number().nullable(),
  rule_name: z.string(),
  trunk_id: z.number().nullable(),
  trunk_name: z.string().nullable(),
  carrier_name: z.string().nullable(),
  subject: z.string(),
  detail: z.string(),
  figures: z.record(z.string(), z.number().nullable()).nullable(),
  /** The block the trigger placed, if any, and whether it still holds. */
  block_id: z.number().nullable(),
  blocked_until: z.string().nullable(),
  block_active: z.boolean(),
});
export type FraudReportRow = z.output<typeof fraudReportRow>;
export const fraudReport = endpoint({
  method: 'GET',
  path: '/statistics/fraud_report',
  summary: 'Fraud report: every time a fraud detection rule fired, with the figures and the block',
  tag,
  access: adminOnly(FRAUD_REPORT_FUNC, 'read'),
  query: listQuery.extend({
    rule_id: coercedInt4().positive().optional(),
    trunk_id: coercedInt4().positive().optional(),
    from: instantFilter.optional(),
    to: instantFilter.optional(),
  }),
  payload: paged(fraudReportRow).extend({ triggers_1h: z.number(), triggers_24h: z.number() }),
});

// ---------------------------------------------------------------------------------------------
// Live monitoring (/monitoring/live_event)

export const LIVE_FUNC = '/monitoring/live_event';
/** The spec's auto-refresh choices of the summary, minutes (0: no refresh). */
export const LIVE_REFRESH_MINUTES = [0, 3, 5, 10, 15, 20] as const;

/** One event of the live feed: a row of the execution log other than a rule's routine run. */
export const liveEventRow = logRow.omit({ figures: true });
export type LiveEventRow = z.output<typeof liveEventRow>;

/** Calls up now (as the switch reported them to this server), in total and on the busiest trunks. */
export const liveCalls = z.object({
  at: z.string(),
  total: z.number(),
  trunks: z.array(
    z.object({
      trunk_id: z.number(),
      trunk_name: z.string().nullable(),
      carrier_name: z.string().nullable(),
      calls: z.number(),
    }),
  ),
});
export type LiveCalls = z.output<typeof liveCalls>;

export const liveSummary = endpoint({
  method: 'GET',
  path: '/monitoring/live_event',
  summary:
    'Live monitoring: the latest rule hits, blocks and loops, blocks in force, triggers in 1 h and 24 h, calls up',
  tag,
  access: adminOnly(LIVE_FUNC, 'read'),
  payload: z.object({
    /** Newest first (at most 100). */
    events: z.array(liveEventRow),
    /** The newest event's id: the stream goes on from there (`after_id`). */
    last_id: z.number(),
    active_blocks: z.number(),
    triggers_1h: z.number(),
    triggers_24h: z.number(),
    loops_1h: z.number(),
    calls: liveCalls,
  }),
});

/**
 * The live feed as server-sent events (text/event-stream): `event: log` with a LiveEventRow for each
 * new event of the execution log (from any server process, within a second), `event: calls` with
 * LiveCalls every few seconds, and a comment line now and then to keep the connection open.
 */
export const liveStream = endpoint({
  method: 'GET',
  path: '/monitoring/live_event/stream',
  summary:
    'Live monitoring pushed as server-sent events: each new rule hit, block, unblock and loop; calls up',
  tag,
  access: adminOnly(LIVE_FUNC, 'read'),
  query: z.object({ after_id: coercedInt4().min(0).optional() }),
  raw: true,
  stream: true,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Media IP blocking (/monitoring/media_ip_blocking)

export const MEDIA_IP_FUNC = '/monitoring/media_ip_blocking';

/**
 * Monitoring > Media IP Blocking: the same list as Routing > Inbound Media IP Blocking (the table
 * the route API refuses source addresses from, 403 source_ip_blocked, and the media relay polls),
 * under the monitoring permission, so whoever watches fraud can block an address at once.
 */
export const mediaIpBlock = crudEndpoints({
  base: MEDIA_IP_FUNC,
  tag,
  func: MEDIA_IP_FUNC,
  name: 'media IP block',
  row: mediaIpBlockRow,
  create: mediaIpBlockCreate,
  filters: mediaIpBlockFilters,
});
export const uploadMediaIpBlocks = endpoint({
  method: 'POST',
  path: `${MEDIA_IP_FUNC}/upload`,
  summary:
    'Upload many media IP blocks (multipart: on_duplicate refuse|skip, then a CSV/XLSX file with ip, note, expires_at); all or nothing',
  tag,
  access: adminOnly(MEDIA_IP_FUNC, 'write'),
  multipart: true,
  payload: blockUploadResult,
});
