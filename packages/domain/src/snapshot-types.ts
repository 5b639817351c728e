/**
 * The routing snapshot's shape: the whole routing and rating configuration compiled into lookup
 * structures (tries, maps, rate columns, parsed money, compiled time profiles), immutable,
 * rebuilt by the server when configuration changes (snapshot.ts builds it). `decide` reads it
 * per call without parsing anything.
 */
import type { BlockList } from './block-list';
import type { MediaIpBlockList, OcnBlockList } from './call-blocks';
import type { CompiledDigitMap } from './digit-map';
import type { CodeDeck } from './code-deck';
import type { FailoverTable } from './failover';
import type { TrunkNumberRules } from './digits';
import type { DefaultIjRule, JurisdictionIndex, RateTableType } from './jurisdiction';
import type { Micros } from './money';
import type { HostIndex } from './network';
import type { PrefixIndex, PrefixRow } from './prefix-index';
import type { RateRow, RateStore } from './rate-store';
import type { CompiledTimeProfile } from './time-profile';
import type {
  BillBy,
  DynamicRule,
  FailoverRuleConfig,
  QosFigures,
  RouteType,
  StaticStrategy,
  TrunkDirection,
  TrunkHostConfig,
} from './config';

export class SnapshotError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'SnapshotError';
  }
}

export interface SnapshotCarrier {
  readonly carrier_id: number;
  readonly name: string;
  readonly is_active: boolean;
  readonly prepaid: boolean;
  readonly balance: Micros;
  /** Prepaid: allowed credit; postpaid: credit limit. */
  readonly credit: Micros;
  /** The balance must stay above this: -credit (prepaid: balance + credit > 0; postpaid: balance > -limit). */
  readonly credit_floor: Micros;
  readonly unlimited_credit: boolean;
  /** Minimum margin in micro-percent, or null. */
  readonly min_profitability: Micros | null;
  readonly call_limit: number | null;
  readonly cps_limit: number | null;
}

export interface SnapshotRateTable {
  readonly rate_table_id: number;
  readonly name: string;
  readonly type: RateTableType;
  readonly decimals: number;
  readonly require_local_rate: boolean;
  /** Slot of this table in the snapshot's code deck. */
  readonly slot: number;
  readonly row_count: number;
  /** One-off lookup (tools, tests); decide() walks the code deck once per call instead. */
  lookup(number: string, atMs: number): RateRow | undefined;
}

export interface IngressProduct {
  readonly tech_prefix: string;
  readonly rate_table_id: number | null;
  readonly rate_table: SnapshotRateTable | null;
  readonly routing_plan_id: number | null;
  readonly routing_plan: SnapshotRoutingPlan | null;
}

export interface SnapshotTrunk {
  readonly trunk_id: number;
  readonly carrier_id: number;
  readonly carrier: SnapshotCarrier | null;
  readonly name: string;
  readonly direction: TrunkDirection;
  readonly is_active: boolean;
  readonly hosts: readonly TrunkHostConfig[];
  readonly tech_prefix: string;
  /** Ingress: the products told apart by tech prefix, longest prefix first. */
  readonly products: readonly IngressProduct[];
  /** Egress: the vendor rate table. */
  readonly rate_table_id: number | null;
  readonly rate_table: SnapshotRateTable | null;
  readonly bill_by: BillBy;
  readonly min_profitability: Micros | null;
  readonly call_limit: number | null;
  readonly cps_limit: number | null;
  readonly numbers: TrunkNumberRules;
  readonly failover_rules: readonly FailoverRuleConfig[];
  /** Its effective failover rules (its own over the system defaults over the built-in rule). */
  readonly failover: FailoverTable;
  /** The block list has entries for this trunk. */
  readonly has_block_list: boolean;
  /** The trunk's digital map, or null. */
  readonly digit_map: CompiledDigitMap | null;
  /** Timers for the switch: the trunk's own, else the system defaults (null: none set anywhere). */
  readonly ring_timeout_s: number | null;
  readonly pdd_timeout_ms: number | null;
  readonly max_duration_s: number | null;
  /** DID traffic trunk (trunk_type2 'did'). */
  readonly did: boolean;
}

export interface SnapshotDidRule {
  readonly id: number;
  readonly name: string;
  readonly per_minute: Micros;
}
export interface SnapshotDid {
  readonly did_id: number;
  readonly number: string;
  readonly vendor_id: number;
  readonly client_id: number | null;
  readonly state: 'assigned' | 'unassigned' | 'reserved' | 'released';
  readonly suspended: boolean;
  readonly vendor_rule: SnapshotDidRule | null;
  readonly client_rule: SnapshotDidRule | null;
}
/** The DID inventory as routing and rating read it. */
export interface SnapshotDids {
  readonly numbers: ReadonlyMap<string, SnapshotDid>;
  /** Decimal places and whole-minute rounding of each DID carrier's per-minute charges. */
  readonly terms: ReadonlyMap<number, { readonly decimals: number; readonly round_up: boolean }>;
  /** The DID client's egress DID trunks, by carrier, in trunk id order. */
  readonly client_trunks: ReadonlyMap<number, readonly SnapshotTrunk[]>;
}

export interface SnapshotPlanRow extends PrefixRow {
  readonly code: string;
  readonly ani_prefix: string;
  readonly dnis_min_length: number;
  readonly dnis_max_length: number;
  readonly ani_min_length: number;
  readonly ani_max_length: number;
  readonly route_type: RouteType;
  readonly route_id: number;
  readonly time_profile_id: number | null;
  readonly time_profile: CompiledTimeProfile | null;
  readonly static_route: SnapshotStaticRoute | null;
  readonly dynamic_route: SnapshotDynamicRoute | null;
}

export interface SnapshotRoutingPlan {
  readonly routing_plan_id: number;
  readonly name: string;
  readonly index: PrefixIndex<SnapshotPlanRow>;
}

/** A trunk listed in a static item or a dynamic pool, resolved to the snapshot's trunk. */
export interface RouteTrunk {
  readonly trunk_id: number;
  /** Null when the id names no trunk (the call's trace says so). */
  readonly trunk: SnapshotTrunk | null;
  /** Static percentage strategy weight (0 when not set). */
  readonly percentage: number;
  /** Dynamic LCR tie-break, lower first (MAX_SAFE_INTEGER when not set). */
  readonly priority: number;
  /** Limits of this trunk within the dynamic route. */
  readonly call_limit: number | null;
  readonly cps_limit: number | null;
  readonly qos: QosFigures | null;
  /** The same trunk is listed elsewhere in this list too (the decision then skips the later listing). */
  readonly repeated: boolean;
}

export interface SnapshotStaticItem extends PrefixRow {
  readonly code: string;
  readonly strategy: StaticStrategy;
  readonly time_profile_id: number | null;
  readonly time_profile: CompiledTimeProfile | null;
  readonly trunks: readonly RouteTrunk[];
  /** Key of this item's round-robin cursor in RoutingState.round_robin. */
  readonly cursor_key: string;
}

export interface SnapshotStaticRoute {
  readonly static_route_id: number;
  readonly name: string;
  readonly route_by: BillBy;
  readonly index: PrefixIndex<SnapshotStaticItem>;
}

export interface SnapshotDynamicRoute {
  readonly dynamic_route_id: number;
  readonly name: string;
  readonly rule: DynamicRule;
  readonly time_profile_id: number | null;
  readonly time_profile: CompiledTimeProfile | null;
  readonly trunks: readonly RouteTrunk[];
}

export interface SnapshotSettings {
  readonly default_ij_rule: DefaultIjRule;
  readonly utc_offset_minutes: number;
  readonly default_failover_rules: readonly FailoverRuleConfig[];
  readonly max_routes: number | null;
}

export interface RoutingSnapshot {
  readonly carriers: ReadonlyMap<number, SnapshotCarrier>;
  readonly trunks: ReadonlyMap<number, SnapshotTrunk>;
  readonly rate_tables: ReadonlyMap<number, SnapshotRateTable>;
  /** Every code of every rate table in one trie (code-deck.ts). */
  readonly code_deck: CodeDeck;
  /** The rows of every rate table, by code deck row number. */
  readonly rates: RateStore;
  readonly routing_plans: ReadonlyMap<number, SnapshotRoutingPlan>;
  readonly static_routes: ReadonlyMap<number, SnapshotStaticRoute>;
  readonly dynamic_routes: ReadonlyMap<number, SnapshotDynamicRoute>;
  readonly time_profiles: ReadonlyMap<number, CompiledTimeProfile>;
  readonly ingress_hosts: HostIndex<SnapshotTrunk>;
  readonly block_list: BlockList;
  readonly digit_maps: ReadonlyMap<number, CompiledDigitMap>;
  readonly media_ip_blocks: MediaIpBlockList;
  readonly ocn_blocks: OcnBlockList;
  readonly jurisdiction: JurisdictionIndex;
  readonly settings: SnapshotSettings;
  readonly dids: SnapshotDids;
  /** Formats money at 0..6 places (formatMoney). */
  readonly format: (amount: Micros, decimals: number) => string;
  /** Dangling references found while building. */
  readonly warnings: readonly string[];
}
