import {
  bigInteger,
  coercedInt4,
  DECIMAL_MAX,
  INSTANT_MAX_MS,
  INSTANT_MIN_MS,
  inInstantRange,
  int4,
  INT4_MAX,
} from '../input-rules';
import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, objectId, paged } from '../common';
import { crudEndpoints, digits, entityName } from '../crud';
import { endpoint } from '../endpoint';

/**
 * Routing (issue 3): routing plans with their prefix rows, static routes with their items, dynamic
 * routes with their egress pool, block lists, the system's default failover rules and route error
 * responses, the routing wizard, the route API the SIP proxy calls per call (with its switch API
 * keys), the engine's snapshot status and the call simulation and routing analysis tools.
 */
const tag = 'routing';
export const ROUTING_PLAN_FUNC = '/routing/routing_plan';
export const STATIC_ROUTE_FUNC = '/routing/static_routing';
export const DYNAMIC_ROUTE_FUNC = '/routing/dynamic_routing';
export const BLOCK_LIST_FUNC = '/routing/block_list';
export const ROUTING_WIZARD_FUNC = '/routing/wizard';
export const DEFAULT_FAILOVER_FUNC = '/configuration/default_failover_rule';
export const DEFAULT_ERROR_FUNC = '/configuration/default_error_response';
export const CALL_SIMULATION_FUNC = '/tools/call_simulation';
export const ROUTING_ANALYSIS_FUNC = '/tools/routing_analysis';
/** Switch API keys and the engine's rebuild: system settings. */
export const ENGINE_FUNC = '/configuration/system_setting';

const id = int4().positive();
const optionalId = id.nullable().default(null);
const queryId = coercedInt4().positive().optional();
const nameFilter = z.string().max(100).optional();
/** A number length bound of a prefix row (null = unbounded). */
const lengthBound = z
  .number({ message: 'positiveInteger' })
  .int({ message: 'positiveInteger' })
  .min(0, { message: 'positiveInteger' })
  .max(32, { message: 'invalidValue' })
  .nullable()
  .default(null);
const larger = (a: string, b: string) => ({
  code: 'custom' as const,
  path: [a],
  message: 'cannotBeLarger',
  params: { args: [a, b] },
});
const count = z
  .number({ message: 'positiveInteger' })
  .int({ message: 'positiveInteger' })
  .min(0, { message: 'positiveInteger' })
  .max(INT4_MAX, { message: 'positiveInteger' });
/** A percentage 0..100 with up to 2 decimals, as a decimal string (kept exact). */
export const percent2 = z
  .union([z.string(), z.number().min(0).max(100)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100, { message: 'percentRange' });
/** Hundredths of a percent2 text, for exact sums. */
export const hundredths = (v: string): number => {
  const [whole = '0', frac = ''] = v.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2));
};

// ---------------------------------------------------------------------------------------------
// Routing plans and their prefix rows

export const ROUTE_TYPES = ['static', 'dynamic'] as const;

export const routingPlanRow = z.object({
  route_plan_id: z.number(),
  name: z.string(),
  prefix_count: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const routingPlan = crudEndpoints({
  base: '/routing/routing_plan',
  tag,
  func: ROUTING_PLAN_FUNC,
  name: 'routing plan',
  row: routingPlanRow,
  create: z.object({ name: entityName() }).strict(),
  filters: { name: nameFilter, static_route_id: queryId, dynamic_route_id: queryId },
});

/** One prefix row: DNIS and ANI prefix, number lengths, the static or dynamic route, time profile. */
export const prefixRowBody = z
  .object({
    prefix: digits(32).default(''),
    ani_prefix: digits(32).default(''),
    dnis_min_length: lengthBound,
    dnis_max_length: lengthBound,
    ani_min_length: lengthBound,
    ani_max_length: lengthBound,
    route_type: z.enum(ROUTE_TYPES),
    static_route_id: optionalId,
    dynamic_route_id: optionalId,
    time_profile_id: optionalId,
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.dnis_min_length !== null && r.dnis_max_length !== null && r.dnis_min_length > r.dnis_max_length)
      ctx.addIssue(larger('dnis_min_length', 'dnis_max_length'));
    if (r.ani_min_length !== null && r.ani_max_length !== null && r.ani_min_length > r.ani_max_length)
      ctx.addIssue(larger('ani_min_length', 'ani_max_length'));
    if (r.route_type === 'static' && r.static_route_id === null)
      ctx.addIssue({ code: 'custom', path: ['static_route_id'], message: 'routeNotDefined' });
    if (r.route_type === 'dynamic' && r.dynamic_route_id === null)
      ctx.addIssue({ code: 'custom', path: ['dynamic_route_id'], message: 'routeNotDefined' });
  });
export type PrefixRowBody = z.output<typeof prefixRowBody>;
export const prefixRowItem = z.object({
  id: z.number(),
  route_plan_id: z.number(),
  prefix: z.string(),
  ani_prefix: z.string(),
  dnis_min_length: z.number().nullable(),
  dnis_max_length: z.number().nullable(),
  ani_min_length: z.number().nullable(),
  ani_max_length: z.number().nullable(),
  route_type: z.enum(ROUTE_TYPES),
  static_route_id: z.number().nullable(),
  dynamic_route_id: z.number().nullable(),
  time_profile_id: z.number().nullable(),
  route_name: z.string().nullable(),
  time_profile_name: z.string().nullable(),
});
export type PrefixRowItem = z.output<typeof prefixRowItem>;
const planRowParams = z.object({
  id: coercedInt4().positive(),
  row_id: coercedInt4().positive(),
});

export const listPlanRows = endpoint({
  method: 'GET',
  path: '/routing/routing_plan/:id/rows',
  summary: 'Prefix rows of a routing plan',
  tag,
  access: adminOnly(ROUTING_PLAN_FUNC, 'read'),
  params: idParams,
  query: listQuery.extend({ prefix: digits(32).optional() }),
  payload: paged(prefixRowItem),
});
export const createPlanRow = endpoint({
  method: 'POST',
  path: '/routing/routing_plan/:id/rows/create',
  summary: 'Add a prefix row to a routing plan',
  tag,
  access: adminOnly(ROUTING_PLAN_FUNC, 'write'),
  params: idParams,
  body: prefixRowBody,
  payload: objectId,
});
export const updatePlanRow = endpoint({
  method: 'PATCH',
  path: '/routing/routing_plan/:id/rows/:row_id',
  summary: 'Change a prefix row (the whole row is sent)',
  tag,
  access: adminOnly(ROUTING_PLAN_FUNC, 'write'),
  params: planRowParams,
  body: prefixRowBody,
  payload: z.null(),
});
export const deletePlanRow = endpoint({
  method: 'DELETE',
  path: '/routing/routing_plan/:id/rows/:row_id',
  summary: 'Delete a prefix row',
  tag,
  access: adminOnly(ROUTING_PLAN_FUNC, 'write'),
  params: planRowParams,
  payload: z.null(),
});
export const PLAN_USAGE_KINDS = ['ingress_trunk', 'trunk_routing_row', 'product'] as const;
export const planUsage = endpoint({
  method: 'GET',
  path: '/routing/routing_plan/:id/usage_details',
  summary: 'Ingress trunks, trunk routing rows and products that use a routing plan',
  tag,
  access: adminOnly(ROUTING_PLAN_FUNC, 'read'),
  params: idParams,
  payload: z.object({
    plan: z.object({ route_plan_id: z.number(), name: z.string() }),
    items: z.array(
      z.object({
        kind: z.enum(PLAN_USAGE_KINDS),
        id: z.number(),
        name: z.string(),
        trunk_id: z.number().nullable(),
        carrier_id: z.number().nullable(),
        carrier_name: z.string().nullable(),
        tech_prefix: z.string(),
      }),
    ),
  }),
});

// ---------------------------------------------------------------------------------------------
// Static routes and their items

export const STATIC_STRATEGIES = ['top_down', 'percentage', 'round_robin'] as const;
export const DEFINED_BY = ['code', 'code_name', 'country'] as const;
export const ROUTE_BY = ['dnis', 'lrn'] as const;

export const staticRouteRow = z.object({
  static_route_id: z.number(),
  name: z.string(),
  defined_by: z.enum(DEFINED_BY),
  route_by: z.enum(ROUTE_BY),
  prefix_count: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const staticRoute = crudEndpoints({
  base: '/routing/static_routing',
  tag,
  func: STATIC_ROUTE_FUNC,
  name: 'static route',
  row: staticRouteRow,
  create: z
    .object({
      name: entityName(),
      defined_by: z.enum(DEFINED_BY).default('code'),
      route_by: z.enum(ROUTE_BY).default('dnis'),
    })
    .strict(),
  filters: { name: nameFilter, trunk_id: queryId },
});

export const staticItemTrunk = z
  .object({ trunk_id: id, percentage: percent2.nullable().default(null) })
  .strict();
/** An item: the code (or code name, or country, as the route is defined), strategy, time profile, ordered trunks. */
export const staticItemBody = z
  .object({
    code: digits(32).default(''),
    code_name: z.string().trim().max(100).default(''),
    country: z.string().trim().max(100).default(''),
    strategy: z.enum(STATIC_STRATEGIES).default('top_down'),
    time_profile_id: optionalId,
    trunks: z
      .array(staticItemTrunk, { message: 'atLeastOneTrunk' })
      .min(1, { message: 'atLeastOneTrunk' })
      .max(50),
  })
  .strict()
  .superRefine((item, ctx) => {
    const seen = new Set<number>();
    item.trunks.forEach((t, i) => {
      if (seen.has(t.trunk_id))
        ctx.addIssue({
          code: 'custom',
          path: ['trunks', i, 'trunk_id'],
          message: 'alreadyExists',
          params: { args: ['Trunk', t.trunk_id] },
        });
      seen.add(t.trunk_id);
    });
    if (item.strategy !== 'percentage') return;
    if (
      item.trunks.some((t) => t.percentage === null) ||
      item.trunks.reduce((n, t) => n + hundredths(t.percentage ?? '0'), 0) !== 10000
    )
      ctx.addIssue({ code: 'custom', path: ['trunks'], message: 'percentSum' });
  });
export type StaticItemBody = z.output<typeof staticItemBody>;
export const staticItemRow = z.object({
  id: z.number(),
  static_route_id: z.number(),
  code: z.string(),
  code_name: z.string(),
  country: z.string(),
  strategy: z.enum(STATIC_STRATEGIES),
  time_profile_id: z.number().nullable(),
  time_profile_name: z.string().nullable(),
  trunks: z.array(
    z.object({
      trunk_id: z.number(),
      trunk_name: z.string(),
      carrier_name: z.string(),
      is_active: z.boolean(),
      percentage: z.string().nullable(),
    }),
  ),
});
export type StaticItemRow = z.output<typeof staticItemRow>;
const itemParams = z.object({
  id: coercedInt4().positive(),
  item_id: coercedInt4().positive(),
});
export const listStaticItems = endpoint({
  method: 'GET',
  path: '/routing/static_routing/:id/items',
  summary: 'Items (codes with their trunks) of a static route',
  tag,
  access: adminOnly(STATIC_ROUTE_FUNC, 'read'),
  params: idParams,
  query: listQuery.extend({ code: z.string().max(100).optional() }),
  payload: paged(staticItemRow),
});
export const createStaticItem = endpoint({
  method: 'POST',
  path: '/routing/static_routing/:id/items/create',
  summary: 'Add an item to a static route',
  tag,
  access: adminOnly(STATIC_ROUTE_FUNC, 'write'),
  params: idParams,
  body: staticItemBody,
  payload: objectId,
});
export const updateStaticItem = endpoint({
  method: 'PATCH',
  path: '/routing/static_routing/:id/items/:item_id',
  summary: 'Change an item (the whole item is sent)',
  tag,
  access: adminOnly(STATIC_ROUTE_FUNC, 'write'),
  params: itemParams,
  body: staticItemBody,
  payload: z.null(),
});
export const deleteStaticItem = endpoint({
  method: 'DELETE',
  path: '/routing/static_routing/:id/items/:item_id',
  summary: 'Delete an item',
  tag,
  access: adminOnly(STATIC_ROUTE_FUNC, 'write'),
  params: itemParams,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Dynamic routes and their egress pool

export const DYNAMIC_RULES = ['lcr', 'largest_asr', 'largest_acd'] as const;

export const dynamicTrunkBody = z
  .object({
    trunk_id: id,
    priority: count.max(1000, { message: 'invalidValue' }).nullable().default(null),
    call_limit: count.nullable().default(null),
    cps_limit: count.nullable().default(null),
  })
  .strict();
export const dynamicRouteRow = z.object({
  dynamic_route_id: z.number(),
  name: z.string(),
  rule: z.enum(DYNAMIC_RULES),
  time_profile_id: z.number().nullable(),
  time_profile_name: z.string().nullable(),
  qos_cycle_minutes: z.number(),
  trunk_count: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const dynamicRoute = crudEndpoints({
  base: '/routing/dynamic_routing',
  tag,
  func: DYNAMIC_ROUTE_FUNC,
  name: 'dynamic route',
  row: dynamicRouteRow,
  create: z
    .object({
      name: entityName(),
      rule: z.enum(DYNAMIC_RULES).default('lcr'),
      time_profile_id: optionalId,
      qos_cycle_minutes: z
        .number({ message: 'positiveInteger' })
        .int({ message: 'positiveInteger' })
        .min(1, { message: 'positiveInteger' })
        .max(10080, { message: 'invalidValue' })
        .default(60),
      /** The egress pool; on update, when sent, it replaces the pool. */
      trunks: z.array(dynamicTrunkBody).max(200).optional(),
    })
    .strict(),
  filters: { name: nameFilter, rule: z.enum(DYNAMIC_RULES).optional(), trunk_id: queryId },
});
export const dynamicTrunkRow = z.object({
  trunk_id: z.number(),
  trunk_name: z.string(),
  carrier_id: z.number(),
  carrier_name: z.string(),
  is_active: z.boolean(),
  carrier_is_active: z.boolean(),
  rate_table_name: z.string().nullable(),
  priority: z.number().nullable(),
  call_limit: z.number().nullable(),
  cps_limit: z.number().nullable(),
  /** Measured over this route's QoS cycle (trunk_qos, from the switch's POST /switch/qos). */
  asr: z.string().nullable(),
  acd: z.string().nullable(),
  /** Call attempts the measured figures are over (null = not measured). */
  qos_attempts: z.number().nullable(),
  /** When the latest sample counted was received. */
  qos_updated_at: z.string().nullable(),
  /** Figures that replace the measured ones for this route's ordering. */
  override_asr: z.string().nullable(),
  override_acd: z.string().nullable(),
});
export type DynamicTrunkRow = z.output<typeof dynamicTrunkRow>;
const poolParams = z.object({
  id: coercedInt4().positive(),
  trunk_id: coercedInt4().positive(),
});
export const listDynamicTrunks = endpoint({
  method: 'GET',
  path: '/routing/dynamic_routing/:id/trunks',
  summary: 'Egress trunks of a dynamic route with priority, limits and QoS figures',
  tag,
  access: adminOnly(DYNAMIC_ROUTE_FUNC, 'read'),
  params: idParams,
  payload: z.object({ items: z.array(dynamicTrunkRow), total: z.number() }),
});
export const addDynamicTrunk = endpoint({
  method: 'POST',
  path: '/routing/dynamic_routing/:id/trunks/create',
  summary: 'Add an egress trunk to a dynamic route',
  tag,
  access: adminOnly(DYNAMIC_ROUTE_FUNC, 'write'),
  params: idParams,
  body: dynamicTrunkBody,
  payload: objectId,
});
export const updateDynamicTrunk = endpoint({
  method: 'PATCH',
  path: '/routing/dynamic_routing/:id/trunks/:trunk_id',
  summary: 'Change the priority and limits of a trunk in a dynamic route',
  tag,
  access: adminOnly(DYNAMIC_ROUTE_FUNC, 'write'),
  params: poolParams,
  body: z
    .object({
      priority: count.max(1000, { message: 'invalidValue' }).nullable().optional(),
      call_limit: count.nullable().optional(),
      cps_limit: count.nullable().optional(),
    })
    .strict(),
  payload: z.null(),
});
export const removeDynamicTrunk = endpoint({
  method: 'DELETE',
  path: '/routing/dynamic_routing/:id/trunks/:trunk_id',
  summary: 'Remove an egress trunk from a dynamic route',
  tag,
  access: adminOnly(DYNAMIC_ROUTE_FUNC, 'write'),
  params: poolParams,
  payload: z.null(),
});
const qosFigure = z
  .union([z.string(), z.number().min(0).max(DECIMAL_MAX)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,7}(\.\d{1,2})?$/.test(v), { message: 'positiveDecimal' });
export const overrideBody = z
  .object({
    trunks: z
      .array(
        z
          .object({ trunk_id: id, override_asr: percent2.nullable(), override_acd: qosFigure.nullable() })
          .strict(),
      )
      .max(200),
  })
  .strict();
export const setDynamicOverride = endpoint({
  method: 'PATCH',
  path: '/routing/dynamic_routing/:id/override',
  summary: 'Fixed ASR/ACD figures that replace the measured ones for this route (null = measured)',
  tag,
  access: adminOnly(DYNAMIC_ROUTE_FUNC, 'write'),
  params: idParams,
  body: overrideBody,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Block list

export const BLOCK_FIELDS = ['ani', 'dnis'] as const;
export const BLOCK_MATCHES = ['exact', 'prefix'] as const;
export const blockListRow = z.object({
  id: z.number(),
  field: z.enum(BLOCK_FIELDS),
  match: z.enum(BLOCK_MATCHES),
  number: z.string(),
  trunk_id: z.number().nullable(),
  trunk_name: z.string().nullable(),
  trunk_direction: z.enum(['ingress', 'egress']).nullable(),
  note: z.string(),
  created_at: z.string(),
});
/**
 * A block list entry as written: the operator's (trunk_id null: global, every ingress call) and a
 * carrier's own in its portal (trunk_id null: all its trunks).
 */
export const blockEntry = z
  .object({
    field: z.enum(BLOCK_FIELDS),
    match: z.enum(BLOCK_MATCHES).default('prefix'),
    number: digits(32).refine((v) => v.length > 0, { message: 'required' }),
    trunk_id: optionalId,
    note: z.string().trim().max(200).default(''),
  })
  .strict();
export const blockList = crudEndpoints({
  base: '/routing/block_list',
  tag,
  func: BLOCK_LIST_FUNC,
  name: 'block list entry',
  row: blockListRow,
  create: blockEntry,
  filters: {
    field: z.enum(BLOCK_FIELDS).optional(),
    number: z.string().max(32).optional(),
    trunk_id: queryId,
    scope: z.enum(['global', 'trunk']).optional(),
  },
});

// ---------------------------------------------------------------------------------------------
// The portal's own block list (client: Termination > Block List; vendor: with the block-list
// permission): numbers the carrier does not want to send (ANI, its calls to us) or to receive
// (DNIS, our calls to it), on all its trunks or one of them. docs/routing-extras.md "The carriers' own block lists".

/** Most entries one carrier keeps. */
export const PORTAL_BLOCKS_MAX = 5_000;

export const portalBlockRow = z.object({
  id: z.number(),
  field: z.enum(BLOCK_FIELDS),
  match: z.enum(BLOCK_MATCHES),
  number: z.string(),
  /** null: every trunk of the carrier. */
  trunk_id: z.number().nullable(),
  trunk_name: z.string().nullable(),
  note: z.string(),
  created_at: z.string(),
});
export type PortalBlockRow = z.output<typeof portalBlockRow>;

const PORTAL_ACCESS = { kind: 'session', types: ['client', 'vendor'] } as const;

export const listPortalBlocks = endpoint({
  method: 'GET',
  path: '/portal/block_list',
  summary:
    "The carrier's own block list entries (filters: field, number prefix); refused when its portal has no block list",
  tag,
  access: PORTAL_ACCESS,
  query: listQuery.extend({
    field: z.enum(BLOCK_FIELDS).optional(),
    number: z.string().max(32).optional(),
  }),
  payload: paged(portalBlockRow),
});

export const createPortalBlock = endpoint({
  method: 'POST',
  path: '/portal/block_list',
  summary:
    "Block an ANI or DNIS (exact or prefix) on all the carrier's trunks or one of them; routing applies it within a second",
  tag,
  access: PORTAL_ACCESS,
  body: blockEntry,
  payload: objectId,
});

export const deletePortalBlock = endpoint({
  method: 'DELETE',
  path: '/portal/block_list/:id',
  summary: "Remove one of the carrier's own block list entries",
  tag,
  access: PORTAL_ACCESS,
  params: idParams,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Default failover rules and route error responses (system settings)

const sipCode = z
  .number({ message: 'invalidValue' })
  .int({ message: 'invalidValue' })
  .min(300, { message: 'invalidValue' })
  .max(699, { message: 'invalidValue' });
/** domain FailoverRuleConfig: a vendor's SIP code -> try the next vendor, or return a code and clause. */
export const defaultFailoverRule = z
  .object({
    sip_code: sipCode,
    action: z.enum(['next', 'return']),
    return_code: sipCode.nullable().default(null),
    return_clause: z.string().trim().max(200).nullable().default(null),
  })
  .strict();
export const defaultFailoverBody = z
  .object({ rules: z.array(defaultFailoverRule).max(200) })
  .strict()
  .superRefine((b, ctx) => {
    const seen = new Set<number>();
    b.rules.forEach((r, i) => {
      if (seen.has(r.sip_code))
        ctx.addIssue({
          code: 'custom',
          path: ['rules', i, 'sip_code'],
          message: 'alreadyExists',
          params: { args: ['SIP code', r.sip_code] },
        });
      seen.add(r.sip_code);
    });
  });
export const getDefaultFailover = endpoint({
  method: 'GET',
  path: '/routing/default_failover_rule',
  summary: 'System default failover rules (used when a trunk has no rule for a code)',
  tag,
  access: adminOnly(DEFAULT_FAILOVER_FUNC, 'read'),
  payload: z.object({ rules: z.array(defaultFailoverRule) }),
});
export const setDefaultFailover = endpoint({
  method: 'PUT',
  path: '/routing/default_failover_rule',
  summary: 'Replace the system default failover rules',
  tag,
  access: adminOnly(DEFAULT_FAILOVER_FUNC, 'write'),
  body: defaultFailoverBody,
  payload: z.null(),
});

/** Reasons the engine refuses a call (domain reject-codes.ts), each with its default SIP code. */
export const REJECT_REASONS = {
  source_ip_blocked: 403,
  no_ingress_trunk: 403,
  ingress_trunk_inactive: 403,
  customer_inactive: 403,
  insufficient_balance: 402,
  trunk_call_limit: 486,
  customer_call_limit: 486,
  trunk_cps_limit: 503,
  customer_cps_limit: 503,
  invalid_number: 484,
  ocn_blocked: 403,
  ani_blocked: 403,
  dnis_blocked: 403,
  no_rate_table: 404,
  no_rate: 404,
  no_routing_plan: 503,
  no_routing_prefix: 404,
  no_route: 503,
  trunk_blocked: 403,
  ani_monitor_blocked: 403,
  route_blocked: 403,
  loop_detected: 482,
  did_not_found: 404,
  did_unassigned: 404,
  did_reserved: 480,
  did_released: 410,
  did_suspended: 402,
  did_client_inactive: 403,
  did_vendor_call_limit: 486,
  did_vendor_cps_limit: 503,
  did_client_call_limit: 486,
  did_client_cps_limit: 503,
} as const;
export type RejectReasonKey = keyof typeof REJECT_REASONS;
export const REJECT_REASON_KEYS = Object.keys(REJECT_REASONS) as RejectReasonKey[];
export const errorResponse = z
  .object({
    reason: z.enum(REJECT_REASON_KEYS as [RejectReasonKey, ...RejectReasonKey[]]),
    code: z
      .number({ message: 'invalidValue' })
      .int({ message: 'invalidValue' })
      .min(400, { message: 'invalidValue' })
      .max(699, { message: 'invalidValue' }),
    /** Reason phrase sent with the code ('' = the reason key). */
    clause: z.string().trim().max(200).default(''),
  })
  .strict();
export const defaultErrorBody = z
  .object({ responses: z.array(errorResponse).max(REJECT_REASON_KEYS.length) })
  .strict()
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.responses.forEach((r, i) => {
      if (seen.has(r.reason))
        ctx.addIssue({
          code: 'custom',
          path: ['responses', i, 'reason'],
          message: 'alreadyExists',
          params: { args: ['Reason', r.reason] },
        });
      seen.add(r.reason);
    });
  });
export const getDefaultError = endpoint({
  method: 'GET',
  path: '/routing/default_error_response',
  summary: 'Global route error: the SIP code and clause answered for each reject reason',
  tag,
  access: adminOnly(DEFAULT_ERROR_FUNC, 'read'),
  payload: z.object({ responses: z.array(errorResponse.extend({ default_code: z.number() })) }),
});
export const setDefaultError = endpoint({
  method: 'PUT',
  path: '/routing/default_error_response',
  summary: 'Replace the route error responses (reasons not sent keep their default)',
  tag,
  access: adminOnly(DEFAULT_ERROR_FUNC, 'write'),
  body: defaultErrorBody,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Routing wizard: a routing plan, a route and the prefix row between them in one transaction

export const wizardBody = z
  .object({
    /** An existing plan, or the name of a new one. */
    route_plan_id: optionalId,
    plan_name: z.string().trim().max(100).default(''),
    prefix: digits(32).default(''),
    ani_prefix: digits(32).default(''),
    dnis_min_length: lengthBound,
    dnis_max_length: lengthBound,
    time_profile_id: optionalId,
    route_type: z.enum(ROUTE_TYPES),
    route_name: entityName(),
    /** static */
    defined_by: z.enum(DEFINED_BY).default('code'),
    route_by: z.enum(ROUTE_BY).default('dnis'),
    item: staticItemBody.optional(),
    /** dynamic */
    rule: z.enum(DYNAMIC_RULES).default('lcr'),
    qos_cycle_minutes: int4().min(1).max(10080).default(60),
    trunks: z.array(dynamicTrunkBody).max(200).default([]),
    /** Ingress trunks that get the plan. */
    ingress_trunk_ids: z.array(id).max(100).default([]),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.route_plan_id === null && !/[\p{L}\p{N}]/u.test(b.plan_name))
      ctx.addIssue({ code: 'custom', path: ['plan_name'], message: 'required' });
    if (b.dnis_min_length !== null && b.dnis_max_length !== null && b.dnis_min_length > b.dnis_max_length)
      ctx.addIssue(larger('dnis_min_length', 'dnis_max_length'));
    if (b.route_type === 'static' && !b.item)
      ctx.addIssue({ code: 'custom', path: ['item'], message: 'atLeastOneTrunk' });
    if (b.route_type === 'dynamic' && b.trunks.length === 0)
      ctx.addIssue({ code: 'custom', path: ['trunks'], message: 'atLeastOneTrunk' });
  });
export const routingWizard = endpoint({
  method: 'POST',
  path: '/routing/wizard',
  summary:
    'Create a routing plan (or use one), a static or dynamic route and the prefix row between them, and assign the plan to ingress trunks',
  tag,
  access: adminOnly(ROUTING_WIZARD_FUNC, 'write'),
  body: wizardBody,
  payload: z.object({
    route_plan_id: z.number(),
    row_id: z.number(),
    static_route_id: z.number().nullable(),
    dynamic_route_id: z.number().nullable(),
  }),
});

// ---------------------------------------------------------------------------------------------
// The route API (switch) and its keys

/** Call time: ISO 8601 or epoch milliseconds within 1970..2200 (INSTANT_MIN_MS..INSTANT_MAX_MS); missing = now. */
const callTime = z
  .union([
    z
      .string()
      .max(40)
      .refine((v) => v === '' || inInstantRange(Date.parse(v)), { message: 'invalidCallTime' }),
    bigInteger({ min: INSTANT_MIN_MS, max: INSTANT_MAX_MS, message: 'invalidCallTime' }),
  ])
  .optional();
export const routeRequest = z
  .object({
    source_ip: z.string().trim().min(1).max(64),
    source_port: int4().min(0).max(65535).nullable().optional(),
    ani: z.string().max(64).default(''),
    dnis: z.string().min(1).max(64),
    lrn: z.string().max(32).nullable().optional(),
    time: callTime,
    /** STIR/SHAKEN, when the proxy verified an Identity header: OCN of the signing certificate, origid, attestation. */
    ocn: z.string().max(16).nullable().optional(),
    origid: z.string().max(64).nullable().optional(),
    attestation: z.enum(['A', 'B', 'C']).nullable().optional(),
    /**
     * The switch's id of the call (SIP Call-ID), the same its CDRs carry: a limited-credit customer's
     * call holds its expected cost until its final CDR with this id arrives (else until it lapses).
     */
    call_id: z.string().min(1).max(128).nullable().optional(),
  })
  .strict();
export const routeHost = z.object({ ip: z.string(), port: z.number().nullable() });
export const routeIngress = z.object({
  carrier_id: z.number(),
  trunk_id: z.number(),
  rate: z.string().nullable(),
  code: z.string().nullable(),
  code_name: z.string().nullable(),
  jurisdiction: z.string().nullable(),
  rate_table_id: z.number().nullable(),
});
export const routeEntry = z.object({
  trunk_id: z.number(),
  carrier_id: z.number(),
  hosts: z.array(routeHost),
  dnis: z.string(),
  ani: z.string(),
  rate: z.string(),
  code: z.string(),
  profit: z.string(),
  /** Seconds to ring this vendor before trying the next route: its trunk's ring timer, else the system default ring timeout. */
  ring_timeout_s: z.number().nullable(),
  /** Milliseconds without a provisional answer before trying the next route (the vendor trunk's PDD timeout; null: the switch's own). */
  pdd_timeout_ms: z.number().nullable(),
  /** Longest call over this route in seconds: the lower of the ingress and vendor trunks' maximum durations, each the system maximum call duration when unset. */
  max_duration_s: z.number().nullable(),
  /**
   * What to do when this route's vendor answers a failure (or does not answer in time: 408): the
   * vendor trunk's failover rules over the system default rules over the built-in rule, keyed by
   * SIP code ("503"), then by class ("6xx"), then "*" for every other code; look the code up in
   * that order. 'next': try the next route (after the last, the vendor's answer goes back);
   * 'return': send the caller return_code and return_clause, both null for the vendor's answer as
   * it is.
   */
  failover: z.record(
    z.string(),
    z.object({
      action: z.enum(['next', 'return']),
      return_code: z.number().nullable(),
      return_clause: z.string().nullable(),
    }),
  ),
});
export const routeAnswer = z.object({
  result: z.enum(['route', 'reject']),
  reject_code: z.number().nullable(),
  reject_reason: z.string().nullable(),
  ingress: routeIngress.nullable(),
  routes: z.array(routeEntry),
  /**
   * A routed call's number in the route API's count of calls up (its customer trunk and first
   * route's trunk count as up from this answer until a calls-up report covers it; null when
   * nothing was counted). The switch sends the number of the last answer it counted with its
   * calls-up report (POST /switch/calls, `seq`), so the report replaces only the calls it covers.
   */
  seq: z.number().nullable(),
});
export type RouteAnswer = z.output<typeof routeAnswer>;
export const switchRoute = endpoint({
  method: 'POST',
  path: '/switch/route',
  summary:
    'Route a new call (SIP proxy, X-Switch-Key): the ingress leg and the egress trunks to try, in order, or the reject code',
  tag: 'switch',
  access: { kind: 'switch' },
  body: routeRequest,
  payload: routeAnswer,
});
export const switchCalls = endpoint({
  method: 'POST',
  path: '/switch/calls',
  summary: 'Calls up now per trunk (SIP proxy, X-Switch-Key): the call limits count them',
  tag: 'switch',
  access: { kind: 'switch' },
  body: z
    .object({
      trunks: z.array(z.object({ trunk_id: id, calls: count }).strict()).max(100000),
      /**
       * The `seq` of the last route answer the switch counted in this report: calls routed after
       * it keep counting on top of the report (until the next one, at most 3 seconds). Without it
       * the report counts every call routed before it.
       */
      seq: count.nullable().optional(),
    })
    .strict(),
  payload: z.null(),
});

/** Counters of one trunk over the interval the switch reports (an int4 each; billed seconds an int8). */
const qosCounter = count.max(2_147_483_647, { message: 'invalidValue' });
export const qosSample = z
  .object({
    trunk_id: id,
    /** Call attempts (seizures) sent to the trunk in the interval. */
    attempts: qosCounter,
    /** Of those, answered calls. */
    answered: qosCounter,
    /** Billed (connected) seconds of the answered calls. */
    billed_seconds: count.max(1_000_000_000_000, { message: 'invalidValue' }),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.answered > s.attempts) ctx.addIssue(larger('answered', 'attempts'));
  });
export const qosReport = z
  .object({ samples: z.array(qosSample).max(10000) })
  .strict()
  .superRefine((b, ctx) => {
    const seen = new Set<number>();
    b.samples.forEach((s, i) => {
      if (seen.has(s.trunk_id))
        ctx.addIssue({
          code: 'custom',
          path: ['samples', i, 'trunk_id'],
          message: 'alreadyExists',
          params: { args: ['Trunk', String(s.trunk_id)] },
        });
      seen.add(s.trunk_id);
    });
  });
export const switchQos = endpoint({
  method: 'POST',
  path: '/switch/qos',
  summary:
    'QoS counters per trunk for the interval just ended (SIP proxy, X-Switch-Key): the ASR and ACD over the QoS cycle that largest-ASR / largest-ACD dynamic routes order by',
  tag: 'switch',
  access: { kind: 'switch' },
  body: qosReport,
  payload: z.null(),
});

export const switchKeyRow = z.object({
  id: z.number(),
  name: z.string(),
  key_prefix: z.string(),
  created_at: z.string(),
  created_by: z.string(),
  revoked_at: z.string().nullable(),
});
export const listSwitchKeys = endpoint({
  method: 'GET',
  path: '/routing/switch_key/list',
  summary: 'Switch API keys (the key itself is shown once, at creation)',
  tag,
  access: adminOnly(ENGINE_FUNC, 'read'),
  query: listQuery,
  payload: paged(switchKeyRow),
});
export const createSwitchKey = endpoint({
  method: 'POST',
  path: '/routing/switch_key/create',
  summary: 'Create a switch API key; the answer shows the key once',
  tag,
  access: adminOnly(ENGINE_FUNC, 'write'),
  body: z.object({ name: entityName() }).strict(),
  payload: z.object({ object_id: z.number(), key: z.string() }),
});
export const revokeSwitchKey = endpoint({
  method: 'PATCH',
  path: '/routing/switch_key/:id/revoke',
  summary: 'Revoke a switch API key',
  tag,
  access: adminOnly(ENGINE_FUNC, 'write'),
  params: idParams,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Engine status

export const engineStatus = z.object({
  ready: z.boolean(),
  building: z.boolean(),
  version: z.number(),
  built_at: z.string().nullable(),
  build_ms: z.number().nullable(),
  load_ms: z.number().nullable(),
  /**
   * 'full' (every rate read, snapshot built), 'incremental' (changed rate rows read, snapshot built)
   * or 'patch' (only rate values changed: written into the snapshot, no build).
   */
  load_kind: z.enum(['full', 'incremental', 'patch']).nullable(),
  counts: z.object({
    carriers: z.number(),
    trunks: z.number(),
    rate_tables: z.number(),
    rates: z.number(),
    routing_plans: z.number(),
    static_routes: z.number(),
    dynamic_routes: z.number(),
    block_list: z.number(),
    jurisdiction: z.number(),
    digital_maps: z.number(),
    media_ip_blocks: z.number(),
    ocn_blocks: z.number(),
  }),
  warnings: z.array(z.string()),
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
});
export type EngineStatus = z.output<typeof engineStatus>;
export const getEngineStatus = endpoint({
  method: 'GET',
  path: '/routing/engine/status',
  summary: 'The routing snapshot in memory: version, build time, counts, warnings, last error',
  tag,
  access: adminOnly(CALL_SIMULATION_FUNC, 'read'),
  payload: engineStatus,
});
export const rebuildEngine = endpoint({
  method: 'POST',
  path: '/routing/engine/rebuild',
  summary: 'Rebuild the routing snapshot now (in the background)',
  tag,
  access: adminOnly(ENGINE_FUNC, 'write'),
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Tools: call simulation and routing analysis

export const TRACE_STEPS = [
  'ingress',
  'admission',
  'digits',
  'block_list',
  'monitoring',
  'ingress_rate',
  'routing_plan',
  'route',
  'egress',
  'result',
] as const;
export const traceStep = z.object({
  step: z.enum(TRACE_STEPS),
  outcome: z.enum(['ok', 'fail', 'info']),
  detail: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type TraceStepRow = z.output<typeof traceStep>;
export const simulationRequest = z
  .object({
    source_ip: z.string().trim().min(1, { message: 'required' }).max(64),
    source_port: int4().min(0).max(65535).nullable().default(null),
    ani: digits(32).default(''),
    dnis: z.string().trim().min(1, { message: 'required' }).max(64),
    lrn: digits(32).nullable().default(null),
    /** ISO 8601 within 1970..2200; null = now. */
    time: z
      .string()
      .max(40)
      .refine((v) => v === '' || inInstantRange(Date.parse(v)), { message: 'invalidCallTime' })
      .nullable()
      .default(null),
    ocn: z.string().trim().max(16).nullable().default(null),
    origid: z.string().trim().max(64).nullable().default(null),
    attestation: z.enum(['A', 'B', 'C']).nullable().default(null),
  })
  .strict();
const named = { trunk_name: z.string(), carrier_name: z.string() };
export const simulationResult = z.object({
  result: z.enum(['route', 'reject']),
  reject_code: z.number().nullable(),
  reject_reason: z.string().nullable(),
  ani: z.string(),
  dnis: z.string(),
  time: z.string(),
  ingress: routeIngress
    .extend({
      ...named,
      tech_prefix: z.string(),
      rate_table_name: z.string().nullable(),
      routing_plan_id: z.number().nullable(),
      routing_plan_name: z.string().nullable(),
    })
    .nullable(),
  routes: z.array(
    routeEntry.extend({
      ...named,
      code_name: z.string().nullable(),
      rate_table_id: z.number(),
      rate_table_name: z.string(),
    }),
  ),
  trace: z.array(traceStep),
  /** Names of the trunks the trace mentions, by trunk id. */
  trunk_names: z.record(z.string(), z.object({ trunk_name: z.string(), carrier_name: z.string() })),
  snapshot: z.object({ version: z.number(), built_at: z.string().nullable() }),
});
export type SimulationResult = z.output<typeof simulationResult>;
export const callSimulation = endpoint({
  method: 'POST',
  path: '/tools/call_simulation',
  summary: "Simulate a call: the engine's decision with its full trace (changes no counter)",
  tag: 'tools',
  access: adminOnly(CALL_SIMULATION_FUNC, 'read'),
  body: simulationRequest,
  payload: simulationResult,
});

export const analysisRequest = z
  .object({
    trunk_id: int4({ message: 'required' }).positive(),
    codes: z
      .array(digits(32).refine((v) => v.length > 0, { message: 'required' }))
      .max(500)
      .default([]),
    countries: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
    time: z.string().max(40).nullable().default(null),
  })
  .strict()
  .refine((b) => b.codes.length + b.countries.length > 0, { path: ['codes'], message: 'required' });
export const analysisVendor = z.object({
  trunk_id: z.number(),
  trunk_name: z.string(),
  carrier_name: z.string(),
  /** 1-based order of the route; null when dropped. */
  position: z.number().nullable(),
  rate: z.string().nullable(),
  profit: z.string().nullable(),
  margin_percent: z.string().nullable(),
  /** Why the trunk was dropped (EGRESS_DROP reason), null when kept. */
  dropped: z.string().nullable(),
});
export const analysisRow = z.object({
  code: z.string(),
  code_name: z.string().nullable(),
  country: z.string().nullable(),
  result: z.enum(['route', 'reject']),
  reject_reason: z.string().nullable(),
  ingress_rate: z.string().nullable(),
  vendors: z.array(analysisVendor),
});
export type AnalysisRow = z.output<typeof analysisRow>;
export const routingAnalysis = endpoint({
  method: 'POST',
  path: '/tools/routing_analysis',
  summary: 'For a customer trunk and codes or countries: the vendor order and margins per code',
  tag: 'tools',
  access: adminOnly(ROUTING_ANALYSIS_FUNC, 'read'),
  body: analysisRequest,
  payload: z.object({
    trunk: z.object({
      trunk_id: z.number(),
      name: z.string(),
      carrier_name: z.string(),
      rate_table_id: z.number().nullable(),
      rate_table_name: z.string().nullable(),
    }),
    rows: z.array(analysisRow),
    truncated: z.boolean(),
  }),
});
