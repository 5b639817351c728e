/**
 * Plain, serialisable configuration the routing engine is built from (what the server loads
 * from the database). Money is micro-units (bigint) or a decimal string; instants are epoch
 * milliseconds; percentages are decimal strings ("2.5" = 2.5 %).
 */
import type { DigitManipulationRule, DigitReplacementRule } from './digits';
import type { BlockListEntry } from './block-list';
import type { MediaIpBlockConfig, OcnBlockConfig } from './call-blocks';
import type { DigitMapConfig } from './digit-map';
import type { DefaultIjRule, JurisdictionData, RateTableType } from './jurisdiction';
import type { MoneyInput } from './money';
import type { RateStore } from './rate-store';
import type { TimeProfileConfig } from './time-profile';

export type CarrierMode = 'prepaid' | 'postpaid';
export type TrunkDirection = 'ingress' | 'egress';
/** Which number prices the call and decides its jurisdiction: the dialled number or its LRN. */
export type BillBy = 'dnis' | 'lrn';

export interface CarrierConfig {
  readonly carrier_id: number;
  readonly name: string;
  readonly is_active: boolean;
  readonly mode: CarrierMode;
  /** Current balance; live values may be passed per call in RoutingState.balances. */
  readonly balance: MoneyInput;
  /** Postpaid: how far below zero the balance may go (null = 0). */
  readonly credit_limit?: MoneyInput | null;
  /** Prepaid: extra credit on top of the balance (null = 0). */
  readonly allowed_credit?: MoneyInput | null;
  /** Skips the balance check entirely. */
  readonly unlimited_credit?: boolean;
  /** Minimum margin (percent of the ingress rate) for this customer's calls. */
  readonly min_profitability_percent?: string | null;
  readonly call_limit?: number | null;
  readonly cps_limit?: number | null;
}

export interface TrunkHostConfig {
  /** IPv4 address (netmask applies) or another address compared as text (IPv6, exact only). */
  readonly ip: string;
  /** Null: any source port. */
  readonly port?: number | null;
  /** Prefix length in bits, 0..32; null = 32 (this host only). */
  readonly netmask?: number | null;
}

/** One product on an ingress trunk: calls with this tech prefix use this rate table and plan. */
export interface IngressRoutingRowConfig {
  readonly tech_prefix: string;
  readonly rate_table_id: number | null;
  readonly routing_plan_id: number | null;
}

export type FailoverAction = 'next' | 'return';

export interface FailoverRuleConfig {
  /** SIP response code from the vendor (e.g. 503). */
  readonly sip_code: number;
  readonly action: FailoverAction;
  /** For 'return': the code sent back to the customer (default: the vendor's code). */
  readonly return_code?: number | null;
  readonly return_clause?: string | null;
}

export interface TrunkConfig {
  readonly trunk_id: number;
  readonly carrier_id: number;
  readonly name: string;
  readonly direction: TrunkDirection;
  readonly is_active: boolean;
  readonly hosts: readonly TrunkHostConfig[];
  /** Ingress: stripped from the DNIS; egress: put in front of the DNIS sent to the vendor. */
  readonly tech_prefix?: string | null;
  readonly rate_table_id?: number | null;
  /** Ingress only. */
  readonly routing_plan_id?: number | null;
  /** Ingress only: several products on one trunk, told apart by tech prefix (overrides the three fields above). */
  readonly routing_rows?: readonly IngressRoutingRowConfig[] | null;
  readonly bill_by?: BillBy;
  /** Minimum margin in percent; on an ingress trunk it overrides its carrier's. */
  readonly min_profitability?: string | null;
  readonly call_limit?: number | null;
  readonly cps_limit?: number | null;
  readonly digit_replacements?: readonly DigitReplacementRule[];
  readonly digit_manipulations?: readonly DigitManipulationRule[];
  readonly failover_rules?: readonly FailoverRuleConfig[];
  /** The digital map the trunk uses (digit-map.ts), or null. */
  readonly digit_map_id?: number | null;
  /** The trunk's timeout settings tab (null fields: the system defaults). */
  readonly timeouts?: TrunkTimeoutsConfig | null;
  /** DID traffic (trunk_type2 'did'): ingress = a DID vendor's, egress = a DID client's (did-routing.ts). */
  readonly did?: boolean;
}

/** What the switch applies per call from the trunk's timeout settings (contract trunkTimeouts). */
export interface TrunkTimeoutsConfig {
  /** Seconds an egress call may ring before the next route is tried. */
  readonly ring_timer?: number | null;
  /** Milliseconds without a provisional answer before the next route is tried. */
  readonly pdd_timeout_ms?: number | null;
  /** Longest call in seconds. */
  readonly max_duration?: number | null;
}

export interface RateRowConfig {
  readonly code: string;
  readonly code_name?: string | null;
  readonly country?: string | null;
  readonly rate: MoneyInput;
  readonly intra_rate?: MoneyInput | null;
  readonly inter_rate?: MoneyInput | null;
  readonly ij_rate?: MoneyInput | null;
  readonly local_rate?: MoneyInput | null;
  /** Seconds; defaults 1/1 with no grace and no setup fee. */
  readonly min_time?: number | null;
  readonly interval?: number | null;
  readonly grace_time?: number | null;
  readonly setup_fee?: MoneyInput | null;
  /** Epoch ms, inclusive; null = since always. */
  readonly effective_date?: number | null;
  /** Epoch ms, exclusive; null = open. */
  readonly end_date?: number | null;
}

export interface RateTableConfig {
  readonly rate_table_id: number;
  readonly name?: string;
  readonly type: RateTableType;
  /** Decimal places of rates and charges (0..6). */
  readonly decimal_places: number;
  readonly require_local_rate?: boolean;
  readonly currency?: string;
  readonly rows: readonly RateRowConfig[];
  /**
   * The rows in columns instead (then `rows` is ignored): what the server's rate cache hands
   * over, so a million cached rates are not a million objects. Written with `writeRateRowChecked`,
   * so each row is already parsed and checked; `invalid` names a row that failed those checks
   * (the build refuses the table, as it would the row).
   */
  readonly columns?: RateRowColumns;
}

export interface RateRowColumns {
  /** Rows 0 .. count-1 of the store. */
  readonly store: RateStore;
  readonly count: number;
  readonly invalid: { readonly code: string; readonly field: string; readonly message: string } | null;
}

export type RouteType = 'static' | 'dynamic';

export interface RoutingPlanRowConfig {
  /** DNIS prefix, '' = any. */
  readonly prefix: string;
  /** Optional: the ANI must start with this. */
  readonly ani_prefix?: string | null;
  readonly dnis_min_length?: number | null;
  readonly dnis_max_length?: number | null;
  readonly ani_min_length?: number | null;
  readonly ani_max_length?: number | null;
  readonly route_type: RouteType;
  /** static_route_id or dynamic_route_id. */
  readonly route_id: number;
  readonly time_profile_id?: number | null;
}

export interface RoutingPlanConfig {
  readonly routing_plan_id: number;
  readonly name?: string;
  readonly rows: readonly RoutingPlanRowConfig[];
}

export type StaticStrategy = 'top_down' | 'percentage' | 'round_robin';

export interface StaticRouteTrunkConfig {
  readonly trunk_id: number;
  /** For the percentage strategy; the percentages of an item sum to 100. */
  readonly percentage?: number | null;
}

export interface StaticRouteItemConfig {
  /** Code matched against the number (longest first), '' = any. */
  readonly code: string;
  readonly strategy: StaticStrategy;
  readonly time_profile_id?: number | null;
  readonly trunks: readonly StaticRouteTrunkConfig[];
}

export interface StaticRouteConfig {
  readonly static_route_id: number;
  readonly name?: string;
  /** Number the items' codes are matched against (default DNIS). */
  readonly route_by?: BillBy;
  readonly items: readonly StaticRouteItemConfig[];
}

export type DynamicRule = 'lcr' | 'largest_asr' | 'largest_acd';

export interface QosFigures {
  /** Answer-seizure ratio in percent (0..100) over the QoS cycle. */
  readonly asr: number;
  /** Average call duration in seconds over the QoS cycle. */
  readonly acd: number;
}

export interface DynamicRouteTrunkConfig {
  readonly trunk_id: number;
  /** Tie-break for LCR (lower first). */
  readonly priority?: number | null;
  /** Limits of this trunk within this route (on top of the trunk's own). */
  readonly call_limit?: number | null;
  readonly cps_limit?: number | null;
  /** QoS figures known at build time; live figures in RoutingState.qos win. */
  readonly qos?: QosFigures | null;
}

export interface DynamicRouteConfig {
  readonly dynamic_route_id: number;
  readonly name?: string;
  readonly rule: DynamicRule;
  readonly time_profile_id?: number | null;
  readonly trunks: readonly DynamicRouteTrunkConfig[];
}

export interface SystemSettings {
  /** What an indeterminate-jurisdiction call is charged. */
  readonly default_ij_rule: DefaultIjRule;
  /** System time zone as a UTC offset in minutes (time profiles without their own). */
  readonly utc_offset_minutes?: number;
  /** System default failover rules (used when a trunk has no rule for a code). */
  readonly default_failover_rules?: readonly FailoverRuleConfig[];
  /** At most this many egress routes per decision (null = all). */
  readonly max_routes?: number | null;
  /** Seconds a call may ring when the egress trunk sets no ring timer (null: the switch's own). */
  readonly default_ring_timeout_s?: number | null;
  /** Longest call in seconds when a trunk sets no maximum duration (null: no limit). */
  readonly max_call_duration_s?: number | null;
}

export interface EngineConfig {
  readonly carriers: readonly CarrierConfig[];
  readonly trunks: readonly TrunkConfig[];
  readonly rate_tables: readonly RateTableConfig[];
  readonly routing_plans: readonly RoutingPlanConfig[];
  readonly static_routes?: readonly StaticRouteConfig[];
  readonly dynamic_routes?: readonly DynamicRouteConfig[];
  readonly time_profiles?: readonly TimeProfileConfig[];
  readonly block_list?: readonly BlockListEntry[];
  readonly digit_maps?: readonly DigitMapConfig[];
  /** Inbound media IP blocking (call-blocks.ts). */
  readonly media_ip_blocks?: readonly MediaIpBlockConfig[];
  /** STIOCN block list (call-blocks.ts). */
  readonly ocn_blocks?: readonly OcnBlockConfig[];
  readonly jurisdiction?: JurisdictionData;
  readonly settings: SystemSettings;
  /** DID inventory, its billing rules and the DID carriers' terms (did-routing.ts). */
  readonly did?: DidEngineConfig;
}

/** The DID part of the engine configuration. */
export interface DidEngineConfig {
  readonly rules: readonly DidRuleConfig[];
  readonly numbers: readonly DidConfig[];
  /** Per DID carrier (vendor or client): decimal places of its per-minute charges, round up to whole minutes. */
  readonly carriers: readonly DidCarrierConfig[];
}
export interface DidRuleConfig {
  readonly id: number;
  readonly name: string;
  /** Per-minute price. */
  readonly per_minute: MoneyInput;
}
export type DidState = 'assigned' | 'unassigned' | 'reserved' | 'released';
export interface DidConfig {
  readonly did_id: number;
  readonly number: string;
  readonly vendor_id: number;
  readonly client_id: number | null;
  readonly state: DidState;
  /** Suspended for want of funds (prepaid client): refused until paid or released. */
  readonly suspended?: boolean;
  readonly vendor_rule_id: number | null;
  readonly client_rule_id: number | null;
}
export interface DidCarrierConfig {
  readonly carrier_id: number;
  readonly decimals: number;
  readonly round_up: boolean;
}
