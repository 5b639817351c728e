import type { RoutingDecision, RoutingSnapshot, RoutingState } from '@tandem/domain';

/**
 * Live figures the route decisions read, in memory: calls up per trunk and carrier (reported by the
 * switch through POST /switch/calls), calls set up in the current second per trunk and carrier
 * (counted here from the routed answers: the ingress trunk and customer, and the first egress trunk
 * and its vendor), and the round-robin cursors of static route items.
 */
export class LiveState implements RoutingState {
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
    }
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
    };
  }
}

function bump(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
