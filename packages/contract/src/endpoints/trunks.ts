import { int4, coercedInt4 } from '../input-rules';
import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, paged, queryBool } from '../common';
import { crudEndpoints, entityName, patchOf } from '../crud';
import { endpoint } from '../endpoint';
import { registration, routingRows, trunkHosts, trunkSettings, trunkSettingsFields } from './trunk-settings';

export * from './trunk-settings';

/** Routing > Trunks: ingress (customer) and egress (vendor) trunks with every tab of the trunk edit. */
export const TRUNKS_FUNC = '/routing/trunks';
export const DIRECTIONS = ['ingress', 'egress'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const trunkCreate = z
  .object({
    carrier_id: int4({ message: 'required' }).positive(),
    name: entityName(100),
    direction: z.enum(DIRECTIONS),
    is_active: z.boolean().default(true),
    ...trunkSettingsFields,
    /** Sent back with an empty password; an empty password on update keeps the stored one. */
    registration: registration.default({
      username: '',
      password: '',
      realm: '',
      gateway_host: '',
      gateway_port: null,
      expires: 3600,
    }),
    hosts: trunkHosts.default([]),
    /** Ingress only: products on this trunk told apart by tech prefix (domain routing_rows). */
    routing_rows: routingRows.default([]),
    /**
     * The digital map the trunk uses (Routing > Digital Maps), null = none. A trunk uses at most
     * one map: choosing one here replaces the trunk's map (the map's own page refuses a trunk
     * another map uses).
     */
    digital_map_id: int4({ message: 'invalidValue' }).positive().nullable().default(null),
  })
  .strict();
export type TrunkCreate = z.input<typeof trunkCreate>;

export const trunkRow = trunkCreate.extend({
  trunk_id: z.number(),
  carrier_name: z.string(),
  carrier_is_active: z.boolean(),
  client_type: z.enum(['client', 'vendor']),
  host_count: z.number(),
  group_names: z.array(z.string()),
  digital_map_name: z.string().nullable(),
  updated_at: z.string(),
});
export type TrunkRow = z.output<typeof trunkRow>;

export const trunk = crudEndpoints({
  base: '/trunk',
  tag: 'trunk',
  func: TRUNKS_FUNC,
  name: 'trunk',
  row: trunkRow,
  create: trunkCreate,
  filters: {
    name: z.string().max(100).optional(),
    direction: z.enum(DIRECTIONS).optional(),
    carrier_id: coercedInt4().positive().optional(),
    is_active: queryBool.optional(),
    trunk_type2: z.enum(['termination', 'did']).optional(),
    /** Trunks whose host (IP or name) contains this text. */
    host: z.string().max(253).optional(),
    group_id: coercedInt4().positive().optional(),
    rate_table_id: coercedInt4().positive().optional(),
    routing_plan_id: coercedInt4().positive().optional(),
  },
  activation: true,
  portal: ['client', 'vendor'],
});

/** The static and dynamic routes an (egress) trunk is part of: the trunk edit's routing tabs. */
export const trunkRoutes = endpoint({
  method: 'GET',
  path: '/trunk/:id/routes',
  summary: 'Static and dynamic routes that use this trunk',
  tag: 'trunk',
  access: adminOnly(TRUNKS_FUNC, 'read'),
  params: idParams,
  payload: z.object({
    static_routes: z.array(
      z.object({ static_route_id: z.number(), name: z.string(), codes: z.array(z.string()) }),
    ),
    dynamic_routes: z.array(z.object({ dynamic_route_id: z.number(), name: z.string(), rule: z.string() })),
  }),
});

/**
 * Termination > Unclaimed Trunks: trunks that cannot carry traffic as configured. Reasons:
 * - carrier_inactive: the carrier is inactive or its registration is not approved;
 * - no_rate_table / no_routing_plan: an ingress trunk with neither its own nor a routing row's;
 * - no_route: an egress trunk that no static or dynamic route uses;
 * - no_host: a host-authenticated trunk without hosts.
 */
export const UNCLAIMED_REASONS = [
  'carrier_inactive',
  'no_rate_table',
  'no_routing_plan',
  'no_route',
  'no_host',
] as const;
export const unclaimedRow = z.object({
  trunk_id: z.number(),
  name: z.string(),
  direction: z.enum(DIRECTIONS),
  is_active: z.boolean(),
  carrier_id: z.number(),
  carrier_name: z.string(),
  reasons: z.array(z.enum(UNCLAIMED_REASONS)),
});
export const unclaimedTrunks = endpoint({
  method: 'GET',
  path: '/trunk/unclaimed/list',
  summary: 'Trunks that cannot carry traffic, with the reasons',
  tag: 'trunk',
  access: adminOnly('/termination/unclaimed_trunks', 'read'),
  query: listQuery.extend({
    direction: z.enum(DIRECTIONS).optional(),
    reason: z.enum(UNCLAIMED_REASONS).optional(),
    name: z.string().max(100).optional(),
  }),
  payload: paged(unclaimedRow),
});

/** Names for the trunk, product and carrier forms' dropdowns (any signed-in admin). */
export const lookupItem = z.object({ id: z.number(), name: z.string() });
export const lookups = endpoint({
  method: 'GET',
  path: '/trunk/lookups',
  summary:
    'Carriers, rate tables, routing plans, products, agents, payment terms, SIP hosts, digital maps and trunks by name',
  tag: 'trunk',
  access: { kind: 'session', types: ['admin'] },
  payload: z.object({
    carriers: z.array(
      lookupItem.extend({
        client_type: z.enum(['client', 'vendor']),
        is_active: z.boolean(),
        /** A DID client or vendor (the origination screens offer only these). */
        did: z.boolean(),
      }),
    ),
    rate_tables: z.array(lookupItem),
    routing_plans: z.array(lookupItem),
    products: z.array(
      lookupItem.extend({
        tech_prefix: z.string(),
        rate_table_id: z.number().nullable(),
        routing_plan_id: z.number().nullable(),
      }),
    ),
    agents: z.array(lookupItem),
    payment_terms: z.array(lookupItem),
    sip_hosts: z.array(lookupItem),
    digital_maps: z.array(lookupItem),
    trunks: z.array(lookupItem.extend({ direction: z.enum(DIRECTIONS), carrier_id: z.number() })),
  }),
});

/** Configuration > Trunk Group: ingress groups are labelled inbound, egress groups outbound. */
export const trunkGroupCreate = z
  .object({
    group_name: entityName(100),
    trunk_type: z.enum(DIRECTIONS),
    trunk_ids: z.array(int4().positive()).max(10000).default([]),
  })
  .strict();
export const trunkGroupRow = trunkGroupCreate.extend({
  group_id: z.number(),
  trunk_count: z.number(),
  trunk_names: z.array(z.string()),
  updated_at: z.string(),
});
export const trunkGroup = crudEndpoints({
  base: '/config/trunk_group',
  tag: 'trunk',
  func: '/configuration/trunk_group',
  name: 'trunk group',
  row: trunkGroupRow,
  create: trunkGroupCreate,
  filters: { group_name: z.string().max(100).optional(), trunk_type: z.enum(DIRECTIONS).optional() },
});

/**
 * Templates > Ingress / Egress Trunk Template: a name and any trunk settings (all optional); a new
 * trunk made from a template starts from them.
 */
export const trunkTemplateSettings = patchOf(trunkSettings);
export const trunkTemplateCreate = z
  .object({ name: entityName(100), ...trunkTemplateSettings.shape })
  .strict();
export const trunkTemplateRow = trunkTemplateCreate.extend({
  template_id: z.number(),
  direction: z.enum(DIRECTIONS),
  updated_at: z.string(),
});
export type TrunkTemplateRow = z.output<typeof trunkTemplateRow>;
const templateOf = (direction: Direction) =>
  crudEndpoints({
    base: `/template/${direction}_trunk`,
    tag: 'template',
    func: `/template/${direction}_trunk_template`,
    name: `${direction} trunk template`,
    row: trunkTemplateRow,
    create: trunkTemplateCreate,
    filters: { name: z.string().max(100).optional() },
  });
export const ingressTrunkTemplate = templateOf('ingress');
export const egressTrunkTemplate = templateOf('egress');

/** The settings of a template as the start of a new trunk's form. */
export function trunkFromTemplate(t: Partial<TrunkTemplateRow>): Partial<TrunkCreate> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(trunkSettingsFields))
    if (t[k as keyof TrunkTemplateRow] !== undefined && t[k as keyof TrunkTemplateRow] !== null)
      out[k] = t[k as keyof TrunkTemplateRow];
  return out as Partial<TrunkCreate>;
}
