/**
 * Rating a CDR leg with the snapshot (DESIGN 5.6): the same code deck, rate columns and
 * jurisdiction rules as the routing decision, so a call is billed at the rate it was routed at.
 *
 * The number is the DNIS or the LRN, as the trunk bills; the rate row is the one effective at
 * the call start; the billed duration and cost follow rating.ts.
 */
import { DeckPath } from './code-deck';
import { rateColumnFor } from './jurisdiction';
import type { Jurisdiction, RateColumn } from './jurisdiction';
import type { Micros } from './money';
import { rateLeg } from './rating';
import type { LegTerms, RatedLeg } from './rating';
import type { IngressProduct, RoutingSnapshot, SnapshotTrunk } from './snapshot-types';
import { applyDigitMap } from './digit-map';
import { rewriteNumber, stripTechPrefix } from './digits';
import { didOfCall, didTerms } from './did-routing';

export interface PricedNumber {
  readonly rate_table_id: number;
  readonly code: string;
  readonly code_name: string | null;
  readonly country: string | null;
  readonly column: RateColumn;
  readonly jurisdiction: Jurisdiction | null;
  /** Per-minute rate, billing increments, setup fee and decimals of the row. */
  readonly terms: LegTerms;
}

/** Scratch for the number's deck walk; rating is synchronous, so one per thread is enough. */
const PRICE_PATH = new DeckPath();

/** The rate of `number` (from `ani`) in a rate table at `atMs`, or null when no row applies. */
export function priceNumber(
  snapshot: RoutingSnapshot,
  rateTableId: number,
  ani: string,
  number: string,
  atMs: number,
): PricedNumber | null {
  const table = snapshot.rate_tables.get(rateTableId);
  if (table === undefined) return null;
  const deck = snapshot.code_deck;
  const k = deck.find(table.slot, deck.walk(number, PRICE_PATH), atMs);
  if (k < 0) return null;
  const rates = snapshot.rates;
  const jurisdiction =
    table.type === 'us_jurisdictional'
      ? snapshot.jurisdiction.classify(ani, number, table.require_local_rate)
      : null;
  const column = rateColumnFor(table.type, jurisdiction, snapshot.settings.default_ij_rule);
  const rate: Micros = rates.rateAt(k, column);
  return {
    rate_table_id: rateTableId,
    code: rates.code[k] as string,
    code_name: rates.codeName[k] ?? null,
    country: rates.country[k] ?? null,
    column,
    jurisdiction,
    terms: {
      rate,
      setup_fee: rates.setupFee[k] as bigint,
      min_time: rates.minTime[k] as number,
      interval: rates.interval[k] as number,
      grace_time: rates.grace[k] as number,
      decimals: table.decimals,
    },
  };
}

export interface RatedCdrLeg extends RatedLeg {
  readonly priced: PricedNumber;
}

/** Billed seconds and cost of one leg of a CDR, or null when the number has no rate. */
export function rateCdrLeg(
  snapshot: RoutingSnapshot,
  rateTableId: number,
  ani: string,
  number: string,
  startMs: number,
  durationSeconds: number,
): RatedCdrLeg | null {
  const priced = priceNumber(snapshot, rateTableId, ani, number, startMs);
  if (priced === null) return null;
  return { priced, ...rateLeg(durationSeconds, priced.terms) };
}

/** What the rating of a CDR needs from it (the fields the switch sent). */
export interface CdrToRate {
  readonly ingress_trunk_id: number;
  readonly egress_trunk_id: number | null;
  readonly ani: string;
  /** DNIS as the customer sent it (tech prefix included). */
  readonly dnis: string;
  readonly lrn: string | null;
  /** Call start, epoch ms: rates in force at this instant apply. */
  readonly start_ms: number;
  /** Answered seconds (0 when unanswered). */
  readonly duration: number;
}

/**
 * A rerate's choice of rate table per side (null or absent: the trunk's own, as at ingest). The
 * named table prices every CDR of that side whatever its trunk or product says.
 */
export interface RateTableChoice {
  readonly ingress?: number | null;
  readonly egress?: number | null;
}

/** Why a leg could not be priced (stored with the CDR; a rerate prices it later). */
export type UnpricedReason =
  | 'unknown_ingress_trunk'
  | 'unknown_egress_trunk'
  | 'no_ingress_rate_table'
  | 'no_egress_rate_table'
  | 'no_ingress_rate'
  | 'no_egress_rate'
  /** A DID vendor's call to a number that is not (or no longer) its DID. */
  | 'unknown_did';

export interface CdrLegRating {
  readonly carrier_id: number | null;
  readonly rate_table_id: number | null;
  readonly code: string | null;
  readonly code_name: string | null;
  readonly country: string | null;
  readonly column: RateColumn | null;
  readonly jurisdiction: Jurisdiction | null;
  readonly rate: Micros | null;
  readonly setup_fee: Micros | null;
  readonly billed_seconds: number;
  readonly cost: Micros;
  /** The number the leg was priced on (after tech prefix, digit rules and digital map; or the LRN). */
  readonly number: string | null;
}

export interface CdrRating {
  readonly ingress: CdrLegRating;
  readonly egress: CdrLegRating | null;
  /** Revenue: the ingress leg's cost plus the customer's short call charge. */
  readonly revenue: Micros;
  /** The customer's short call charge when the call was shorter than the system's short-call threshold. */
  readonly short_call_charge: Micros;
  readonly cost: Micros;
  readonly profit: Micros;
  /** First reason a leg could not be priced, or null when both were. */
  readonly unpriced: UnpricedReason | null;
}

const NO_LEG = (carrier_id: number | null): CdrLegRating => ({
  carrier_id,
  rate_table_id: null,
  code: null,
  code_name: null,
  country: null,
  column: null,
  jurisdiction: null,
  rate: null,
  setup_fee: null,
  billed_seconds: 0,
  cost: 0n,
  number: null,
});

function legOf(carrierId: number, priced: PricedNumber, number: string, duration: number): CdrLegRating {
  const rated = rateLeg(duration, priced.terms);
  return {
    carrier_id: carrierId,
    rate_table_id: priced.rate_table_id,
    code: priced.code,
    code_name: priced.code_name,
    country: priced.country,
    column: priced.column,
    jurisdiction: priced.jurisdiction,
    rate: priced.terms.rate,
    setup_fee: priced.terms.setup_fee,
    billed_seconds: rated.billed_seconds,
    cost: rated.cost,
    number,
  };
}

/**
 * The customer's numbers as the route decision priced them: the product whose tech prefix starts
 * the DNIS (longest first, as findIngress), the prefix stripped, then the trunk's digit rules and
 * digital map (the same primitives decide() applies inline on its hot path).
 */
export function ingressNumbers(
  trunk: SnapshotTrunk,
  ani: string,
  dnis: string,
): { product: IngressProduct | null; ani: string; dnis: string } {
  let product: IngressProduct | null = null;
  for (const p of trunk.products) {
    if (
      dnis.startsWith(p.tech_prefix) &&
      (product === null || p.tech_prefix.length > product.tech_prefix.length)
    )
      product = p;
  }
  const stripped = product === null ? dnis : (stripTechPrefix(dnis, product.tech_prefix) ?? dnis);
  const ruledDnis = rewriteNumber(stripped, trunk.numbers.dnis);
  const ruledAni = rewriteNumber(ani, trunk.numbers.ani);
  const mapped = applyDigitMap(trunk.digit_map, ruledAni, ruledDnis);
  return {
    product,
    ani: mapped === null ? ruledAni : mapped.ani.number,
    dnis: mapped === null ? ruledDnis : mapped.dnis.number,
  };
}

/**
 * Rates both legs of a CDR at the rates in force at its start (DESIGN 5.6): revenue from the
 * customer's ingress rate (the LRN when the ingress trunk bills by LRN), cost from the vendor's
 * egress rate (likewise), profit = revenue - cost. The short call charge of the customer is added
 * to the revenue of an answered call whose duration is below `shortCallSeconds` (0 = off).
 * A leg without a price is cost 0 and names the reason; the CDR is kept and a rerate prices it.
 * `tables` (rerate): a named rate table for a side instead of the trunk's.
 */
export function rateCdr(
  snapshot: RoutingSnapshot,
  cdr: CdrToRate,
  shortCall: { readonly seconds: number; readonly charges: ReadonlyMap<number, Micros> } | null = null,
  tables: RateTableChoice | null = null,
): CdrRating {
  let unpriced: UnpricedReason | null = null;
  const inTrunk = snapshot.trunks.get(cdr.ingress_trunk_id);
  if (inTrunk !== undefined && inTrunk.did) return rateDidCdr(snapshot, inTrunk, cdr);
  let ingress = NO_LEG(inTrunk?.carrier_id ?? null);
  let pricedAni = cdr.ani;
  let pricedDnis = cdr.dnis;
  const lrn = cdr.lrn !== null && cdr.lrn !== '' ? cdr.lrn : null;
  if (inTrunk === undefined) unpriced = 'unknown_ingress_trunk';
  else {
    const numbers = ingressNumbers(inTrunk, cdr.ani, cdr.dnis);
    pricedAni = numbers.ani;
    pricedDnis = numbers.dnis;
    const tableId = tables?.ingress ?? numbers.product?.rate_table_id ?? null;
    if (tableId === null || !snapshot.rate_tables.has(tableId)) unpriced = 'no_ingress_rate_table';
    else {
      const number = inTrunk.bill_by === 'lrn' && lrn !== null ? lrn : pricedDnis;
      const priced = priceNumber(snapshot, tableId, pricedAni, number, cdr.start_ms);
      if (priced === null) unpriced = 'no_ingress_rate';
      else ingress = legOf(inTrunk.carrier_id, priced, number, cdr.duration);
    }
  }

  let egress: CdrLegRating | null = null;
  if (cdr.egress_trunk_id !== null) {
    const outTrunk = snapshot.trunks.get(cdr.egress_trunk_id);
    egress = NO_LEG(outTrunk?.carrier_id ?? null);
    const tableId = tables?.egress ?? outTrunk?.rate_table_id ?? null;
    if (outTrunk === undefined) unpriced ??= 'unknown_egress_trunk';
    else if (tableId === null || !snapshot.rate_tables.has(tableId)) unpriced ??= 'no_egress_rate_table';
    else {
      const number = outTrunk.bill_by === 'lrn' && lrn !== null ? lrn : pricedDnis;
      const priced = priceNumber(snapshot, tableId, pricedAni, number, cdr.start_ms);
      if (priced === null) unpriced ??= 'no_egress_rate';
      else egress = legOf(outTrunk.carrier_id, priced, number, cdr.duration);
    }
  }

  let short = 0n;
  if (
    shortCall !== null &&
    shortCall.seconds > 0 &&
    cdr.duration > 0 &&
    cdr.duration < shortCall.seconds &&
    ingress.carrier_id !== null
  )
    short = shortCall.charges.get(ingress.carrier_id) ?? 0n;
  const revenue = ingress.cost + short;
  const cost = egress?.cost ?? 0n;
  return { ingress, egress, revenue, short_call_charge: short, cost, profit: revenue - cost, unpriced };
}

/**
 * A DID call's CDR (its ingress trunk is a DID vendor's): both legs priced with the DID billing
 * rules of the number, per minute as the carriers' terms bill (per second, or whole minutes for a
 * client that rounds up). The legs are named by who pays: `ingress` is the DID client (its charge
 * is the revenue), `egress` the DID vendor (its charge is the cost), so the ledger, the summaries
 * and the portals treat the client as the customer of the call and the vendor as its vendor,
 * whatever trunk the call physically came in on. The DID as it is when the CDR is rated decides.
 */
function rateDidCdr(snapshot: RoutingSnapshot, trunk: SnapshotTrunk, cdr: CdrToRate): CdrRating {
  const { dnis } = ingressNumbers(trunk, cdr.ani, cdr.dnis);
  const did = didOfCall(snapshot, trunk, dnis);
  const vendorId = trunk.carrier_id;
  const clientId =
    did?.client_id ??
    (cdr.egress_trunk_id !== null ? (snapshot.trunks.get(cdr.egress_trunk_id)?.carrier_id ?? null) : null);
  if (did === null) {
    return {
      ingress: NO_LEG(clientId),
      egress: NO_LEG(vendorId),
      revenue: 0n,
      short_call_charge: 0n,
      cost: 0n,
      profit: 0n,
      unpriced: 'unknown_did',
    };
  }
  const leg = (carrierId: number | null, perMinute: bigint | null): CdrLegRating => {
    const terms = didTerms(snapshot, carrierId ?? 0, perMinute ?? 0n);
    const rated = rateLeg(cdr.duration, terms);
    return {
      carrier_id: carrierId,
      rate_table_id: null,
      code: did.number,
      code_name: 'DID',
      country: null,
      column: null,
      jurisdiction: null,
      rate: perMinute,
      setup_fee: null,
      billed_seconds: rated.billed_seconds,
      cost: rated.cost,
      number: did.number,
    };
  };
  const client = leg(clientId, did.client_rule?.per_minute ?? null);
  const vendor = leg(vendorId, did.vendor_rule?.per_minute ?? null);
  return {
    ingress: client,
    egress: vendor,
    revenue: client.cost,
    short_call_charge: 0n,
    cost: vendor.cost,
    profit: client.cost - vendor.cost,
    unpriced: null,
  };
}
