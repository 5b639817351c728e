/**
 * The routing decision (DESIGN 5, steps 1 to 5): what the switch asks per call, what the
 * engine answers. One function serves the route API of the SIP proxy, the call simulation
 * tool (with `trace: true`) and the routing analysis tool.
 *
 *   0. Refuse a source IP on the inbound media IP block list (call-blocks.ts).
 *   1. Identify the ingress trunk (ingress-match.ts) and strip its tech prefix from the DNIS.
 *   2. Admit: trunk and customer active; balance (prepaid: balance + allowed credit > 0;
 *      postpaid: balance > -credit limit; unlimited credit skips it); call and CPS limits of
 *      trunk and customer (current counters exclude this call: a limit of 10 admits the call
 *      while fewer than 10 are up); ANI/DNIS digit rules, then the trunk's digital map
 *      (digit-map.ts); the STIOCN block list (the call's STIR/SHAKEN OCN or origid); global and
 *      trunk block lists.
 *   3. Price the ingress side: the number (DNIS, or LRN when the trunk bills by LRN and one is
 *      given) in the product's rate table, effective at the call time; US jurisdictional tables
 *      pick the column from the jurisdiction (jurisdiction.ts).
 *   4. Route: the routing plan row of the longest DNIS prefix whose ANI prefix, number lengths
 *      and time profile (and its route's time profile) accept the call; its static item (longest
 *      code, time profile) or dynamic pool gives the egress trunks, each checked: known egress
 *      trunk, active, vendor active, call/CPS limits (trunk, vendor, dynamic pool entry), trunk
 *      block list, a vendor rate effective now (same jurisdiction rules, the vendor trunk's
 *      bill-by number), and the margin: (ingress rate - vendor rate) / ingress rate must reach
 *      the larger of the customer's minimum (ingress trunk's, else its carrier's) and the vendor
 *      trunk's minimum. Survivors are ordered (egress-order.ts), capped by max_routes.
 *   5. Each route carries the numbers to send (egress digital map, egress digit rules, egress
 *      tech prefix in front of the DNIS); failover between them is applyFailover's job (failover.ts).
 *
 * Money in the answer is text: rates at their table's decimal places, the margin per minute
 * (ingress rate - vendor rate) at the larger of the two tables' decimal places.
 */
import { admit, availableCredit } from './admission';
import { affordableSeconds, CREDIT_HORIZON_S, holdFor } from './credit';
import { formatMoney } from './money';
import type { LegTerms } from './rating';
import { applyDigitMap, describeMapping } from './digit-map';
import { rewriteNumber, stripTechPrefix } from './digits';
import { DeckPath } from './code-deck';
import { coversCall, jurisdictionFor, rateRowFor, routeCandidates, toRoute } from './egress-candidates';
import type { EgressContext } from './egress-candidates';
import { screenInbound } from './call-screen';
import { decideDid } from './did-routing';
import { findIngress } from './ingress-match';
import type { IngressMatch } from './ingress-match';
import { rateColumnFor } from './jurisdiction';
import type { Jurisdiction } from './jurisdiction';
import { EGRESS_DROP, REJECT } from './reject-codes';
import type { RejectCode } from './reject-codes';
import type { EgressCandidate } from './egress-order';
import type {
  CallAttempt,
  DecideOptions,
  EgressRoute,
  IngressLeg,
  RoutingDecision,
  RoutingState,
} from './routing-types';
import type { RoutingSnapshot, SnapshotCarrier, SnapshotPlanRow } from './snapshot-types';
import { traceStep } from './trace';
import type { TraceStep } from './trace';

const NO_STATE: RoutingState = {};
/** Scratch for the DNIS walk; decide() is synchronous, so one per thread is enough. */
const DNIS_PATH = new DeckPath();
const NO_TRACE: readonly TraceStep[] = [];

function isDigits(number: string): boolean {
  if (number.length === 0) return false;
  for (let i = 0; i < number.length; i++) {
    const c = number.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** A plan row applies when the ANI prefix, number lengths, its time profile and its dynamic route's time profile accept the call. */
function planRowAccepts(row: SnapshotPlanRow, ctx: EgressContext): boolean {
  const { ani, dnis } = ctx;
  return (
    dnis.length >= row.dnis_min_length &&
    dnis.length <= row.dnis_max_length &&
    ani.length >= row.ani_min_length &&
    ani.length <= row.ani_max_length &&
    ani.startsWith(row.ani_prefix) &&
    coversCall(row.time_profile, ctx) &&
    coversCall(row.dynamic_route?.time_profile ?? null, ctx)
  );
}

function rejected(
  trace: TraceStep[] | null,
  why: RejectCode,
  ingress: IngressLeg | null,
  ani: string,
  dnis: string,
  detail = '',
): RoutingDecision {
  trace?.push(
    traceStep('result', 'fail', `Rejected with ${why.code} (${why.reason})${detail ? `: ${detail}` : ''}.`),
  );
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

function ingressLeg(
  match: IngressMatch,
  rate: string | null,
  code: string | null,
  codeName: string | null,
  jurisdiction: Jurisdiction | null,
): IngressLeg {
  return {
    carrier_id: match.trunk.carrier_id,
    trunk_id: match.trunk.trunk_id,
    tech_prefix: match.product.tech_prefix,
    rate_table_id: match.product.rate_table_id,
    routing_plan_id: match.product.routing_plan_id,
    rate,
    code,
    code_name: codeName,
    jurisdiction,
  };
}

export function decide(
  snapshot: RoutingSnapshot,
  call: CallAttempt,
  state: RoutingState = NO_STATE,
  options?: DecideOptions,
): RoutingDecision {
  const trace: TraceStep[] | null = options?.trace === true ? [] : null;

  // 0. Inbound media IP blocking.
  const ipBlocks = snapshot.media_ip_blocks;
  if (ipBlocks.size > 0) {
    const ipBlock = ipBlocks.find(call.source_ip, call.time);
    if (ipBlock !== undefined) {
      trace?.push(
        traceStep(
          'block_list',
          'fail',
          `Source IP ${call.source_ip} is on the inbound media IP block list (entry${ipBlock.block_id != null ? ` #${ipBlock.block_id}` : ''} ${ipBlock.ip}${ipBlock.netmask != null && ipBlock.netmask !== 32 ? `/${ipBlock.netmask}` : ''}${ipBlock.note ? `: ${ipBlock.note}` : ''}).`,
          { media_ip_block: { ...ipBlock } },
        ),
      );
      return rejected(trace, REJECT.SOURCE_IP_BLOCKED, null, call.ani, call.dnis);
    }
    trace?.push(
      traceStep('block_list', 'ok', `Source IP ${call.source_ip} is not on the inbound media IP block list.`),
    );
  }

  // 1. Ingress trunk.
  const search = findIngress(snapshot, call.source_ip, call.source_port, call.dnis, trace !== null);
  const match = search.match;
  if (match === null) {
    trace?.push(
      traceStep(
        'ingress',
        'fail',
        search.hostOnly.length > 0
          ? `Source ${call.source_ip} matches trunk(s) ${search.hostOnly.map((t) => t.name).join(', ')}, but none of their tech prefixes starts DNIS ${call.dnis}.`
          : `No ingress trunk host matches source ${call.source_ip}${call.source_port != null ? ` port ${call.source_port}` : ''}.`,
        {
          source_ip: call.source_ip,
          source_port: call.source_port ?? null,
          host_only: search.hostOnly.map((t) => t.trunk_id),
        },
      ),
    );
    return rejected(trace, REJECT.NO_INGRESS_TRUNK, null, call.ani, call.dnis);
  }
  const { trunk, product } = match;
  const stripped = stripTechPrefix(call.dnis, product.tech_prefix) ?? call.dnis;
  trace?.push(
    traceStep(
      'ingress',
      'ok',
      `Ingress trunk ${trunk.name} (#${trunk.trunk_id}) matched source ${call.source_ip} by host /${match.netmask}${match.port !== null ? ` port ${match.port}` : ''}${product.tech_prefix ? `; tech prefix ${product.tech_prefix} stripped` : ''}.`,
      {
        trunk_id: trunk.trunk_id,
        carrier_id: trunk.carrier_id,
        netmask: match.netmask,
        port: match.port,
        tech_prefix: product.tech_prefix,
      },
    ),
  );

  // A DID vendor's trunk: the call goes to the client holding the number (did-routing.ts).
  if (trunk.did) return decideDid(snapshot, call, state, match, stripped, trace);

  // 2. Admission.
  const refusal = admit(match, state, trace);
  if (refusal !== null)
    return rejected(trace, refusal, ingressLeg(match, null, null, null, null), call.ani, stripped);
  const carrier = trunk.carrier as SnapshotCarrier; // admit() refuses a missing carrier

  const ruledDnis = rewriteNumber(stripped, trunk.numbers.dnis);
  const ruledAni = rewriteNumber(call.ani, trunk.numbers.ani);
  if (trunk.numbers.dnis !== null || trunk.numbers.ani !== null) {
    trace?.push(
      traceStep(
        'digits',
        'info',
        `Digit rules: ANI ${call.ani} -> ${ruledAni}, DNIS ${stripped} -> ${ruledDnis}.`,
        {
          ani: ruledAni,
          dnis: ruledDnis,
        },
      ),
    );
  }
  const mapped = applyDigitMap(trunk.digit_map, ruledAni, ruledDnis);
  const ani = mapped === null ? ruledAni : mapped.ani.number;
  const dnis = mapped === null ? ruledDnis : mapped.dnis.number;
  if (mapped !== null && trace !== null) {
    trace.push(
      traceStep(
        'digits',
        'info',
        describeMapping(trunk.digit_map!, { ani: ruledAni, dnis: ruledDnis }, mapped),
        {
          digital_map_id: trunk.digit_map!.digital_map_id,
          ani,
          dnis,
          ani_item: mapped.ani.item?.item_id ?? null,
          dnis_item: mapped.dnis.item?.item_id ?? null,
        },
      ),
    );
  }
  if (!isDigits(dnis)) {
    trace?.push(traceStep('digits', 'fail', `DNIS "${dnis}" is not a number.`));
    return rejected(trace, REJECT.INVALID_NUMBER, ingressLeg(match, null, null, null, null), ani, dnis);
  }

  // STIOCN and block lists, fraud and monitoring blocks, loop detection (call-screen.ts).
  const screened = screenInbound(snapshot, call, state, trunk, ani, dnis, trace);
  if (screened !== null)
    return rejected(trace, screened, ingressLeg(match, null, null, null, null), ani, dnis);

  // 3. Ingress price.
  const table = product.rate_table;
  if (table === null) {
    trace?.push(
      traceStep(
        'ingress_rate',
        'fail',
        `Trunk ${trunk.name} has no rate table${product.rate_table_id !== null ? ` (#${product.rate_table_id} unknown)` : ''}.`,
      ),
    );
    return rejected(trace, REJECT.NO_RATE_TABLE, ingressLeg(match, null, null, null, null), ani, dnis);
  }
  const lrn = call.lrn != null && call.lrn !== '' ? call.lrn : null;
  const byLrn = trunk.bill_by === 'lrn' && lrn !== null;
  const ingressNumber = byLrn ? (lrn as string) : dnis;
  const ctx: EgressContext = {
    snapshot,
    call,
    state,
    trace,
    ani,
    dnis,
    lrn,
    ingressRate: 0n,
    ingressNear: 0,
    ingressDecimals: table.decimals,
    customerMinMargin: trunk.min_profitability ?? carrier.min_profitability,
    maxDuration: trunk.max_duration_s,
    jurisdictionOfDnis: undefined,
    jurisdictionOfDnisLocal: undefined,
    jurisdictionOfLrn: undefined,
    jurisdictionOfLrnLocal: undefined,
    dnisPath: snapshot.code_deck.walk(dnis, DNIS_PATH),
    lrnPath: null,
    ceilingFor: null,
    ceiling: null,
  };
  const k = rateRowFor(ctx, table, byLrn);
  if (k < 0) {
    trace?.push(
      traceStep(
        'ingress_rate',
        'fail',
        `No code of rate table ${table.name} effective at the call time prefixes ${ingressNumber}.`,
        {
          rate_table_id: table.rate_table_id,
          number: ingressNumber,
        },
      ),
    );
    return rejected(trace, REJECT.NO_INGRESS_RATE, ingressLeg(match, null, null, null, null), ani, dnis);
  }
  const jurisdiction = jurisdictionFor(snapshot, table, ani, ingressNumber, byLrn, ctx);
  const column = rateColumnFor(table.type, jurisdiction, snapshot.settings.default_ij_rule);
  const rates = snapshot.rates;
  const ingressRate = rates.rateAt(k, column);
  ctx.ingressRate = ingressRate;
  ctx.ingressNear = Number(ingressRate);
  const ingress = ingressLeg(
    match,
    snapshot.format(ingressRate, table.decimals),
    rates.code[k] as string,
    rates.codeName[k] ?? null,
    jurisdiction,
  );
  const row = trace === null ? null : rates.row(k);
  if (row !== null)
    trace?.push(
      traceStep(
        'ingress_rate',
        'ok',
        `Rate table ${table.name}: code ${row.code}${row.code_name ? ` (${row.code_name})` : ''}, ${column} ${ingress.rate}${jurisdiction ? `, jurisdiction ${jurisdiction}` : ''}, billed ${row.min_time}/${row.interval}.`,
        {
          rate_table_id: table.rate_table_id,
          number: ingressNumber,
          code: row.code,
          column,
          rate: ingress.rate,
          jurisdiction,
          min_time: row.min_time,
          interval: row.interval,
          effective_date: row.effective_date,
          end_date: row.end_date,
        },
      ),
    );

  // Live credit: what the customer's available credit buys at this rate caps the call's length.
  let holdTerms: LegTerms | null = null;
  const available = availableCredit(carrier, state);
  if (available !== null) {
    const terms: LegTerms = {
      rate: ingressRate,
      setup_fee: rates.setupFee[k] as bigint,
      min_time: rates.minTime[k] as number,
      interval: rates.interval[k] as number,
      grace_time: rates.grace[k] as number,
      decimals: table.decimals,
    };
    const seconds = affordableSeconds(available, terms);
    if (seconds === 0) {
      trace?.push(
        traceStep(
          'admission',
          'fail',
          `Available credit ${formatMoney(available)} does not pay the first billed step at ${ingress.rate} a minute.`,
          { available: formatMoney(available) },
        ),
      );
      return rejected(trace, REJECT.INSUFFICIENT_BALANCE, ingress, ani, dnis);
    }
    if (seconds !== null) {
      // A call up holds the cost of its longest possible length, so that length is bounded.
      const horizon = ctx.maxDuration ?? CREDIT_HORIZON_S;
      holdTerms = terms;
      ctx.maxDuration = seconds < horizon ? seconds : horizon;
      if (seconds < horizon)
        trace?.push(
          traceStep(
            'admission',
            'info',
            `Available credit ${formatMoney(available)} pays up to ${seconds} s at ${ingress.rate} a minute.`,
            { available: formatMoney(available), seconds },
          ),
        );
    }
  }

  // 4. Routing plan and route.
  const plan = product.routing_plan;
  if (plan === null) {
    trace?.push(
      traceStep(
        'routing_plan',
        'fail',
        `Trunk ${trunk.name} has no routing plan${product.routing_plan_id !== null ? ` (#${product.routing_plan_id} unknown)` : ''}.`,
      ),
    );
    return rejected(trace, REJECT.NO_ROUTING_PLAN, ingress, ani, dnis);
  }
  const planRow = plan.index.lookupWhere(dnis, planRowAccepts, ctx);
  if (planRow === undefined) {
    trace?.push(
      traceStep(
        'routing_plan',
        'fail',
        `No row of routing plan ${plan.name} accepts DNIS ${dnis} from ANI ${ani} at this time.`,
        {
          candidates: plan.index.candidates(dnis).map((r) => ({
            prefix: r.code,
            route_type: r.route_type,
            route_id: r.route_id,
            time_profile_id: r.time_profile_id,
          })),
        },
      ),
    );
    return rejected(trace, REJECT.NO_ROUTING_PREFIX, ingress, ani, dnis);
  }
  trace?.push(
    traceStep(
      'routing_plan',
      'ok',
      `Routing plan ${plan.name}: prefix "${planRow.code}" -> ${planRow.route_type} route #${planRow.route_id}${planRow.time_profile_id !== null ? ` (time profile #${planRow.time_profile_id})` : ''}.`,
      { prefix: planRow.code, route_type: planRow.route_type, route_id: planRow.route_id },
    ),
  );

  const candidates = routeCandidates(ctx, planRow);
  if (candidates === null || candidates.length === 0) {
    return rejected(
      trace,
      REJECT.NO_ROUTE,
      ingress,
      ani,
      dnis,
      candidates === null ? 'the route gives no trunk list' : 'every egress trunk was dropped',
    );
  }

  // 5. Routes to try, in order.
  const max = snapshot.settings.max_routes;
  const count = max !== null && candidates.length > max ? max : candidates.length;
  const routes: EgressRoute[] = [];
  for (let i = 0; i < count; i++) routes.push(toRoute(ctx, candidates[i] as EgressCandidate));
  if (trace !== null) {
    for (const c of candidates.slice(count)) {
      trace.push(
        traceStep('egress', 'info', `Trunk ${c.trunk.name} left out: ${EGRESS_DROP.MAX_ROUTES} (${max}).`, {
          trunk_id: c.trunk.trunk_id,
        }),
      );
    }
    trace.push(
      traceStep(
        'result',
        'ok',
        `Route to ${routes.map((r, i) => `${i + 1}. ${candidates[i]?.trunk.name} at ${r.rate} (margin ${r.profit})`).join('; ')}.`,
        { order: routes.map((r) => r.trunk_id) },
      ),
    );
  }
  let longest = 0;
  if (holdTerms !== null)
    for (const r of routes)
      if (r.max_duration_s !== null && r.max_duration_s > longest) longest = r.max_duration_s;
  return {
    result: 'route',
    reject_code: null,
    reject_reason: null,
    ani,
    dnis,
    ingress,
    routes,
    trace: trace ?? NO_TRACE,
    ...(holdTerms !== null ? { hold: holdFor(longest, holdTerms) } : {}),
  };
}
