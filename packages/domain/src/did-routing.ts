/**
 * Inbound (DID) calls in the routing decision: a call whose ingress trunk is a DID vendor's
 * (trunk_type2 'did', matched by source IP and tech prefix as any ingress trunk) goes to the DID
 * client that holds the dialled number, over that client's DID trunks. `decide` hands such a call
 * here right after step 1, so the route API, the call simulation and the CDR rating share it.
 *
 *   1. Vendor trunk and vendor active; the vendor trunk's call and CPS limits (trunk_call_limit,
 *      trunk_cps_limit: it is the ingress trunk) and the vendor's own (did_vendor_call_limit,
 *      did_vendor_cps_limit). Then the screening every inbound call passes (call-screen.ts): the
 *      STIOCN, global and trunk block lists, fraud and monitoring blocks, loop detection.
 *   2. The number (tech prefix stripped, the trunk's digit rules applied) must be a DID of this
 *      vendor: else did_not_found. Its state must be assigned (unassigned, reserved, released are
 *      refused, each with its own reason) and not suspended for want of funds.
 *   3. The client: active, its credit (as a termination customer's: the client pays the per-minute
 *      price of its billing rule), its call and CPS limits (the channels it pays for:
 *      did_client_call_limit, did_client_cps_limit).
 *   4. Routes: the client's active DID trunks, in trunk id order (top-down failover), each with its
 *      own limits, block list and monitoring blocks (as an egress trunk's); the number sent is the
 *      DID with the client trunk's tech prefix in front.
 *
 * Prices: the ingress leg shows the vendor's per-minute price (what the DID costs us), each route
 * the client's (what it pays) and the margin between them.
 */
import {
  availableCredit,
  creditAllows,
  liveBalance,
  heldCredit,
  limitReached,
  type LimitHit,
} from './admission';
import { screenInbound } from './call-screen';
import { affordableSeconds, CREDIT_HORIZON_S, holdFor } from './credit';
import { rewriteNumber } from './digits';
import type { IngressMatch } from './ingress-match';
import { formatMoney, type Micros } from './money';
import type { LegTerms } from './rating';
import { REJECT, type RejectCode } from './reject-codes';
import type { CallAttempt, EgressRoute, IngressLeg, RoutingDecision, RoutingState } from './routing-types';
import type { RoutingSnapshot, SnapshotDid, SnapshotTrunk } from './snapshot-types';
import { traceStep, type TraceStep } from './trace';

const NO_TRACE: readonly TraceStep[] = [];

/** Billing terms of a DID carrier's per-minute price: per second, or whole minutes when it rounds up. */
export function didTerms(snapshot: RoutingSnapshot, carrierId: number, perMinute: Micros): LegTerms {
  const t = snapshot.dids.terms.get(carrierId);
  const round = t?.round_up === true;
  return {
    rate: perMinute,
    setup_fee: 0n,
    min_time: round ? 60 : 1,
    interval: round ? 60 : 1,
    grace_time: 0,
    decimals: t?.decimals ?? 6,
  };
}

/** Why a DID in this state refuses calls. */
export function didStateRefusal(did: SnapshotDid): RejectCode | null {
  if (did.state === 'unassigned') return REJECT.DID_UNASSIGNED;
  if (did.state === 'reserved') return REJECT.DID_RESERVED;
  if (did.state === 'released') return REJECT.DID_RELEASED;
  if (did.client_id === null) return REJECT.DID_UNASSIGNED;
  if (did.suspended) return REJECT.DID_SUSPENDED;
  return null;
}

/** The DID of a vendor's call: the number the vendor sent, its tech prefix stripped and digit rules applied. */
export function didOfCall(
  snapshot: RoutingSnapshot,
  trunk: SnapshotTrunk,
  stripped: string,
): SnapshotDid | null {
  return didOfNumber(snapshot, trunk, rewriteNumber(stripped, trunk.numbers.dnis));
}

/** The vendor's DID of a number already through the trunk's digit rules (null: not its DID). */
export function didOfNumber(
  snapshot: RoutingSnapshot,
  trunk: SnapshotTrunk,
  number: string,
): SnapshotDid | null {
  const did = snapshot.dids.numbers.get(number);
  return did !== undefined && did.vendor_id === trunk.carrier_id ? did : null;
}

/** A DID vendor's or client's limit as the reason a call is refused (the trunk's own are trunk_*). */
function limitRefusal(hit: LimitHit, side: 'vendor' | 'client'): RejectCode {
  if (hit === 'trunk_call_limit') return REJECT.TRUNK_CALL_LIMIT;
  if (hit === 'trunk_cps_limit') return REJECT.TRUNK_CPS_LIMIT;
  if (side === 'vendor')
    return hit === 'carrier_call_limit' ? REJECT.DID_VENDOR_CALL_LIMIT : REJECT.DID_VENDOR_CPS_LIMIT;
  return hit === 'carrier_call_limit' ? REJECT.DID_CLIENT_CALL_LIMIT : REJECT.DID_CLIENT_CPS_LIMIT;
}

/** Only the carrier's own call and CPS limits (no trunk). */
const NO_TRUNK_LIMITS = { call_limit: null, cps_limit: null } as const;

function reject(
  trace: TraceStep[] | null,
  why: RejectCode,
  ingress: IngressLeg | null,
  ani: string,
  dnis: string,
  detail: string,
): RoutingDecision {
  trace?.push(traceStep('result', 'fail', `Rejected with ${why.code} (${why.reason}): ${detail}`));
  return {
    result: 'reject',
    reject_code: why.code,
    reject_reason: why.reason,
    ani,
    dnis,
    ingress,
    routes: [],
    trace: trace ?? NO_TRACE,
  };
}

export function decideDid(
  snapshot: RoutingSnapshot,
  call: CallAttempt,
  state: RoutingState,
  match: IngressMatch,
  stripped: string,
  trace: TraceStep[] | null,
): RoutingDecision {
  const trunk = match.trunk;
  const vendor = trunk.carrier;
  const ani = rewriteNumber(call.ani, trunk.numbers.ani);
  const number = rewriteNumber(stripped, trunk.numbers.dnis);
  const leg = (did: SnapshotDid | null): IngressLeg => ({
    carrier_id: trunk.carrier_id,
    trunk_id: trunk.trunk_id,
    tech_prefix: match.product.tech_prefix,
    rate_table_id: null,
    routing_plan_id: null,
    rate:
      did?.vendor_rule == null
        ? null
        : snapshot.format(did.vendor_rule.per_minute, didTerms(snapshot, trunk.carrier_id, 0n).decimals),
    code: did === null ? null : did.number,
    code_name: did === null ? null : 'DID',
    jurisdiction: null,
  });

  // 1. Vendor side.
  if (!trunk.is_active)
    return reject(
      trace,
      REJECT.INGRESS_TRUNK_INACTIVE,
      leg(null),
      ani,
      number,
      `DID vendor trunk ${trunk.name} is inactive.`,
    );
  if (vendor === null || !vendor.is_active)
    return reject(
      trace,
      REJECT.CUSTOMER_INACTIVE,
      leg(null),
      ani,
      number,
      `DID vendor #${trunk.carrier_id} is inactive or unknown.`,
    );
  const vendorLimit = limitReached(state, trunk.trunk_id, trunk, vendor);
  if (vendorLimit !== null)
    return reject(
      trace,
      limitRefusal(vendorLimit, 'vendor'),
      leg(null),
      ani,
      number,
      `DID vendor ${vendor.name}: ${vendorLimit === 'trunk_call_limit' || vendorLimit === 'trunk_cps_limit' ? `its trunk ${trunk.name}'s` : 'its'} ${vendorLimit.endsWith('cps_limit') ? 'CPS' : 'call'} limit is reached.`,
    );
  trace?.push(
    traceStep('admission', 'ok', `DID vendor ${vendor.name} and its trunk ${trunk.name} are active.`),
  );
  const screened = screenInbound(snapshot, call, state, trunk, ani, number, trace);
  if (screened !== null) return reject(trace, screened, leg(null), ani, number, 'the call is blocked.');

  // 2. The number.
  const did = didOfNumber(snapshot, trunk, number);
  if (did === null)
    return reject(
      trace,
      REJECT.DID_NOT_FOUND,
      leg(null),
      ani,
      number,
      `${number} is not a DID of vendor ${vendor.name}.`,
    );
  const refusal = didStateRefusal(did);
  if (refusal !== null)
    return reject(
      trace,
      refusal,
      leg(did),
      ani,
      number,
      `DID ${number} is ${did.suspended && did.state === 'assigned' ? 'suspended (unpaid charges)' : did.state}.`,
    );
  const client = snapshot.carriers.get(did.client_id as number) ?? null;
  trace?.push(
    traceStep(
      'ingress_rate',
      'ok',
      `DID ${number} (#${did.did_id}) is assigned to ${client?.name ?? `#${did.client_id}`}.`,
      {
        did_id: did.did_id,
        client_id: did.client_id,
        vendor_rule: did.vendor_rule?.name ?? null,
        client_rule: did.client_rule?.name ?? null,
      },
    ),
  );

  // 3. The client.
  if (client === null || !client.is_active)
    return reject(
      trace,
      REJECT.DID_CLIENT_INACTIVE,
      leg(did),
      ani,
      number,
      `DID client #${did.client_id} is inactive or unknown.`,
    );
  const balance = liveBalance(client, state) - heldCredit(client, state);
  if (!creditAllows(client, balance))
    return reject(
      trace,
      REJECT.INSUFFICIENT_BALANCE,
      leg(did),
      ani,
      number,
      `DID client ${client.name}: balance ${formatMoney(balance)} leaves no credit.`,
    );
  const clientRate = did.client_rule?.per_minute ?? 0n;
  const clientTerms = didTerms(snapshot, client.carrier_id, clientRate);
  let maxDuration = trunk.max_duration_s;
  let holdTerms: LegTerms | null = null;
  const available = availableCredit(client, state);
  if (available !== null) {
    const seconds = affordableSeconds(available, clientTerms);
    if (seconds === 0)
      return reject(
        trace,
        REJECT.INSUFFICIENT_BALANCE,
        leg(did),
        ani,
        number,
        `DID client ${client.name}: available credit ${formatMoney(available)} does not pay the first billed step.`,
      );
    if (seconds !== null) {
      const horizon = maxDuration ?? CREDIT_HORIZON_S;
      maxDuration = seconds < horizon ? seconds : horizon;
      holdTerms = clientTerms;
    }
  }

  const clientLimit = limitReached(state, -1, NO_TRUNK_LIMITS, client);
  if (clientLimit !== null)
    return reject(
      trace,
      limitRefusal(clientLimit, 'client'),
      leg(did),
      ani,
      number,
      `DID client ${client.name}: its ${clientLimit === 'carrier_cps_limit' ? 'CPS' : 'call (channel)'} limit is reached.`,
    );

  // 4. Routes: the client's DID trunks.
  const trunks = snapshot.dids.client_trunks.get(client.carrier_id) ?? [];
  const routes: EgressRoute[] = [];
  const vendorRate = did.vendor_rule?.per_minute ?? 0n;
  const decimals = Math.max(clientTerms.decimals, didTerms(snapshot, vendor.carrier_id, 0n).decimals);
  for (const t of trunks) {
    if (!t.is_active) {
      trace?.push(
        traceStep('egress', 'info', `Client trunk ${t.name} left out: inactive.`, { trunk_id: t.trunk_id }),
      );
      continue;
    }
    const hit = limitReached(state, t.trunk_id, t, client);
    if (hit !== null) {
      trace?.push(
        traceStep('egress', 'info', `Client trunk ${t.name} left out: ${hit}.`, { trunk_id: t.trunk_id }),
      );
      continue;
    }
    const listed = t.has_block_list ? snapshot.block_list.findForTrunk(t.trunk_id, ani, number) : undefined;
    if (listed !== undefined) {
      trace?.push(
        traceStep(
          'egress',
          'info',
          `Client trunk ${t.name} left out: blocked${listed.block_id != null ? ` by entry #${listed.block_id}` : ''}.`,
          { trunk_id: t.trunk_id },
        ),
      );
      continue;
    }
    const held = state.monitor?.egress(t.trunk_id, number, call.time) ?? null;
    if (held !== null) {
      trace?.push(
        traceStep('egress', 'info', `Client trunk ${t.name} left out: blocked by rule ${held.rule_name}.`, {
          trunk_id: t.trunk_id,
        }),
      );
      continue;
    }
    const own = t.max_duration_s;
    const max = own === null ? maxDuration : maxDuration === null ? own : Math.min(own, maxDuration);
    routes.push({
      trunk_id: t.trunk_id,
      carrier_id: t.carrier_id,
      hosts: t.hosts,
      dnis: t.tech_prefix + rewriteNumber(number, t.numbers.dnis),
      ani: rewriteNumber(ani, t.numbers.ani),
      rate_table_id: 0,
      rate: snapshot.format(clientRate, clientTerms.decimals),
      code: number,
      code_name: 'DID',
      profit: snapshot.format(clientRate - vendorRate, decimals),
      ring_timeout_s: t.ring_timeout_s,
      pdd_timeout_ms: t.pdd_timeout_ms,
      max_duration_s: max,
      failover: t.failover,
    });
  }
  if (routes.length === 0)
    return reject(
      trace,
      REJECT.NO_ROUTE,
      leg(did),
      ani,
      number,
      trunks.length === 0 ? `DID client ${client.name} has no DID trunk.` : 'every client trunk was dropped',
    );
  trace?.push(
    traceStep(
      'result',
      'ok',
      `Route DID ${number} to ${client.name}: ${routes.map((r, i) => `${i + 1}. trunk #${r.trunk_id}`).join('; ')} at ${routes[0]!.rate} a minute (vendor ${formatMoney(vendorRate)}, margin ${routes[0]!.profit}).`,
      { order: routes.map((r) => r.trunk_id), did_id: did.did_id },
    ),
  );
  let longest = 0;
  for (const r of routes)
    if (r.max_duration_s !== null && r.max_duration_s > longest) longest = r.max_duration_s;
  return {
    result: 'route',
    reject_code: null,
    reject_reason: null,
    ani,
    dnis: number,
    ingress: leg(did),
    routes,
    trace: trace ?? NO_TRACE,
    ...(holdTerms !== null ? { hold: holdFor(longest, holdTerms), hold_carrier_id: client.carrier_id } : {}),
  };
}
