/**
 * The routing snapshot: the whole routing and rating configuration compiled once into lookup
 * structures (tries, maps, parsed money, compiled time profiles), immutable, rebuilt by the
 * server when configuration changes. `decide` reads it per call without parsing anything.
 *
 * Dangling references (a trunk naming an unknown rate table, a plan row naming an unknown
 * route, ...) do not stop the build: they are listed in `warnings` and show up as a reject or a
 * dropped trunk, with the reason in the trace. Malformed values (a rate "abc", a code "44a", a
 * time "25:00") do stop it, with a SnapshotError naming the field.
 */
import { BlockList } from './block-list';
import { MediaIpBlockList, OcnBlockList } from './call-blocks';
import { compileDigitMap, type CompiledDigitMap } from './digit-map';
import { compileNumberRules } from './digits';
import { failoverTable } from './failover';
import { JurisdictionIndex } from './jurisdiction';
import { formatMoney } from './money';
import { HostIndex } from './network';
import { PrefixIndex } from './prefix-index';
import { MoneyReader, RateTableView, buildCodeDeckSteps } from './snapshot-rates';
import { ROWS_PER_STEP, runSteps, type Steps } from './steps';
import { SnapshotError } from './snapshot-types';
import type {
  RouteTrunk,
  RoutingSnapshot,
  SnapshotCarrier,
  SnapshotDid,
  SnapshotDidRule,
  SnapshotDids,
  SnapshotDynamicRoute,
  SnapshotPlanRow,
  SnapshotRateTable,
  SnapshotRoutingPlan,
  SnapshotStaticItem,
  SnapshotStaticRoute,
  SnapshotTrunk,
} from './snapshot-types';
import { compileTimeProfile } from './time-profile';
import type { CompiledTimeProfile } from './time-profile';
import type {
  CarrierConfig,
  DidConfig,
  DidEngineConfig,
  DynamicRouteConfig,
  DynamicRouteTrunkConfig,
  EngineConfig,
  FailoverRuleConfig,
  RoutingPlanConfig,
  StaticRouteConfig,
  StaticRouteTrunkConfig,
  TrunkConfig,
} from './config';

export * from './snapshot-types';

function limit(value: number | null | undefined, field: string): number | null {
  if (value == null) return null;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new SnapshotError(field, `must be an integer >= 0, got ${value}`);
  return value;
}

/** The system's timers for trunks that set none (settings.default_ring_timeout_s, max_call_duration_s). */
type TimerDefaults = Pick<SnapshotTrunk, 'ring_timeout_s' | 'max_duration_s'> & {
  /** The system default failover rules, under each trunk's own. */
  readonly failover_rules: readonly FailoverRuleConfig[];
};

interface MutableRouteTrunk extends Omit<RouteTrunk, 'trunk' | 'repeated'> {
  trunk: SnapshotTrunk | null;
  repeated: boolean;
}

function routeTrunk(
  config: StaticRouteTrunkConfig & Partial<DynamicRouteTrunkConfig>,
  pending: MutableRouteTrunk[],
): RouteTrunk {
  const entry: MutableRouteTrunk = {
    trunk_id: config.trunk_id,
    trunk: null,
    percentage: config.percentage ?? 0,
    priority: config.priority ?? Number.MAX_SAFE_INTEGER,
    call_limit: config.call_limit ?? null,
    cps_limit: config.cps_limit ?? null,
    qos: config.qos ?? null,
    repeated: false,
  };
  pending.push(entry);
  return entry;
}

/** The route trunks of one list, each marked when its trunk is listed more than once. */
function routeTrunks(
  configs: readonly (StaticRouteTrunkConfig & Partial<DynamicRouteTrunkConfig>)[],
  pending: MutableRouteTrunk[],
): RouteTrunk[] {
  const list = configs.map((t) => routeTrunk(t, pending));
  const seen = new Map<number, MutableRouteTrunk>();
  for (const entry of list as MutableRouteTrunk[]) {
    const earlier = seen.get(entry.trunk_id);
    if (earlier === undefined) seen.set(entry.trunk_id, entry);
    else earlier.repeated = entry.repeated = true;
  }
  return list;
}

function buildCarrier(c: CarrierConfig, at: string, money: MoneyReader): SnapshotCarrier {
  const prepaid = c.mode === 'prepaid';
  const credit =
    (prepaid
      ? money.optional(c.allowed_credit, `${at}.allowed_credit`)
      : money.optional(c.credit_limit, `${at}.credit_limit`)) ?? 0n;
  return {
    carrier_id: c.carrier_id,
    name: c.name,
    is_active: c.is_active,
    prepaid,
    balance: money.field(c.balance, `${at}.balance`),
    credit,
    credit_floor: -credit,
    unlimited_credit: c.unlimited_credit ?? false,
    min_profitability: money.optional(c.min_profitability_percent, `${at}.min_profitability_percent`),
    call_limit: limit(c.call_limit, `${at}.call_limit`),
    cps_limit: limit(c.cps_limit, `${at}.cps_limit`),
  };
}

/** The DID inventory: numbers by their digits, rules shared, client trunks by carrier. */
function* buildDids(
  config: DidEngineConfig | undefined,
  trunks: ReadonlyMap<number, SnapshotTrunk>,
  money: MoneyReader,
): Steps<SnapshotDids> {
  const rules = new Map<number, SnapshotDidRule>();
  (config?.rules ?? []).forEach((r, i) =>
    rules.set(r.id, {
      id: r.id,
      name: r.name,
      per_minute: money.field(r.per_minute, `did.rules[${i}].per_minute`),
    }),
  );
  const terms = new Map<number, { decimals: number; round_up: boolean }>();
  for (const c of config?.carriers ?? [])
    terms.set(c.carrier_id, { decimals: Math.min(6, Math.max(0, c.decimals)), round_up: c.round_up });
  const numbers = new Map<string, SnapshotDid>();
  const list = config?.numbers ?? [];
  for (let i = 0; i < list.length; i++) {
    const d = list[i] as DidConfig;
    numbers.set(d.number, {
      did_id: d.did_id,
      number: d.number,
      vendor_id: d.vendor_id,
      client_id: d.client_id,
      state: d.state,
      suspended: d.suspended === true,
      vendor_rule: d.vendor_rule_id === null ? null : (rules.get(d.vendor_rule_id) ?? null),
      client_rule: d.client_rule_id === null ? null : (rules.get(d.client_rule_id) ?? null),
    });
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  const clientTrunks = new Map<number, SnapshotTrunk[]>();
  for (const t of [...trunks.values()].sort((a, b) => a.trunk_id - b.trunk_id)) {
    if (!t.did || t.direction !== 'egress') continue;
    const l = clientTrunks.get(t.carrier_id);
    if (l) l.push(t);
    else clientTrunks.set(t.carrier_id, [t]);
  }
  return { numbers, terms, client_trunks: clientTrunks };
}

export function buildSnapshot(config: EngineConfig): RoutingSnapshot {
  return runSteps(buildSnapshotSteps(config));
}

/**
 * `buildSnapshot` as steps (steps.ts): the rate rows (nearly all of the work) are built a few
 * thousand at a time, so a server can build a snapshot in time slices while it keeps answering.
 */
export function* buildSnapshotSteps(config: EngineConfig): Steps<RoutingSnapshot> {
  const warnings: string[] = [];
  const money = new MoneyReader();

  const timeProfiles = new Map<number, CompiledTimeProfile>();
  (config.time_profiles ?? []).forEach((p, i) => {
    try {
      timeProfiles.set(p.time_profile_id, compileTimeProfile(p));
    } catch (error) {
      throw new SnapshotError(`time_profiles[${i}]`, (error as Error).message);
    }
  });
  const profile = (id: number | null | undefined, where: string): CompiledTimeProfile | null => {
    if (id == null) return null;
    const found = timeProfiles.get(id);
    if (!found) warnings.push(`${where}: unknown time profile ${id} (treated as all time)`);
    return found ?? null;
  };

  const carriers = new Map<number, SnapshotCarrier>();
  config.carriers.forEach((c, i) => carriers.set(c.carrier_id, buildCarrier(c, `carriers[${i}]`, money)));

  const tables = config.rate_tables.map((t, i) => new RateTableView(t, `rate_tables[${i}]`, i));
  const { deck: codeDeck, store: rates } = yield* buildCodeDeckSteps(config.rate_tables, money);
  const rateTables = new Map<number, SnapshotRateTable>();
  for (const table of tables) rateTables.set(table.rate_table_id, table.attach(codeDeck, rates));
  const rateTable = (id: number | null | undefined, where: string): SnapshotRateTable | null => {
    if (id == null) return null;
    const found = rateTables.get(id);
    if (!found) warnings.push(`${where}: unknown rate table ${id}`);
    return found ?? null;
  };

  const pending: MutableRouteTrunk[] = [];
  const staticRoutes = new Map<number, SnapshotStaticRoute>();
  (config.static_routes ?? []).forEach((s, i) =>
    staticRoutes.set(s.static_route_id, buildStaticRoute(s, i, profile, warnings, pending)),
  );
  const dynamicRoutes = new Map<number, SnapshotDynamicRoute>();
  (config.dynamic_routes ?? []).forEach((d, i) =>
    dynamicRoutes.set(d.dynamic_route_id, buildDynamicRoute(d, i, profile, pending)),
  );

  const plans = new Map<number, SnapshotRoutingPlan>();
  config.routing_plans.forEach((p, i) =>
    plans.set(
      p.routing_plan_id,
      buildPlan(p, `routing_plans[${i}]`, profile, staticRoutes, dynamicRoutes, warnings),
    ),
  );
  const plan = (id: number | null | undefined, where: string): SnapshotRoutingPlan | null => {
    if (id == null) return null;
    const found = plans.get(id);
    if (!found) warnings.push(`${where}: unknown routing plan ${id}`);
    return found ?? null;
  };

  let blockList: BlockList;
  try {
    blockList = BlockList.build(config.block_list ?? []);
  } catch (error) {
    throw new SnapshotError('block_list', (error as Error).message);
  }

  const digitMaps = new Map<number, CompiledDigitMap>();
  (config.digit_maps ?? []).forEach((m, i) => {
    try {
      digitMaps.set(m.digital_map_id, compileDigitMap(m));
    } catch (error) {
      throw new SnapshotError(`digit_maps[${i}]`, (error as Error).message);
    }
  });
  let mediaIpBlocks: MediaIpBlockList;
  try {
    mediaIpBlocks = MediaIpBlockList.build(config.media_ip_blocks ?? []);
  } catch (error) {
    throw new SnapshotError('media_ip_blocks', (error as Error).message);
  }

  const trunks = new Map<number, SnapshotTrunk>();
  const ingressHosts = new HostIndex<SnapshotTrunk>();
  const timerDefaults: TimerDefaults = {
    ring_timeout_s: limit(config.settings.default_ring_timeout_s, 'settings.default_ring_timeout_s'),
    max_duration_s: limit(config.settings.max_call_duration_s, 'settings.max_call_duration_s'),
    failover_rules: config.settings.default_failover_rules ?? [],
  };
  config.trunks.forEach((t, i) => {
    const at = `trunks[${i}]`;
    const trunk = buildTrunk(
      t,
      at,
      money,
      carriers,
      rateTable,
      plan,
      warnings,
      blockList.hasTrunk(t.trunk_id),
      digitMaps,
      timerDefaults,
    );
    trunks.set(t.trunk_id, trunk);
    if (t.direction !== 'ingress') return;
    t.hosts.forEach((h, k) => {
      if (h.port != null && (!Number.isInteger(h.port) || h.port < 1 || h.port > 65535)) {
        throw new SnapshotError(`${at}.hosts[${k}].port`, `must be 1..65535, got ${h.port}`);
      }
      try {
        ingressHosts.add(trunk, h.ip, h.port, h.netmask);
      } catch (error) {
        throw new SnapshotError(`${at}.hosts[${k}].netmask`, (error as Error).message);
      }
    });
  });

  for (const entry of pending) entry.trunk = trunks.get(entry.trunk_id) ?? null;
  const dids = yield* buildDids(config.did, trunks, money);

  const settings = config.settings;
  return {
    carriers,
    trunks,
    rate_tables: rateTables,
    code_deck: codeDeck,
    rates,
    routing_plans: plans,
    static_routes: staticRoutes,
    dynamic_routes: dynamicRoutes,
    time_profiles: timeProfiles,
    ingress_hosts: ingressHosts,
    block_list: blockList,
    digit_maps: digitMaps,
    media_ip_blocks: mediaIpBlocks,
    ocn_blocks: OcnBlockList.build(config.ocn_blocks ?? []),
    jurisdiction: JurisdictionIndex.build(config.jurisdiction ?? new Map()),
    dids,
    settings: {
      default_ij_rule: settings.default_ij_rule,
      utc_offset_minutes: settings.utc_offset_minutes ?? 0,
      default_failover_rules: settings.default_failover_rules ?? [],
      max_routes: settings.max_routes ?? null,
    },
    format: formatMoney,
    warnings,
  };
}

type ProfileOf = (id: number | null | undefined, where: string) => CompiledTimeProfile | null;

function buildTrunk(
  t: TrunkConfig,
  at: string,
  money: MoneyReader,
  carriers: ReadonlyMap<number, SnapshotCarrier>,
  rateTable: (id: number | null | undefined, where: string) => SnapshotRateTable | null,
  plan: (id: number | null | undefined, where: string) => SnapshotRoutingPlan | null,
  warnings: string[],
  hasBlockList: boolean,
  digitMaps: ReadonlyMap<number, CompiledDigitMap>,
  defaults: TimerDefaults,
): SnapshotTrunk {
  const timeouts = t.timeouts ?? {};
  const carrier = carriers.get(t.carrier_id) ?? null;
  if (!carrier) warnings.push(`${at}: unknown carrier ${t.carrier_id}`);
  const digitMap = t.digit_map_id == null ? null : (digitMaps.get(t.digit_map_id) ?? null);
  if (t.digit_map_id != null && !digitMap) warnings.push(`${at}: unknown digital map ${t.digit_map_id}`);
  const techPrefix = t.tech_prefix ?? '';
  const rows =
    t.direction === 'ingress'
      ? (t.routing_rows ?? [
          {
            tech_prefix: techPrefix,
            rate_table_id: t.rate_table_id ?? null,
            routing_plan_id: t.routing_plan_id ?? null,
          },
        ])
      : [];
  const products = rows
    .map((r, k) => ({
      tech_prefix: r.tech_prefix,
      rate_table_id: r.rate_table_id,
      rate_table: rateTable(r.rate_table_id, `${at}.routing_rows[${k}]`),
      routing_plan_id: r.routing_plan_id,
      routing_plan: plan(r.routing_plan_id, `${at}.routing_rows[${k}]`),
    }))
    .sort((a, b) => b.tech_prefix.length - a.tech_prefix.length);
  return {
    trunk_id: t.trunk_id,
    carrier_id: t.carrier_id,
    carrier,
    name: t.name,
    direction: t.direction,
    is_active: t.is_active,
    hosts: t.hosts,
    tech_prefix: techPrefix,
    products,
    rate_table_id: t.rate_table_id ?? null,
    rate_table: t.direction === 'egress' ? rateTable(t.rate_table_id, at) : null,
    bill_by: t.bill_by ?? 'dnis',
    min_profitability: money.optional(t.min_profitability, `${at}.min_profitability`),
    call_limit: limit(t.call_limit, `${at}.call_limit`),
    cps_limit: limit(t.cps_limit, `${at}.cps_limit`),
    numbers: compileNumberRules(t.digit_replacements, t.digit_manipulations),
    failover_rules: t.failover_rules ?? [],
    failover: failoverTable(t, defaults.failover_rules),
    has_block_list: hasBlockList,
    digit_map: digitMap,
    ring_timeout_s: limit(timeouts.ring_timer, `${at}.timeouts.ring_timer`) ?? defaults.ring_timeout_s,
    pdd_timeout_ms: limit(timeouts.pdd_timeout_ms, `${at}.timeouts.pdd_timeout_ms`),
    max_duration_s: limit(timeouts.max_duration, `${at}.timeouts.max_duration`) ?? defaults.max_duration_s,
    did: t.did === true,
  };
}

function buildStaticRoute(
  s: StaticRouteConfig,
  i: number,
  profile: ProfileOf,
  warnings: string[],
  pending: MutableRouteTrunk[],
): SnapshotStaticRoute {
  const at = `static_routes[${i}]`;
  const items = s.items.map((item, k): SnapshotStaticItem => {
    if (item.strategy === 'percentage') {
      const sum = item.trunks.reduce((total, t) => total + (t.percentage ?? 0), 0);
      if (sum !== 100)
        warnings.push(`${at}.items[${k}]: percentages sum to ${sum}, not 100 (used as weights)`);
    }
    return {
      code: item.code,
      strategy: item.strategy,
      time_profile_id: item.time_profile_id ?? null,
      time_profile: profile(item.time_profile_id, `${at}.items[${k}]`),
      trunks: routeTrunks(item.trunks, pending),
      cursor_key: `static:${s.static_route_id}:${k}`,
    };
  });
  let index: PrefixIndex<SnapshotStaticItem>;
  try {
    index = PrefixIndex.build(items);
  } catch (error) {
    throw new SnapshotError(`${at}.items`, (error as Error).message);
  }
  return {
    static_route_id: s.static_route_id,
    name: s.name ?? `#${s.static_route_id}`,
    route_by: s.route_by ?? 'dnis',
    index,
  };
}

function buildDynamicRoute(
  d: DynamicRouteConfig,
  i: number,
  profile: ProfileOf,
  pending: MutableRouteTrunk[],
): SnapshotDynamicRoute {
  return {
    dynamic_route_id: d.dynamic_route_id,
    name: d.name ?? `#${d.dynamic_route_id}`,
    rule: d.rule,
    time_profile_id: d.time_profile_id ?? null,
    time_profile: profile(d.time_profile_id, `dynamic_routes[${i}]`),
    trunks: routeTrunks(d.trunks, pending),
  };
}

function buildPlan(
  p: RoutingPlanConfig,
  at: string,
  profile: ProfileOf,
  staticRoutes: ReadonlyMap<number, SnapshotStaticRoute>,
  dynamicRoutes: ReadonlyMap<number, SnapshotDynamicRoute>,
  warnings: string[],
): SnapshotRoutingPlan {
  const rows = p.rows.map((r, k): SnapshotPlanRow => {
    const where = `${at}.rows[${k}]`;
    const staticRoute = r.route_type === 'static' ? (staticRoutes.get(r.route_id) ?? null) : null;
    const dynamicRoute = r.route_type === 'dynamic' ? (dynamicRoutes.get(r.route_id) ?? null) : null;
    if (!staticRoute && !dynamicRoute) warnings.push(`${where}: unknown ${r.route_type} route ${r.route_id}`);
    return {
      code: r.prefix,
      ani_prefix: r.ani_prefix ?? '',
      dnis_min_length: r.dnis_min_length ?? 0,
      dnis_max_length: r.dnis_max_length ?? Infinity,
      ani_min_length: r.ani_min_length ?? 0,
      ani_max_length: r.ani_max_length ?? Infinity,
      route_type: r.route_type,
      route_id: r.route_id,
      time_profile_id: r.time_profile_id ?? null,
      time_profile: profile(r.time_profile_id, where),
      static_route: staticRoute,
      dynamic_route: dynamicRoute,
    };
  });
  let index: PrefixIndex<SnapshotPlanRow>;
  try {
    index = PrefixIndex.build(rows);
  } catch (error) {
    throw new SnapshotError(`${at}.rows`, (error as Error).message);
  }
  return { routing_plan_id: p.routing_plan_id, name: p.name ?? `#${p.routing_plan_id}`, index };
}
