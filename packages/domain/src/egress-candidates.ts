/**
 * Step 4 of the call path, egress side: from the routing-plan row to the ordered list of egress
 * trunks, each checked and priced (see routing.ts for the list of checks, egress-order.ts for
 * the orders). Every kept or dropped trunk leaves a trace step when tracing.
 *
 * This is the hot loop of the engine (one pass per trunk of the route, per call): it allocates
 * no closures and does one bigint comparison for the margin (the cost ceiling is computed once
 * per call and per distinct minimum).
 */
import { limitReached } from './admission';
import { applyDigitMap, describeMapping } from './digit-map';
import { rewriteNumber } from './digits';
import { drawByPercentage, orderDynamic } from './egress-order';
import type { EgressCandidate } from './egress-order';
import { rateColumnFor } from './jurisdiction';
import type { Jurisdiction, RateColumn } from './jurisdiction';
import { formatMicros, formatMoneyDifference, isExactMicros, marginPercent, maximumCost } from './money';
import type { Micros } from './money';
import { EGRESS_DROP } from './reject-codes';
import type { EgressDropReason } from './reject-codes';
import type { CallAttempt, EgressRoute, RoutingState } from './routing-types';
import { DeckPath } from './code-deck';
import type {
  RoutingSnapshot,
  SnapshotPlanRow,
  SnapshotRateTable,
  RouteTrunk,
  SnapshotStaticItem,
} from './snapshot-types';
import { timeProfileCovers } from './time-profile';
import type { CompiledTimeProfile } from './time-profile';
import { traceStep } from './trace';
import type { TraceStep } from './trace';
import type { QosFigures } from './config';

/** Per-decision facts shared by the egress checks (with the jurisdiction memo, so one object per call). */
export interface EgressContext extends JurisdictionMemo {
  readonly snapshot: RoutingSnapshot;
  readonly call: CallAttempt;
  readonly state: RoutingState;
  readonly trace: TraceStep[] | null;
  /** Numbers as routed. */
  readonly ani: string;
  readonly dnis: string;
  readonly lrn: string | null;
  /** Set once the ingress side is priced; `ingressNear` is Number(ingressRate). */
  ingressRate: Micros;
  ingressNear: number;
  readonly ingressDecimals: number;
  /** The customer's minimum margin in micro-percent (ingress trunk's, else its carrier's). */
  readonly customerMinMargin: Micros | null;
  /** The ingress trunk's maximum call duration in seconds (the system's when it sets none), or null. */
  /** Ingress trunk's maximum duration, lowered by what the customer's credit buys. */
  maxDuration: number | null;
  /** The DNIS walked through the code deck; the LRN's walk, made when first needed. */
  readonly dnisPath: DeckPath;
  lrnPath: DeckPath | null;
  /** Memo of the last cost ceiling: for which minimum, and the ceiling (null = nothing passes). */
  ceilingFor: Micros | null;
  ceiling: Micros | null;
}

/** Whether a time profile (null = always) covers the call, in the system offset unless it has its own. */
export function coversCall(
  profile: CompiledTimeProfile | null,
  ctx: { readonly snapshot: RoutingSnapshot; readonly call: CallAttempt },
): boolean {
  return (
    profile === null || timeProfileCovers(profile, ctx.call.time, ctx.snapshot.settings.utc_offset_minutes)
  );
}

function itemCovers(item: SnapshotStaticItem, ctx: EgressContext): boolean {
  return coversCall(item.time_profile, ctx);
}

/** Jurisdiction memo by number and local-rate flag (undefined = not worked out yet). */
export interface JurisdictionMemo {
  jurisdictionOfDnis: Jurisdiction | undefined;
  jurisdictionOfDnisLocal: Jurisdiction | undefined;
  jurisdictionOfLrn: Jurisdiction | undefined;
  jurisdictionOfLrnLocal: Jurisdiction | undefined;
}

/** Jurisdiction of a call for a rate table (null when the table is not US jurisdictional), memoised per decision. */
export function jurisdictionFor(
  snapshot: RoutingSnapshot,
  table: SnapshotRateTable,
  ani: string,
  number: string,
  byLrn: boolean,
  memo: JurisdictionMemo,
): Jurisdiction | null {
  if (table.type !== 'us_jurisdictional') return null;
  const local = table.require_local_rate;
  const known = byLrn
    ? local
      ? memo.jurisdictionOfLrnLocal
      : memo.jurisdictionOfLrn
    : local
      ? memo.jurisdictionOfDnisLocal
      : memo.jurisdictionOfDnis;
  if (known !== undefined) return known;
  const jurisdiction = snapshot.jurisdiction.classify(ani, number, local);
  if (byLrn) {
    if (local) memo.jurisdictionOfLrnLocal = jurisdiction;
    else memo.jurisdictionOfLrn = jurisdiction;
  } else if (local) memo.jurisdictionOfDnisLocal = jurisdiction;
  else memo.jurisdictionOfDnis = jurisdiction;
  return jurisdiction;
}

const NO_QOS: QosFigures = { asr: 0, acd: 0 };

/**
 * Candidates live only inside one decide() call (they become EgressRoute objects before it
 * returns), and JavaScript runs one decide() at a time per thread: so the candidate objects
 * are reused from call to call instead of allocated ten at a time.
 */
type PooledCandidate = { -readonly [K in keyof EgressCandidate]: EgressCandidate[K] };
const POOL: PooledCandidate[] = [];
let pooled = 0;
const BLANK: PooledCandidate = {
  trunk: null as unknown as EgressCandidate['trunk'],
  table: null as unknown as EgressCandidate['table'],
  k: -1,
  rate: 0n,
  column: 'rate',
  jurisdiction: null,
  percentage: 0,
  priority: 0,
  asr: 0,
  acd: 0,
};
const LRN_PATH = new DeckPath();

/** The row (code deck row number, -1 for none) of `table` for the call's DNIS (or LRN), effective at the call time. */
export function rateRowFor(ctx: EgressContext, table: SnapshotRateTable, byLrn: boolean): number {
  const deck = ctx.snapshot.code_deck;
  let path = ctx.dnisPath;
  if (byLrn) {
    path = ctx.lrnPath ??= deck.walk(ctx.lrn as string, LRN_PATH);
  }
  return deck.find(table.slot, path, ctx.call.time);
}

/**
 * The checked, ordered egress candidates of a plan row; null when the row's route is unknown
 * or has no item for the number at this time. The candidate objects are reused by the next
 * call: use them before calling again.
 */
export function routeCandidates(ctx: EgressContext, planRow: SnapshotPlanRow): EgressCandidate[] | null {
  const { state, trace } = ctx;
  // A new list each call: resetting a shared one (length = 0) costs a runtime call, more than a small array.
  const kept: EgressCandidate[] = [];
  pooled = 0;

  if (planRow.route_type === 'static') {
    const route = planRow.static_route;
    if (route === null) {
      trace?.push(traceStep('route', 'fail', `Static route #${planRow.route_id} does not exist.`));
      return null;
    }
    const number = route.route_by === 'lrn' && ctx.lrn !== null ? ctx.lrn : ctx.dnis;
    const item = route.index.lookupWhere(number, itemCovers, ctx);
    if (item === undefined) {
      trace?.push(
        traceStep('route', 'fail', `Static route ${route.name} has no item for ${number} at this time.`),
      );
      return null;
    }
    const list = item.trunks;
    let start = 0;
    if (item.strategy === 'round_robin' && list.length > 0) {
      const cursor = state.round_robin?.get(item.cursor_key) ?? 0;
      start = cursor % list.length;
      state.round_robin?.set(item.cursor_key, cursor + 1);
    }
    trace?.push(
      traceStep(
        'route',
        'info',
        `Static route ${route.name}: code "${item.code}", ${item.strategy}, ${list.length} trunk(s)${item.strategy === 'round_robin' ? `, starting at position ${start + 1}` : ''}.`,
        {
          static_route_id: route.static_route_id,
          code: item.code,
          strategy: item.strategy,
          trunks: list.map((t) => t.trunk_id),
        },
      ),
    );
    for (let i = 0; i < list.length; i++) {
      const position = (start + i) % list.length;
      const entry = list[position]!;
      if (entry.repeated && listedBefore(list, position, start)) {
        dropped(ctx, entry.trunk_id, EGRESS_DROP.DUPLICATE, '');
        continue;
      }
      const candidate = checkEgress(ctx, entry, NO_QOS);
      if (candidate !== null) kept.push(candidate);
    }
    return item.strategy === 'percentage' ? drawByPercentage(kept, state.random ?? Math.random) : kept;
  }

  const route = planRow.dynamic_route;
  if (route === null) {
    trace?.push(traceStep('route', 'fail', `Dynamic route #${planRow.route_id} does not exist.`));
    return null;
  }
  trace?.push(
    traceStep(
      'route',
      'info',
      `Dynamic route ${route.name}: ${route.rule}, pool of ${route.trunks.length} trunk(s).`,
      {
        dynamic_route_id: route.dynamic_route_id,
        rule: route.rule,
        trunks: route.trunks.map((t) => t.trunk_id),
      },
    ),
  );
  const pool = route.trunks;
  for (let i = 0; i < pool.length; i++) {
    const entry = pool[i]!;
    if (entry.repeated && listedBefore(pool, i, 0)) {
      dropped(ctx, entry.trunk_id, EGRESS_DROP.DUPLICATE, '');
      continue;
    }
    const qos = state.qos?.get(entry.trunk_id) ?? entry.qos ?? NO_QOS;
    const candidate = checkEgress(ctx, entry, qos);
    if (candidate !== null) kept.push(candidate);
  }
  return orderDynamic(route.rule, kept);
}

/** Whether the trunk at `position` was already visited in this pass (which began at `start`). */
function listedBefore(
  list: readonly { readonly trunk_id: number }[],
  position: number,
  start: number,
): boolean {
  const id = list[position]!.trunk_id;
  for (let p = start; p !== position; p = (p + 1) % list.length) {
    if (list[p]!.trunk_id === id) return true;
  }
  return false;
}

function dropped(ctx: EgressContext, trunkId: number, reason: EgressDropReason, detail: string): null {
  ctx.trace?.push(
    traceStep(
      'egress',
      'fail',
      `Trunk ${ctx.snapshot.trunks.get(trunkId)?.name ?? `#${trunkId}`} dropped: ${reason}${detail ? ` (${detail})` : ''}.`,
      { trunk_id: trunkId, reason },
    ),
  );
  return null;
}

/** The cost ceiling for a minimum margin, memoised on the context for the last minimum asked. */
function ceilingFor(ctx: EgressContext, minimum: Micros): Micros | null {
  if (ctx.ceilingFor !== minimum) {
    ctx.ceilingFor = minimum;
    ctx.ceiling = maximumCost(ctx.ingressRate, minimum);
  }
  return ctx.ceiling;
}

function checkEgress(ctx: EgressContext, entry: RouteTrunk, qos: QosFigures): EgressCandidate | null {
  const { snapshot, state, trace } = ctx;
  const trunkId = entry.trunk_id;
  const trunk = entry.trunk;
  const routeCallLimit = entry.call_limit;
  const routeCpsLimit = entry.cps_limit;
  if (trunk === null) return dropped(ctx, trunkId, EGRESS_DROP.UNKNOWN_TRUNK, '');
  if (trunk.direction !== 'egress') return dropped(ctx, trunkId, EGRESS_DROP.NOT_EGRESS, '');
  if (!trunk.is_active) return dropped(ctx, trunkId, EGRESS_DROP.TRUNK_INACTIVE, '');
  const vendor = trunk.carrier;
  if (vendor === null || !vendor.is_active) return dropped(ctx, trunkId, EGRESS_DROP.VENDOR_INACTIVE, '');

  const hit = limitReached(state, trunkId, trunk, vendor);
  if (hit !== null) {
    const reason =
      hit === 'carrier_call_limit'
        ? EGRESS_DROP.VENDOR_CALL_LIMIT
        : hit === 'carrier_cps_limit'
          ? EGRESS_DROP.VENDOR_CPS_LIMIT
          : hit;
    return dropped(ctx, trunkId, reason, '');
  }
  if (routeCallLimit !== null && (state.trunk_calls?.get(trunkId) ?? 0) >= routeCallLimit) {
    return dropped(ctx, trunkId, EGRESS_DROP.ROUTE_CALL_LIMIT, `limit ${routeCallLimit}`);
  }
  if (routeCpsLimit !== null && (state.trunk_cps?.get(trunkId) ?? 0) >= routeCpsLimit) {
    return dropped(ctx, trunkId, EGRESS_DROP.ROUTE_CPS_LIMIT, `limit ${routeCpsLimit}`);
  }
  const blocked = trunk.has_block_list
    ? snapshot.block_list.findForTrunk(trunkId, ctx.ani, ctx.dnis)
    : undefined;
  if (blocked !== undefined) {
    return dropped(
      ctx,
      trunkId,
      EGRESS_DROP.BLOCKED,
      blocked.block_id != null ? `entry #${blocked.block_id}` : '',
    );
  }

  const held = state.monitor?.egress(trunkId, ctx.dnis, ctx.call.time) ?? null;
  if (held !== null) {
    return dropped(
      ctx,
      trunkId,
      EGRESS_DROP.MONITOR_BLOCKED,
      `rule ${held.rule_name}${held.block_id !== null ? `, block #${held.block_id}` : ''}`,
    );
  }

  const table = trunk.rate_table;
  if (table === null) return dropped(ctx, trunkId, EGRESS_DROP.NO_RATE_TABLE, '');
  const byLrn = trunk.bill_by === 'lrn' && ctx.lrn !== null;
  const number = byLrn ? (ctx.lrn as string) : ctx.dnis;
  const k = rateRowFor(ctx, table, byLrn);
  if (k < 0) return dropped(ctx, trunkId, EGRESS_DROP.NO_RATE, `rate table ${table.name}, number ${number}`);
  const jurisdiction = jurisdictionFor(snapshot, table, ctx.ani, number, byLrn, ctx);
  const column = rateColumnFor(table.type, jurisdiction, snapshot.settings.default_ij_rule);
  const rate = snapshot.rates.rateAt(k, column);

  const vendorMin = trunk.min_profitability;
  const customerMin = ctx.customerMinMargin;
  const required =
    vendorMin === null
      ? customerMin
      : customerMin === null || vendorMin > customerMin
        ? vendorMin
        : customerMin;
  if (required !== null) {
    const ceiling = ceilingFor(ctx, required);
    if (ceiling === null || rate > ceiling) {
      return dropped(
        ctx,
        trunkId,
        EGRESS_DROP.UNPROFITABLE,
        trace === null
          ? ''
          : `vendor rate ${snapshot.format(rate, table.decimals)}, margin ${marginPercent(ctx.ingressRate, rate) ?? 'n/a'} % < ${snapshot.format(required, 6)} %`,
      );
    }
  }
  if (trace !== null) traceKept(ctx, trunk.name, trunkId, table, k, column, rate, jurisdiction, qos);
  const candidate = POOL[pooled] ?? (POOL[pooled] = { ...BLANK });
  pooled++;
  candidate.trunk = trunk;
  candidate.table = table;
  candidate.k = k;
  candidate.rate = rate;
  candidate.column = column;
  candidate.jurisdiction = jurisdiction;
  candidate.percentage = entry.percentage;
  candidate.priority = entry.priority;
  candidate.asr = qos.asr;
  candidate.acd = qos.acd;
  return candidate;
}

function traceKept(
  ctx: EgressContext,
  name: string,
  trunkId: number,
  table: SnapshotRateTable,
  k: number,
  column: RateColumn,
  rate: Micros,
  jurisdiction: Jurisdiction | null,
  qos: QosFigures,
): void {
  const { snapshot } = ctx;
  const row = snapshot.rates.row(k);
  ctx.trace?.push(
    traceStep(
      'egress',
      'ok',
      `Trunk ${name} kept: code ${row.code}${row.code_name ? ` (${row.code_name})` : ''}, ${column} ${snapshot.format(rate, table.decimals)}, margin ${marginPercent(ctx.ingressRate, rate) ?? 'n/a'} %${qos.asr || qos.acd ? `, ASR ${qos.asr} %, ACD ${qos.acd} s` : ''}.`,
      {
        trunk_id: trunkId,
        rate_table_id: table.rate_table_id,
        code: row.code,
        column,
        rate: snapshot.format(rate, table.decimals),
        jurisdiction,
        margin_percent: marginPercent(ctx.ingressRate, rate),
        asr: qos.asr,
        acd: qos.acd,
      },
    ),
  );
}

/** The answer's view of a candidate: numbers to send and money as text. */
export function toRoute(ctx: EgressContext, c: EgressCandidate): EgressRoute {
  const { trunk, table, k } = c;
  const { format, rates } = ctx.snapshot;
  // Each rate converted to a number once (the ingress rate once per call): Number() of a bigint is a runtime call.
  const near = Number(c.rate);
  const exact = isExactMicros(near) && isExactMicros(ctx.ingressNear);
  const marginDecimals = table.decimals > ctx.ingressDecimals ? table.decimals : ctx.ingressDecimals;
  let ani = ctx.ani;
  let dnis = ctx.dnis;
  const mapped = applyDigitMap(trunk.digit_map, ani, dnis);
  if (mapped !== null) {
    ctx.trace?.push(
      traceStep(
        'egress',
        'info',
        `Trunk ${trunk.name}: ${describeMapping(trunk.digit_map!, { ani, dnis }, mapped)}`,
        {
          trunk_id: trunk.trunk_id,
          digital_map_id: trunk.digit_map!.digital_map_id,
          ani: mapped.ani.number,
          dnis: mapped.dnis.number,
        },
      ),
    );
    ani = mapped.ani.number;
    dnis = mapped.dnis.number;
  }
  return {
    trunk_id: trunk.trunk_id,
    carrier_id: trunk.carrier_id,
    hosts: trunk.hosts,
    dnis: trunk.tech_prefix + rewriteNumber(dnis, trunk.numbers.dnis),
    ani: rewriteNumber(ani, trunk.numbers.ani),
    rate_table_id: table.rate_table_id,
    rate: exact ? formatMicros(near, table.decimals) : format(c.rate, table.decimals),
    code: rates.code[k] as string,
    code_name: rates.codeName[k] ?? null,
    profit: exact
      ? formatMicros(ctx.ingressNear - near, marginDecimals)
      : formatMoneyDifference(ctx.ingressRate, c.rate, marginDecimals),
    ring_timeout_s: trunk.ring_timeout_s,
    pdd_timeout_ms: trunk.pdd_timeout_ms,
    max_duration_s: lower(ctx.maxDuration, trunk.max_duration_s),
    failover: trunk.failover,
  };
}

/** The lower of two limits, null meaning none. */
function lower(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null || a < b ? a : b;
}
