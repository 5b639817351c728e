import type {
  BlockListEntry,
  CarrierConfig,
  DigitManipulationRule,
  DigitReplacementRule,
  DynamicRouteConfig,
  EngineConfig,
  FailoverRuleConfig,
  IngressRoutingRowConfig,
  NpaNxxInfo,
  RateTableConfig,
  RoutingPlanConfig,
  StaticRouteConfig,
  StaticRouteItemConfig,
  TimeProfileConfig,
  TrunkConfig,
  TrunkHostConfig,
  TrunkTimeoutsConfig,
} from '@tandem/domain';
import { zoneOffsetMinutes } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { SettingsService } from '../config/settings';
import { loadDidConfig } from '../did/load';
import { loadRoutingExtras } from '../routing-extras/load';
import { yieldToLoop } from '../../event-loop';
import { RateCache, type RateLoad } from './rate-cache';
import { readDefaultFailover, readSystemRouting } from './routing-settings';

/**
 * Reads the whole routing and rating configuration into the domain's EngineConfig: one query per
 * table (rates page by page through the RateCache, which after the first load reads only changed
 * rows; US jurisdiction data cached by version). Stored JSON of the trunk tabs is passed through
 * in the domain's shapes (contract trunk-settings.ts mirrors them).
 */
export interface LoadedConfig {
  config: EngineConfig;
  rates: RateLoad;
  counts: {
    carriers: number;
    trunks: number;
    rate_tables: number;
    rates: number;
    routing_plans: number;
    static_routes: number;
    dynamic_routes: number;
    block_list: number;
    jurisdiction: number;
    digital_maps: number;
    media_ip_blocks: number;
    ocn_blocks: number;
  };
}

const nullable = (v: number | null | undefined): number | null => (v == null ? null : Number(v));

export class ConfigLoader {
  readonly rates: RateCache;
  private jurisdiction: { version: number; data: Map<string, NpaNxxInfo> } | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
  ) {
    this.rates = new RateCache(db, () => this.stopped);
  }

  stop(): void {
    this.stopped = true;
  }

  /** Version of the US jurisdiction data in the last load. */
  get jurisdictionVersion(): number {
    return this.jurisdiction?.version ?? -1;
  }

  async load(): Promise<LoadedConfig> {
    const db = this.db;
    const rateLoad = await this.rates.refresh();
    const [
      carriers,
      trunks,
      hosts,
      routingRows,
      rateTables,
      plans,
      planRows,
      staticRoutes,
      items,
      itemTrunks,
      dynamicRoutes,
      poolRows,
      profiles,
      blocks,
      system,
      failover,
      jurisdiction,
      extras,
      did,
    ] = await Promise.all([
      db
        .selectFrom('carriers')
        .select([
          'client_id',
          'name',
          'is_active',
          'registration_status',
          'mode',
          'unlimited_credit',
          'call_limit',
          'cps_limit',
        ])
        .select(sql<string>`balance::text`.as('balance'))
        .select(sql<string>`credit_limit::text`.as('credit_limit'))
        .select(sql<string>`(allowed_credit + test_credit)::text`.as('allowed_credit'))
        .select(sql<string | null>`min_profitability::text`.as('min_profitability'))
        .execute(),
      db
        .selectFrom('trunks')
        .select([
          'trunk_id',
          'carrier_id',
          'name',
          'direction',
          'is_active',
          'tech_prefix',
          'rate_table_id',
          'routing_plan_id',
          'bill_by',
          'call_limit',
          'cps_limit',
          'digit_rules',
          'failover_rules',
          'timeouts',
          'trunk_type2',
        ])
        .select(sql<string | null>`min_profitability::text`.as('min_profitability'))
        .execute(),
      db
        .selectFrom('trunk_hosts')
        .select(['trunk_id', 'host', 'port', 'netmask'])
        .orderBy('trunk_id')
        .orderBy('ordering')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('trunk_routing_rows as r')
        .leftJoin('products as p', 'p.id', 'r.product_id')
        .select(['r.trunk_id', 'r.tech_prefix'])
        .select(sql<number | null>`coalesce(r.rate_table_id, p.rate_table_id)`.as('rate_table_id'))
        .select(sql<number | null>`coalesce(r.routing_plan_id, p.routing_plan_id)`.as('routing_plan_id'))
        .orderBy('r.id')
        .execute(),
      db
        .selectFrom('rate_tables')
        .select(['rate_table_id', 'name', 'rate_type', 'decimal_places', 'require_local_rate', 'currency'])
        .execute(),
      db.selectFrom('routing_plans').select(['route_plan_id', 'name']).execute(),
      db.selectFrom('routing_plan_rows').selectAll().orderBy('id').execute(),
      db.selectFrom('static_routes').select(['static_route_id', 'name', 'defined_by', 'route_by']).execute(),
      db.selectFrom('static_route_items').selectAll().orderBy('id').execute(),
      db
        .selectFrom('static_route_item_trunks')
        .select(['item_id', 'trunk_id', 'ordering'])
        .select(sql<string | null>`percentage::text`.as('percentage'))
        .orderBy('item_id')
        .orderBy('ordering')
        .execute(),
      db
        .selectFrom('dynamic_routes')
        .select(['dynamic_route_id', 'name', 'rule', 'time_profile_id'])
        .execute(),
      db
        .selectFrom('dynamic_route_trunks as d')
        .innerJoin('dynamic_routes as r', 'r.dynamic_route_id', 'd.dynamic_route_id')
        // the figures over this route's QoS cycle (qos.ts)
        .leftJoin('trunk_qos as q', (j) =>
          j.onRef('q.trunk_id', '=', 'd.trunk_id').onRef('q.cycle_minutes', '=', 'r.qos_cycle_minutes'),
        )
        .select(['d.dynamic_route_id', 'd.trunk_id', 'd.priority', 'd.call_limit', 'd.cps_limit'])
        .select(sql<string | null>`coalesce(d.override_asr, q.asr)::text`.as('asr'))
        .select(sql<string | null>`coalesce(d.override_acd, q.acd)::text`.as('acd'))
        .orderBy('d.dynamic_route_id')
        .orderBy(sql`d.priority nulls last`)
        .orderBy('d.trunk_id')
        .execute(),
      db.selectFrom('time_profiles').selectAll().execute(),
      db
        .selectFrom('block_list as b')
        .leftJoin('trunks as t', (j) =>
          j.onRef('t.carrier_id', '=', 'b.carrier_id').on('b.trunk_id', 'is', null),
        )
        .select(['b.id', 'b.field', 'b.match', 'b.number', 'b.carrier_id'])
        .select(sql<number | null>`coalesce(b.trunk_id, t.trunk_id)`.as('trunk_id'))
        .execute(),
      readSystemRouting(this.settings, db),
      readDefaultFailover(this.settings, db),
      this.loadJurisdiction(),
      loadRoutingExtras(db),
      loadDidConfig(db),
    ]);

    const rateTableIds = new Set(rateTables.map((t) => t.rate_table_id));
    this.rates.retain(rateTableIds);

    const hostsOf = group(hosts, (h) => h.trunk_id);
    const rowsOf = group(routingRows, (r) => r.trunk_id);
    const trunkConfigs = trunks.map((t): TrunkConfig => {
      const digitRules = (t.digit_rules ?? {}) as { replacements?: unknown; manipulations?: unknown };
      const own: IngressRoutingRowConfig = {
        tech_prefix: t.tech_prefix,
        rate_table_id: t.rate_table_id,
        routing_plan_id: t.routing_plan_id,
      };
      const products = (rowsOf.get(t.trunk_id) ?? []).map((r): IngressRoutingRowConfig => ({
        tech_prefix: r.tech_prefix,
        rate_table_id: nullable(r.rate_table_id),
        routing_plan_id: nullable(r.routing_plan_id),
      }));
      // The trunk's own rate table and plan stay a product under its tech prefix unless a routing row replaces it.
      if (
        products.length &&
        (own.rate_table_id !== null || own.routing_plan_id !== null) &&
        !products.some((p) => p.tech_prefix === own.tech_prefix)
      )
        products.push(own);
      return {
        trunk_id: t.trunk_id,
        carrier_id: t.carrier_id,
        name: t.name,
        direction: t.direction,
        is_active: t.is_active,
        hosts: (hostsOf.get(t.trunk_id) ?? []).map((h): TrunkHostConfig => ({
          ip: h.host,
          port: h.port,
          netmask: h.netmask,
        })),
        tech_prefix: t.tech_prefix,
        rate_table_id: t.rate_table_id,
        routing_plan_id: t.routing_plan_id,
        routing_rows: products.length ? products : null,
        bill_by: t.bill_by,
        min_profitability: t.min_profitability,
        call_limit: t.call_limit,
        cps_limit: t.cps_limit,
        digit_replacements: Array.isArray(digitRules.replacements)
          ? (digitRules.replacements as DigitReplacementRule[])
          : [],
        digit_manipulations: Array.isArray(digitRules.manipulations)
          ? (digitRules.manipulations as DigitManipulationRule[])
          : [],
        failover_rules: Array.isArray(t.failover_rules) ? (t.failover_rules as FailoverRuleConfig[]) : [],
        digit_map_id: extras.trunk_maps.get(t.trunk_id) ?? null,
        // The stored timeout settings tab (contract trunkTimeouts); the snapshot build checks the timers it reads.
        timeouts: (t.timeouts ?? null) as TrunkTimeoutsConfig | null,
        did: t.trunk_type2 === 'did',
      };
    });

    const carrierConfigs = carriers.map((c): CarrierConfig => ({
      carrier_id: c.client_id,
      name: c.name,
      is_active: c.is_active && c.registration_status === 'approved',
      mode: c.mode,
      balance: c.balance,
      credit_limit: c.credit_limit,
      allowed_credit: c.allowed_credit,
      unlimited_credit: c.unlimited_credit,
      min_profitability_percent: c.min_profitability,
      call_limit: c.call_limit,
      cps_limit: c.cps_limit,
    }));

    const tableConfigs = rateTables.map((t): RateTableConfig => ({
      rate_table_id: t.rate_table_id,
      name: t.name,
      type: t.rate_type,
      decimal_places: t.decimal_places,
      require_local_rate: t.require_local_rate,
      currency: t.currency,
      rows: [],
      columns: this.rates.columnsOf(t.rate_table_id),
    }));

    const planRowsOf = group(planRows, (r) => r.route_plan_id);
    const planConfigs = plans.map((p): RoutingPlanConfig => ({
      routing_plan_id: p.route_plan_id,
      name: p.name,
      rows: (planRowsOf.get(p.route_plan_id) ?? []).map((r) => ({
        prefix: r.prefix,
        ani_prefix: r.ani_prefix,
        dnis_min_length: r.dnis_min_length,
        dnis_max_length: r.dnis_max_length,
        ani_min_length: r.ani_min_length,
        ani_max_length: r.ani_max_length,
        route_type: r.route_type,
        route_id: (r.route_type === 'static' ? r.static_route_id : r.dynamic_route_id) ?? 0,
        time_profile_id: r.time_profile_id,
      })),
    }));

    const staticConfigs = await this.staticRoutes(staticRoutes, items, itemTrunks);

    const poolOf = group(poolRows, (r) => r.dynamic_route_id);
    const dynamicConfigs = dynamicRoutes.map((d): DynamicRouteConfig => ({
      dynamic_route_id: d.dynamic_route_id,
      name: d.name,
      rule: d.rule,
      time_profile_id: d.time_profile_id,
      trunks: (poolOf.get(d.dynamic_route_id) ?? []).map((t) => ({
        trunk_id: t.trunk_id,
        priority: t.priority,
        call_limit: t.call_limit,
        cps_limit: t.cps_limit,
        qos: t.asr === null && t.acd === null ? null : { asr: Number(t.asr ?? 0), acd: Number(t.acd ?? 0) },
      })),
    }));

    const profileConfigs = profiles.map((p): TimeProfileConfig => ({
      time_profile_id: p.time_profile_id,
      name: p.name,
      type: p.type,
      start_time: p.start_time,
      end_time: p.end_time,
      start_weekday: p.start_week_day,
      end_weekday: p.end_week_day,
    }));

    // A carrier's entry applies to each of its trunks; one whose carrier has no trunk applies to nothing (never globally).
    const blockConfigs = blocks
      .filter((b) => !(b.trunk_id === null && b.carrier_id !== null))
      .map((b): BlockListEntry => ({
        block_id: b.id,
        trunk_id: b.trunk_id,
        [`${b.field}_${b.match}`]: b.number,
      }));

    const config: EngineConfig = {
      carriers: carrierConfigs,
      trunks: trunkConfigs,
      rate_tables: tableConfigs,
      routing_plans: planConfigs,
      static_routes: staticConfigs,
      dynamic_routes: dynamicConfigs,
      time_profiles: profileConfigs,
      block_list: blockConfigs,
      digit_maps: extras.digit_maps,
      media_ip_blocks: extras.media_ip_blocks,
      ocn_blocks: extras.ocn_blocks,
      jurisdiction: jurisdiction,
      did,
      settings: {
        default_ij_rule: system.default_us_ij_rule,
        utc_offset_minutes: zoneOffsetMinutes(system.timezone),
        default_failover_rules: failover,
        default_ring_timeout_s: system.default_ring_timeout_s,
        max_call_duration_s: system.max_call_duration_s,
      },
    };
    return {
      config,
      rates: rateLoad,
      counts: {
        carriers: carrierConfigs.length,
        trunks: trunkConfigs.length,
        rate_tables: tableConfigs.length,
        rates: this.rates.rowCount,
        routing_plans: planConfigs.length,
        static_routes: staticConfigs.length,
        dynamic_routes: dynamicConfigs.length,
        block_list: blockConfigs.length,
        jurisdiction: jurisdiction.size,
        digital_maps: extras.digit_maps.length,
        media_ip_blocks: extras.media_ip_blocks.length,
        ocn_blocks: extras.ocn_blocks.length,
      },
    };
  }

  /**
   * Static routes as the domain sees them: an item defined by code name or country stands for every
   * code with that name or country in the default code deck (or, without one, in the rate tables).
   */
  private async staticRoutes(
    routes: {
      static_route_id: number;
      name: string;
      defined_by: 'code' | 'code_name' | 'country';
      route_by: 'dnis' | 'lrn';
    }[],
    items: {
      id: number;
      static_route_id: number;
      code: string;
      code_name: string;
      country: string;
      strategy: 'top_down' | 'percentage' | 'round_robin';
      time_profile_id: number | null;
    }[],
    itemTrunks: { item_id: number; trunk_id: number; percentage: string | null }[],
  ): Promise<StaticRouteConfig[]> {
    const definedBy = new Map(routes.map((r) => [r.static_route_id, r.defined_by]));
    const names = new Set<string>();
    const countries = new Set<string>();
    for (const i of items) {
      const by = definedBy.get(i.static_route_id);
      if (by === 'code_name' && i.code_name) names.add(i.code_name.toLowerCase());
      if (by === 'country' && i.country) countries.add(i.country.toLowerCase());
    }
    const codesByName = new Map<string, string[]>();
    const codesByCountry = new Map<string, string[]>();
    if (names.size || countries.size) {
      const deck = await this.db
        .selectFrom('code_decks')
        .select('code_deck_id')
        .where('is_default', '=', true)
        .executeTakeFirst();
      const rows = deck
        ? await this.db
            .selectFrom('codes')
            .select(['code', 'code_name', 'country'])
            .where('code_deck_id', '=', deck.code_deck_id)
            .where((eb) =>
              eb.or([
                eb(sql`lower(code_name)`, 'in', [...names, '']),
                eb(sql`lower(country)`, 'in', [...countries, '']),
              ]),
            )
            .execute()
        : await this.db
            .selectFrom('rates')
            .select(['code', 'code_name', 'country'])
            .distinct()
            .where((eb) =>
              eb.or([
                eb(sql`lower(code_name)`, 'in', [...names, '']),
                eb(sql`lower(country)`, 'in', [...countries, '']),
              ]),
            )
            .execute();
      for (const r of rows) {
        if (names.has(r.code_name.toLowerCase())) push(codesByName, r.code_name.toLowerCase(), r.code);
        if (countries.has(r.country.toLowerCase())) push(codesByCountry, r.country.toLowerCase(), r.code);
      }
    }
    const trunksOf = group(itemTrunks, (t) => t.item_id);
    const itemsOf = group(items, (i) => i.static_route_id);
    return routes.map((r) => ({
      static_route_id: r.static_route_id,
      name: r.name,
      route_by: r.route_by,
      items: (itemsOf.get(r.static_route_id) ?? []).flatMap((i): StaticRouteItemConfig[] => {
        const trunks = (trunksOf.get(i.id) ?? []).map((t) => ({
          trunk_id: t.trunk_id,
          percentage: t.percentage === null ? null : Number(t.percentage),
        }));
        const codes =
          r.defined_by === 'code_name'
            ? (codesByName.get(i.code_name.toLowerCase()) ?? [])
            : r.defined_by === 'country'
              ? (codesByCountry.get(i.country.toLowerCase()) ?? [])
              : [i.code];
        return [...new Set(codes)].map((code) => ({
          code,
          strategy: i.strategy,
          time_profile_id: i.time_profile_id,
          trunks,
        }));
      }),
    }));
  }

  /** NPA-NXX data, read again only when its version (bumped by a trigger) changed. */
  private async loadJurisdiction(): Promise<Map<string, NpaNxxInfo>> {
    const v = await this.db
      .selectFrom('config_versions')
      .select('version')
      .where('name', '=', 'us_jurisdiction')
      .executeTakeFirst();
    const version = Number(v?.version ?? 0);
    if (this.jurisdiction?.version === version) return this.jurisdiction.data;
    const data = new Map<string, NpaNxxInfo>();
    let last = '';
    for (;;) {
      const page = await this.db
        .selectFrom('us_jurisdiction')
        .select(['npanxx', 'state', 'lata'])
        .where('npanxx', '>', last)
        .orderBy('npanxx')
        .limit(100_000)
        .execute();
      for (const r of page) data.set(r.npanxx, { state: r.state, lata: r.lata || null });
      await yieldToLoop();
      if (page.length < 100_000) break;
      last = page[page.length - 1]!.npanxx;
    }
    this.jurisdiction = { version, data };
    return data;
  }
}

function group<T, K>(rows: readonly T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
