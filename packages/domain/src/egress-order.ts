/**
 * Step 4 of the call path: the order in which the surviving egress trunks are tried.
 *
 * Static routes (the prefix's trunk list):
 *   - top_down: the listed order;
 *   - round_robin: the listed order rotated by the item's cursor, which moves on by one per call
 *     (the rotation is applied to the list before trunks are dropped, so a dropped trunk does
 *     not make its neighbour take two turns);
 *   - percentage: the first trunk is drawn at random weighted by the percentages of the trunks
 *     still in the list; the others follow in the listed order (failover order).
 * Dynamic routes (the egress pool):
 *   - lcr: lowest vendor rate for this number first; ties by priority (lower first), then trunk id;
 *   - largest_asr: highest ASR over the QoS cycle first; ties by ACD, then rate, then trunk id;
 *   - largest_acd: highest ACD first; ties by ASR, then rate, then trunk id.
 * A trunk without QoS figures counts as ASR 0 and ACD 0.
 */
import type { DynamicRule } from './config';
import type { Jurisdiction, RateColumn } from './jurisdiction';
import type { Micros } from './money';
import type { SnapshotRateTable, SnapshotTrunk } from './snapshot-types';

export interface EgressCandidate {
  readonly trunk: SnapshotTrunk;
  readonly table: SnapshotRateTable;
  /** The vendor's rate row (code deck row number, see rate-store.ts). */
  readonly k: number;
  readonly rate: Micros;
  readonly column: RateColumn;
  readonly jurisdiction: Jurisdiction | null;
  readonly percentage: number;
  readonly priority: number;
  readonly asr: number;
  readonly acd: number;
}

function byRate(a: EgressCandidate, b: EgressCandidate): number {
  return a.rate < b.rate ? -1 : a.rate > b.rate ? 1 : 0;
}

const COMPARE: Readonly<Record<DynamicRule, (a: EgressCandidate, b: EgressCandidate) => number>> = {
  lcr: (a, b) => byRate(a, b) || a.priority - b.priority || a.trunk.trunk_id - b.trunk.trunk_id,
  largest_asr: (a, b) =>
    b.asr - a.asr || b.acd - a.acd || byRate(a, b) || a.trunk.trunk_id - b.trunk.trunk_id,
  largest_acd: (a, b) =>
    b.acd - a.acd || b.asr - a.asr || byRate(a, b) || a.trunk.trunk_id - b.trunk.trunk_id,
};

/**
 * Sorts the dynamic pool in place by the route's rule. An insertion sort: pools hold a handful
 * of trunks, and unlike Array.prototype.sort it allocates nothing (this runs on every call).
 * Stable, so equal trunks keep their pool order.
 */
export function orderDynamic(rule: DynamicRule, candidates: EgressCandidate[]): EgressCandidate[] {
  const compare = COMPARE[rule];
  for (let i = 1; i < candidates.length; i++) {
    const current = candidates[i] as EgressCandidate;
    let j = i - 1;
    while (j >= 0 && compare(candidates[j] as EgressCandidate, current) > 0) {
      candidates[j + 1] = candidates[j] as EgressCandidate;
      j--;
    }
    candidates[j + 1] = current;
  }
  return candidates;
}

/**
 * Percentage strategy: moves a trunk drawn at random (weighted by percentage) to the front.
 * `random` returns a number in [0, 1). When every weight is 0 the draw is uniform.
 */
export function drawByPercentage(candidates: EgressCandidate[], random: () => number): EgressCandidate[] {
  if (candidates.length < 2) return candidates;
  let total = 0;
  for (const c of candidates) total += c.percentage > 0 ? c.percentage : 0;
  let chosen = candidates.length - 1;
  if (total <= 0) {
    chosen = Math.min(candidates.length - 1, Math.floor(random() * candidates.length));
  } else {
    let point = random() * total;
    for (let i = 0; i < candidates.length; i++) {
      const weight = (candidates[i] as EgressCandidate).percentage;
      if (weight <= 0) continue;
      if (point < weight) {
        chosen = i;
        break;
      }
      point -= weight;
    }
  }
  if (chosen === 0) return candidates;
  const [first] = candidates.splice(chosen, 1);
  candidates.unshift(first as EgressCandidate);
  return candidates;
}
