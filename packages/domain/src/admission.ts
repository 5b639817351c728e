/**
 * Step 2 of the call path, admission: the ingress trunk and its customer active, credit, call
 * and CPS limits. The limit checks serve the egress side (vendors) too.
 *
 * Credit: unlimited credit always passes; prepaid passes while balance + allowed credit > 0;
 * postpaid while balance > -credit limit (a postpaid customer with limit 100 may owe up to,
 * not including, 100).
 *
 * Limits: the counters are the calls up now and the calls set up in the current second, this
 * call excluded; a limit of N admits the call while the counter is below N. A null limit is
 * no limit; a limit of 0 admits nothing.
 */
import type { IngressMatch } from './ingress-match';
import { formatMoney, toMicros } from './money';
import type { Micros } from './money';
import { REJECT } from './reject-codes';
import type { RejectCode } from './reject-codes';
import type { RoutingState } from './routing-types';
import type { SnapshotCarrier } from './snapshot-types';
import { traceStep } from './trace';
import type { TraceStep } from './trace';

/** The carrier's balance: the live one from the state when given, else the snapshot's. */
export function liveBalance(carrier: SnapshotCarrier, state: RoutingState): Micros {
  const live = state.balances?.get(carrier.carrier_id);
  if (live === undefined) return carrier.balance;
  return typeof live === 'bigint' ? live : toMicros(live);
}

/** What the carrier's calls up hold against its credit now (0 when none). */
export function heldCredit(carrier: SnapshotCarrier, state: RoutingState): Micros {
  return state.held?.get(carrier.carrier_id) ?? 0n;
}

/** Credit still available for a new call: balance - held - floor; null for unlimited credit. */
export function availableCredit(carrier: SnapshotCarrier, state: RoutingState): Micros | null {
  if (carrier.unlimited_credit) return null;
  return liveBalance(carrier, state) - heldCredit(carrier, state) - carrier.credit_floor;
}

export function creditAllows(carrier: SnapshotCarrier, balance: Micros): boolean {
  if (carrier.unlimited_credit) return true;
  // prepaid: balance + allowed credit > 0; postpaid: balance > -credit limit. Both read balance > floor.
  return balance > carrier.credit_floor;
}

export type LimitHit = 'trunk_call_limit' | 'trunk_cps_limit' | 'carrier_call_limit' | 'carrier_cps_limit';

function under(limit: number | null, counters: ReadonlyMap<number, number> | undefined, id: number): boolean {
  return limit === null || (counters?.get(id) ?? 0) < limit;
}

/** The first limit reached by the trunk or its carrier, or null when the call fits. */
export function limitReached(
  state: RoutingState,
  trunkId: number,
  trunkLimits: { readonly call_limit: number | null; readonly cps_limit: number | null },
  carrier: SnapshotCarrier,
): LimitHit | null {
  if (!under(trunkLimits.call_limit, state.trunk_calls, trunkId)) return 'trunk_call_limit';
  if (!under(trunkLimits.cps_limit, state.trunk_cps, trunkId)) return 'trunk_cps_limit';
  if (!under(carrier.call_limit, state.carrier_calls, carrier.carrier_id)) return 'carrier_call_limit';
  if (!under(carrier.cps_limit, state.carrier_cps, carrier.carrier_id)) return 'carrier_cps_limit';
  return null;
}

/** Counters and limits for the trace. */
export function limitFigures(
  state: RoutingState,
  trunkId: number,
  trunkLimits: { readonly call_limit: number | null; readonly cps_limit: number | null },
  carrier: SnapshotCarrier,
): Record<string, number | null> {
  return {
    trunk_calls: state.trunk_calls?.get(trunkId) ?? 0,
    trunk_call_limit: trunkLimits.call_limit,
    trunk_cps: state.trunk_cps?.get(trunkId) ?? 0,
    trunk_cps_limit: trunkLimits.cps_limit,
    carrier_calls: state.carrier_calls?.get(carrier.carrier_id) ?? 0,
    carrier_call_limit: carrier.call_limit,
    carrier_cps: state.carrier_cps?.get(carrier.carrier_id) ?? 0,
    carrier_cps_limit: carrier.cps_limit,
  };
}

const LIMIT_REJECT: Readonly<Record<LimitHit, RejectCode>> = {
  trunk_call_limit: REJECT.TRUNK_CALL_LIMIT,
  trunk_cps_limit: REJECT.TRUNK_CPS_LIMIT,
  carrier_call_limit: REJECT.CUSTOMER_CALL_LIMIT,
  carrier_cps_limit: REJECT.CUSTOMER_CPS_LIMIT,
};

/** Step 2 up to the digit rules: active, credit, limits. Returns the refusal, or null. */
export function admit(
  match: IngressMatch,
  state: RoutingState,
  trace: TraceStep[] | null,
): RejectCode | null {
  const trunk = match.trunk;
  const carrier = trunk.carrier;
  if (!trunk.is_active) {
    trace?.push(traceStep('admission', 'fail', `Ingress trunk ${trunk.name} is inactive.`));
    return REJECT.INGRESS_TRUNK_INACTIVE;
  }
  if (carrier === null || !carrier.is_active) {
    trace?.push(
      traceStep(
        'admission',
        'fail',
        `Customer ${carrier?.name ?? `#${trunk.carrier_id}`} is ${carrier ? 'inactive' : 'unknown'}.`,
      ),
    );
    return REJECT.CUSTOMER_INACTIVE;
  }
  trace?.push(traceStep('admission', 'ok', `Trunk ${trunk.name} and customer ${carrier.name} are active.`));

  const balance = liveBalance(carrier, state) - heldCredit(carrier, state);
  if (!creditAllows(carrier, balance)) {
    trace?.push(
      traceStep(
        'admission',
        'fail',
        (state.held?.get(carrier.carrier_id)
          ? `Calls up hold ${formatMoney(heldCredit(carrier, state))}. `
          : '') +
          (carrier.prepaid
            ? `Prepaid balance ${formatMoney(balance)} + allowed credit ${formatMoney(carrier.credit)} is not above 0.`
            : `Postpaid balance ${formatMoney(balance)} is not above the credit limit -${formatMoney(carrier.credit)}.`),
        { balance: formatMoney(balance), credit: formatMoney(carrier.credit) },
      ),
    );
    return REJECT.INSUFFICIENT_BALANCE;
  }
  trace?.push(
    traceStep(
      'admission',
      'ok',
      carrier.unlimited_credit
        ? `Customer ${carrier.name} has unlimited credit.`
        : `Balance ${formatMoney(balance)} allows the call (${carrier.prepaid ? 'prepaid, allowed credit' : 'postpaid, credit limit'} ${formatMoney(carrier.credit)}).`,
    ),
  );

  const hit = limitReached(state, trunk.trunk_id, trunk, carrier);
  if (hit !== null) {
    trace?.push(
      traceStep(
        'admission',
        'fail',
        `Limit reached: ${hit}.`,
        limitFigures(state, trunk.trunk_id, trunk, carrier),
      ),
    );
    return LIMIT_REJECT[hit];
  }
  trace?.push(
    traceStep(
      'admission',
      'ok',
      'Call and CPS limits of trunk and customer allow the call.',
      limitFigures(state, trunk.trunk_id, trunk, carrier),
    ),
  );
  return null;
}
