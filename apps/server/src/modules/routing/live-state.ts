import type { RoutingDecision, RoutingSnapshot, RoutingState } from '@tandem/domain';

/** A limited-credit call's hold on its customer's credit (credit.ts in the domain). */
interface Hold {
  readonly carrier_id: number;
  readonly amount: bigint;
  readonly expires: number;
}

/** Margin after a hold's longest possible call before it lapses on its own (no CDR came). */
const HOLD_MARGIN_S = 60;

/**
 * Live figures the route decisions read, in memory: calls up per trunk and carrier (reported by the
 * switch through POST /switch/calls), calls set up in the current second per trunk and carrier
 * (counted here from the routed answers: the ingress trunk and customer, and the first egress trunk
 * and its vendor), the round-robin cursors of static route items, the carriers' balances as the
 * ledger moved them (set after each CDR batch commits, and polled from the database), and what the
 * calls up of limited-credit customers hold against their credit (held per carrier; released when
 * the call's final CDR arrives, or when the hold lapses after the call's longest possible length).
 */
export class LiveState implements RoutingState {
  readonly balances = new Map<number, bigint>();
  /** When each live balance was learned (performance.now()), to know which a snapshot supersedes. */
  private readonly balanceAt = new Map<number, number>();
  readonly held = new Map<number, bigint>();
  private readonly holds = new Map<string, Hold>();
  private holdSeq = 0;
  private nextSweep = 0;
  readonly trunk_calls = new Map<number, number>();
  readonly carrier_calls = new Map<number, number>();
  readonly trunk_cps = new Map<number, number>();
  readonly carrier_cps = new Map<number, number>();
  readonly round_robin = new Map<string, number>();
  private second = 0;

  /** Starts a new CPS second when the clock moved on; call before each decision. */
  tick(nowMs: number): void {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) {
      this.second = second;
      if (this.trunk_cps.size) this.trunk_cps.clear();
      if (this.carrier_cps.size) this.carrier_cps.clear();
      this.sweep(nowMs);
    }
  }

  /**
   * Holds a routed call's expected cost against its customer's credit, keyed by the switch's call
   * id (a re-route of the same call replaces its hold) or, without one, by a key of its own that
   * only lapses.
   */
  hold(d: RoutingDecision, callId: string | null | undefined, nowMs: number): void {
    const amount = d.hold;
    if (amount === undefined || amount === 0n || d.ingress === null) return;
    let seconds = HOLD_MARGIN_S;
    let longest = 0;
    for (const r of d.routes) {
      seconds += r.ring_timeout_s ?? 60;
      if (r.max_duration_s !== null && r.max_duration_s > longest) longest = r.max_duration_s;
    }
    const key = callId ? callId : `#${++this.holdSeq}`;
    if (callId) this.release(callId);
    const carrier_id = d.ingress.carrier_id;
    this.holds.set(key, { carrier_id, amount, expires: nowMs + (seconds + longest) * 1000 });
    this.held.set(carrier_id, (this.held.get(carrier_id) ?? 0n) + amount);
  }

  /** A carrier's balance as the ledger left it, learned now (after a commit or a poll). */
  setBalance(carrierId: number, balance: bigint, at = performance.now()): void {
    const known = this.balanceAt.get(carrierId);
    if (known !== undefined && known > at) return; // a newer value is already here
    this.balances.set(carrierId, balance);
    this.balanceAt.set(carrierId, at);
  }

  /**
   * A snapshot whose load began at `loadStartedAt` was put in service: the balances it read are
   * at least as new as any live value learned before that moment, so they replace them (a live value
   * learned later, from a commit while the load ran, stays). Without this a balance changed outside
   * the ledger (by an admin) would be shadowed by an older live one until the next poll.
   */
  adoptBalances(
    carriers: readonly { carrier_id: number; balance: bigint }[],
    loadStartedAt: number,
  ): void {
    for (const c of carriers) {
      const at = this.balanceAt.get(c.carrier_id);
      if (at !== undefined && at >= loadStartedAt) continue;
      this.balances.set(c.carrier_id, c.balance);
      this.balanceAt.set(c.carrier_id, loadStartedAt);
    }
  }

  /** Ends the hold of a call (its final CDR arrived). */
  release(callId: string): void {
    const h = this.holds.get(callId);
    if (h === undefined) return;
    this.holds.delete(callId);
    this.unhold(h);
  }

  /** Holds now, for the status page and tests. */
  holdCount(): number {
    return this.holds.size;
  }

  /** Lets holds whose longest call is over lapse; cheap to call often (sweeps once a second). */
  sweep(nowMs: number): void {
    if (nowMs < this.nextSweep || this.holds.size === 0) return;
    this.nextSweep = nowMs + 1000;
    for (const [key, h] of this.holds) {
      if (h.expires > nowMs) continue;
      this.holds.delete(key);
      this.unhold(h);
    }
  }

  private unhold(h: Hold): void {
    const left = (this.held.get(h.carrier_id) ?? 0n) - h.amount;
    if (left > 0n) this.held.set(h.carrier_id, left);
    else this.held.delete(h.carrier_id);
  }

  /** Counts a routed call in the CPS counters. */
  count(d: RoutingDecision): void {
    if (d.result !== 'route' || d.ingress === null) return;
    bump(this.trunk_cps, d.ingress.trunk_id);
    bump(this.carrier_cps, d.ingress.carrier_id);
    const first = d.routes[0];
    if (first) {
      bump(this.trunk_cps, first.trunk_id);
      bump(this.carrier_cps, first.carrier_id);
    }
  }

  /** Replaces the calls-up counters with the switch's report (carriers summed from their trunks). */
  setCalls(report: readonly { trunk_id: number; calls: number }[], snapshot: RoutingSnapshot | null): void {
    this.trunk_calls.clear();
    this.carrier_calls.clear();
    for (const { trunk_id, calls } of report) {
      this.trunk_calls.set(trunk_id, calls);
      const carrier = snapshot?.trunks.get(trunk_id)?.carrier_id;
      if (carrier !== undefined)
        this.carrier_calls.set(carrier, (this.carrier_calls.get(carrier) ?? 0) + calls);
    }
  }

  /** A copy for the simulation tool: same counters, its own cursors, nothing it does is counted. */
  copy(): RoutingState {
    return {
      trunk_calls: new Map(this.trunk_calls),
      carrier_calls: new Map(this.carrier_calls),
      trunk_cps: new Map(this.trunk_cps),
      carrier_cps: new Map(this.carrier_cps),
      round_robin: new Map(this.round_robin),
      balances: new Map(this.balances),
      held: new Map(this.held),
    };
  }
}

function bump(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
