/**
 * What the switch sends per call, the live state the decision reads, and the decision itself.
 */
import type { QosFigures, TrunkHostConfig } from './config';
import type { FailoverTable } from './failover';
import type { Jurisdiction } from './jurisdiction';
import type { MoneyInput } from './money';
import type { MonitorGuard } from './monitoring';
import type { TraceStep } from './trace';

export interface CallAttempt {
  readonly source_ip: string;
  readonly source_port?: number | null;
  readonly ani: string;
  readonly dnis: string;
  /** Location routing number from an LRN dip, when the switch did one. */
  readonly lrn?: string | null;
  /** Call start, epoch ms. */
  readonly time: number;
  /** STIR/SHAKEN: OCN of the certificate that signed the call (4 characters), when verified. */
  readonly ocn?: string | null;
  /** STIR/SHAKEN: the PASSporT's origination identifier. */
  readonly origid?: string | null;
  /** STIR/SHAKEN attestation level (A, B or C), shown in the trace. */
  readonly attestation?: string | null;
}

/** Live figures the decision depends on; all optional (missing counters count as 0). */
export interface RoutingState {
  /** Calls up now, by trunk id (this call excluded). */
  readonly trunk_calls?: ReadonlyMap<number, number>;
  /** Calls set up in the current second, by trunk id. */
  readonly trunk_cps?: ReadonlyMap<number, number>;
  readonly carrier_calls?: ReadonlyMap<number, number>;
  readonly carrier_cps?: ReadonlyMap<number, number>;
  /** Live balances by carrier id (override the snapshot's). */
  readonly balances?: ReadonlyMap<number, MoneyInput>;
  /** Credit held by the calls up, by customer carrier id (credit.ts); subtracted from the balance. */
  readonly held?: ReadonlyMap<number, bigint>;
  /** QoS over the cycle by egress trunk id (override the dynamic route's figures). */
  readonly qos?: ReadonlyMap<number, QosFigures>;
  /** Round-robin cursors by static item; advanced by every decision that uses the item. */
  readonly round_robin?: Map<string, number>;
  /** Uniform random numbers in [0, 1) for the percentage strategy (inject a seeded one in tests). */
  readonly random?: () => number;
  /** Fraud and monitoring blocks and loop detection (monitoring.ts), read per call. */
  readonly monitor?: MonitorGuard;
}

export interface DecideOptions {
  /** Build the step-by-step trace (call simulation); off on the switch's hot path. */
  readonly trace?: boolean;
}

export interface IngressLeg {
  readonly carrier_id: number;
  readonly trunk_id: number;
  readonly tech_prefix: string;
  readonly rate_table_id: number | null;
  readonly routing_plan_id: number | null;
  /** Per-minute rate charged to the customer, at the table's decimal places. */
  readonly rate: string | null;
  readonly code: string | null;
  readonly code_name: string | null;
  readonly jurisdiction: Jurisdiction | null;
}

export interface EgressRoute {
  readonly trunk_id: number;
  readonly carrier_id: number;
  readonly hosts: readonly TrunkHostConfig[];
  /** Numbers to send to the vendor (egress digit rules applied, egress tech prefix in front). */
  readonly dnis: string;
  readonly ani: string;
  readonly rate_table_id: number;
  /** Vendor per-minute rate, at the vendor table's decimal places. */
  readonly rate: string;
  readonly code: string;
  readonly code_name: string | null;
  /** Ingress rate - vendor rate, per minute. */
  readonly profit: string;
  /** Seconds to ring this vendor before the next route (its trunk's ring timer, else the system default). */
  readonly ring_timeout_s: number | null;
  /** Milliseconds without a provisional answer before the next route (the vendor trunk's PDD timeout). */
  readonly pdd_timeout_ms: number | null;
  /**
   * Longest call in seconds over this route: the lower of the ingress and the vendor trunk's
   * maximum duration, each the system's maximum call duration when the trunk sets none.
   */
  readonly max_duration_s: number | null;
  /** What the switch does when this route's vendor answers a failure (the trunk's failover table). */
  readonly failover: FailoverTable;
}

export interface RoutingDecision {
  readonly result: 'route' | 'reject';
  readonly reject_code: number | null;
  readonly reject_reason: string | null;
  /** The numbers as routed (after the ingress tech prefix and digit rules). */
  readonly ani: string;
  readonly dnis: string;
  readonly ingress: IngressLeg | null;
  readonly routes: readonly EgressRoute[];
  /** Empty unless `trace: true`. */
  readonly trace: readonly TraceStep[];
  /**
   * Limited-credit customers: what this call holds against the customer's credit while it is up
   * (the ingress cost of the longest route's maximum duration), in micro-units. Absent otherwise.
   */
  readonly hold?: bigint;
  /** Whose credit the hold is on when not the ingress carrier's (a DID call: the DID client). */
  readonly hold_carrier_id?: number;
}

/** A fresh mutable state, handy for tests and simulations. */
export function createRoutingState(
  random?: () => number,
): RoutingState & { readonly round_robin: Map<string, number> } {
  return random ? { round_robin: new Map(), random } : { round_robin: new Map() };
}
