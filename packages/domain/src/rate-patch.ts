/**
 * New values of existing rate rows written into a built snapshot, without building it again.
 *
 * A rate change that keeps the row's code and effective and end dates (a new rate, new
 * increments, a new name) moves nothing in the code deck: only the row's values in the rate
 * columns change. That is the common change of a running system (one rate edited, a mass
 * edit), and with hundreds of thousands of codes a full buildSnapshot would take a second or
 * more. A row with a new code or new dates, a new row or a deleted one needs the full build.
 *
 * All or nothing: every change is located and parsed first (a malformed value throws
 * SnapshotError, as the build would); the rows are only written once all are valid, in one
 * synchronous pass, so no decision ever sees half of a patch. The snapshot object stays the
 * same one: calls made after the patch read the new values.
 */
import { DeckPath } from './code-deck';
import type { RateRowConfig } from './config';
import { RateStore } from './rate-store';
import { MoneyReader, writeRateRow } from './snapshot-rates';
import type { RoutingSnapshot } from './snapshot-types';

export interface RateRowChange {
  readonly rate_table_id: number;
  /** The row as it is now; its code and effective/end dates are those of the row it replaces. */
  readonly row: RateRowConfig;
}

/**
 * Writes the changes into the snapshot; false (and nothing written) when one of them is not a
 * value-only change of a row the snapshot has.
 */
export function patchRateRows(snapshot: RoutingSnapshot, changes: readonly RateRowChange[]): boolean {
  const { code_deck: deck, rates } = snapshot;
  const path = new DeckPath();
  const at = new Int32Array(changes.length);
  for (let i = 0; i < changes.length; i++) {
    const { rate_table_id, row } = changes[i] as RateRowChange;
    const table = snapshot.rate_tables.get(rate_table_id);
    if (table === undefined) return false;
    const start = row.effective_date ?? -Infinity;
    const k = deck.find(table.slot, deck.walk(row.code, path), start);
    if (k < 0 || rates.code[k] !== row.code) return false;
    if (
      !sameInstant(rates.effective[k] as number, row.effective_date) ||
      !sameInstant(rates.end[k] as number, row.end_date)
    )
      return false;
    at[i] = k;
  }
  // Parse into a scratch store first: a bad value throws before anything is written.
  const scratch = new RateStore(changes.length);
  const money = new MoneyReader();
  for (let i = 0; i < changes.length; i++)
    writeRateRow(scratch, i, (changes[i] as RateRowChange).row, -1, i, money);
  for (let i = 0; i < changes.length; i++) {
    const k = at[i] as number;
    rates.codeName[k] = scratch.codeName[i] ?? null;
    rates.country[k] = scratch.country[i] ?? null;
    rates.rate[k] = scratch.rate[i] as bigint;
    rates.intra[k] = scratch.intra[i] as bigint;
    rates.inter[k] = scratch.inter[i] as bigint;
    rates.ij[k] = scratch.ij[i] as bigint;
    rates.local[k] = scratch.local[i] as bigint;
    rates.setupFee[k] = scratch.setupFee[i] as bigint;
    rates.minTime[k] = scratch.minTime[i] as number;
    rates.interval[k] = scratch.interval[i] as number;
    rates.grace[k] = scratch.grace[i] as number;
  }
  return true;
}

/** A stored instant (NaN = none) against a config instant (null = none). */
function sameInstant(stored: number, config: number | null | undefined): boolean {
  return config == null ? Number.isNaN(stored) : stored === config;
}
