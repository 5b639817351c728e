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
import type { RoutingSnapshot } from './snapshot-types';

export interface PricedNumber {
  readonly rate_table_id: number;
  readonly code: string;
  readonly code_name: string | null;
  readonly column: RateColumn;
  readonly jurisdiction: Jurisdiction | null;
  /** Per-minute rate, billing increments, setup fee and decimals of the row. */
  readonly terms: LegTerms;
}

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
  const k = deck.find(table.slot, deck.walk(number, new DeckPath()), atMs);
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
