import { MonitorState, type RoutingDecision, type RoutingSnapshot, type RoutingState } from '@tandem/domain';

/** The switch's calls up per trunk (POST /switch/calls). */
export type CallsReport = readonly { trunk_id: number; calls: number }[];

/** A limited-credit call's hold on its customer's credit (credit.ts in the domain). */
interface Hold {
  readonly carrier_id: number;
  readonly amount: bigint;
  readonly expires: number;
}

/** Margin after a hold's longest possible call before it lapses on its own (no CDR came). */
const HOLD_MARGIN_S = 60;

/**
 * How long a routed call keeps counting as up when no calls-up report covers it (the reference
 * Kamailio reports every second; a switch that never reports gets no lasting count from this).
 */
const ROUTED_SINCE_REPORT_TTL_MS = 3000;

/** Route answer numbers (`seq`) run from 1 to this and wrap (a 32-bit integer in the switch). */
const SEQ_MAX = 2_147_483_647;

/** A routed call not yet covered by a calls-up report: what it adds to the counters. */
interface Routed {
  readonly seq: number;
  readonly at: number;
  readonly trunk: number;
  readonly carrier: number;
  /** The first route's trunk and carrier (0: none). */
  readonly vendorTrunk: number;
  readonly vendorCarrier: number;
}

/**
 * Live figures the route decisions read, in memory: calls up per trunk and carrier (reported by the
 * switch through POST /switch/calls, plus the calls routed that the report does not cover yet, so a
 * burst between two reports cannot pass a call limit: each route answer has a number, `seq`, and the
 * switch's report names the last one it counted; calls routed after it keep counting on top of the
 * report, the others are in it), calls set up in the current second per trunk and carrier
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
  /** Calls up: the switch's last report plus the routed calls it does not cover. */
  readonly trunk_calls = new Map<number, number>();
  readonly carrier_calls = new Map<number, number>();
  private reportedTrunkCalls = new Map<number, number>();
  private reportedCarrierCalls = new Map<number, number>();
  /** When the switch last reported its calls up (epoch ms; null: not since start). */
  reportedAt: number | null = null;
  private readonly reportListeners: ((report: CallsReport, snapshot: RoutingSnapshot | null) => void)[] = [];
  /** Routed calls no report covers yet, oldest first. */
  private routed: Routed[] = [];
  /** Where the live entries of `routed` start (the ones before it lapsed or were covered). */
  private routedHead = 0;
  /** The last route answer's number (starts anywhere, so a restarted server's numbers are new). */
  private seq = 1 + Math.floor(Math.random() * 1_000_000_000);
  private now = 0;
  readonly trunk_cps = new Map<number, number>();
  readonly carrier_cps = new Map<number, number>();
  readonly round_robin = new Map<string, number>();
  /** Fraud and monitoring blocks and loop counters (monitoring module keeps them in step). */
  readonly monitorState = new MonitorState();
  /** What decide() reads: counts each routed call attempt for loop detection. */
  readonly monitor = this.monitorState.guard();
  private second = 0;

  /** Starts a new CPS second when the clock moved on; call before each decision. */
  tick(nowMs: number): void {
    this.now = nowMs;
    this.lapseRouted(nowMs);
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
    const carrier_id = d.hold_carrier_id ?? d.ingress.carrier_id;
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
  adoptBalances(carriers: readonly { carrier_id: number; balance: bigint }[], loadStartedAt: number): void {
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

  /**
   * Counts a routed call in the CPS counters and, until a calls-up report covers it, in the calls
   * up; returns its number (`seq` of the answer), null when nothing was counted.
   */
  count(d: RoutingDecision): number | null {
    if (d.result !== 'route' || d.ingress === null) return null;
    bump(this.trunk_cps, d.ingress.trunk_id);
    bump(this.carrier_cps, d.ingress.carrier_id);
    const first = d.routes[0];
    if (first) {
      bump(this.trunk_cps, first.trunk_id);
      bump(this.carrier_cps, first.carrier_id);
    }
    this.seq = this.seq >= SEQ_MAX ? 1 : this.seq + 1;
    const r: Routed = {
      seq: this.seq,
      at: this.now,
      trunk: d.ingress.trunk_id,
      carrier: d.ingress.carrier_id,
      vendorTrunk: first ? first.trunk_id : 0,
      vendorCarrier: first ? first.carrier_id : 0,
    };
    this.routed.push(r);
    this.add(r, 1);
    return r.seq;
  }

  /** Hears each calls-up report of the switch after it is applied (statistics keep its peaks). */
  onCallsReport(l: (report: CallsReport, snapshot: RoutingSnapshot | null) => void): void {
    this.reportListeners.push(l);
  }

  /**
   * Replaces the calls-up counters with the switch's report (carriers summed from their trunks).
   * `seq`: the last route answer the report counts; the routed calls up to it are in the report,
   * the ones after it stay on top of it. A number not waiting here (already covered by an earlier
   * report, or from before this server started) covers none. Without a number the report covers
   * every call routed before it.
   */
  setCalls(
    report: CallsReport,
    snapshot: RoutingSnapshot | null,
    seq?: number | null,
    nowMs = Date.now(),
  ): void {
    const trunks = new Map<number, number>();
    const carriers = new Map<number, number>();
    for (const { trunk_id, calls } of report) {
      trunks.set(trunk_id, calls);
      const carrier = snapshot?.trunks.get(trunk_id)?.carrier_id;
      if (carrier !== undefined) carriers.set(carrier, (carriers.get(carrier) ?? 0) + calls);
    }
    this.reportedTrunkCalls = trunks;
    this.reportedCarrierCalls = carriers;
    if (seq === undefined || seq === null) {
      this.routedHead = this.routed.length;
    } else {
      for (let i = this.routedHead; i < this.routed.length; i++)
        if (this.routed[i]!.seq === seq) {
          this.routedHead = i + 1;
          break;
        }
    }
    this.recount();
    this.reportedAt = nowMs;
    for (const l of this.reportListeners) l(report, snapshot);
  }

  /** Routed calls no report covered within the TTL stop counting (a switch that does not report). */
  private lapseRouted(nowMs: number): void {
    const list = this.routed;
    let i = this.routedHead;
    while (i < list.length && nowMs - list[i]!.at > ROUTED_SINCE_REPORT_TTL_MS) this.add(list[i++]!, -1);
    this.routedHead = i;
    if (i === list.length) {
      if (i > 0) this.routed = [];
      this.routedHead = 0;
    } else if (i > 1024 && i * 2 > list.length) {
      this.routed = list.slice(i);
      this.routedHead = 0;
    }
  }

  /** The calls up again: the last report plus the routed calls it does not cover. */
  private recount(): void {
    this.trunk_calls.clear();
    this.carrier_calls.clear();
    for (const [k, v] of this.reportedTrunkCalls) this.trunk_calls.set(k, v);
    for (const [k, v] of this.reportedCarrierCalls) this.carrier_calls.set(k, v);
    if (this.routedHead > 0) {
      this.routed = this.routed.slice(this.routedHead);
      this.routedHead = 0;
    }
    for (const r of this.routed) this.add(r, 1);
  }

  private add(r: Routed, n: 1 | -1): void {
    bump(this.trunk_calls, r.trunk, n);
    bump(this.carrier_calls, r.carrier, n);
    if (r.vendorTrunk !== 0) {
      bump(this.trunk_calls, r.vendorTrunk, n);
      bump(this.carrier_calls, r.vendorCarrier, n);
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
      monitor: this.monitorState.view(),
    };
  }
}

function bump(map: Map<number, number>, key: number, n = 1): void {
  const v = (map.get(key) ?? 0) + n;
  if (v === 0 && n < 0) map.delete(key);
  else map.set(key, v);
}
