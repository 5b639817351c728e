import type { RoutingDecision } from '@tandem/domain';
import { describe, expect, it } from 'vitest';
import { LiveState } from '../../src/modules/routing/live-state';

/** A routed call from trunk 1 (carrier 10) whose first route is trunk 2 (carrier 20). */
const routed = {
  result: 'route',
  ingress: { trunk_id: 1, carrier_id: 10 },
  routes: [{ trunk_id: 2, carrier_id: 20 }],
} as unknown as RoutingDecision;

describe('LiveState calls up', () => {
  it('counts the calls routed since the last report on top of it, so a burst cannot pass a limit', () => {
    const s = new LiveState();
    s.tick(1_000);
    s.count(routed);
    s.count(routed);
    expect(s.trunk_calls.get(1)).toBe(2);
    expect(s.trunk_calls.get(2)).toBe(2);
    expect(s.carrier_calls.get(10)).toBe(2);
    expect(s.carrier_calls.get(20)).toBe(2);
  });

  it('a report replaces the counts (it includes every call routed before it)', () => {
    const s = new LiveState();
    s.tick(1_000);
    s.count(routed);
    s.count(routed);
    s.count(routed);
    s.setCalls([{ trunk_id: 1, calls: 1 }], null);
    expect(s.trunk_calls.get(1)).toBe(1);
    expect(s.trunk_calls.get(2)).toBeUndefined();
    s.tick(1_200);
    s.count(routed);
    expect(s.trunk_calls.get(1)).toBe(2);
  });

  it('calls routed since a report lapse after 3 s without a new one; the report stays', () => {
    const s = new LiveState();
    s.setCalls([{ trunk_id: 1, calls: 4 }], null);
    s.tick(10_000);
    s.count(routed);
    s.tick(12_999);
    expect(s.trunk_calls.get(1)).toBe(5);
    s.tick(13_001);
    expect(s.trunk_calls.get(1)).toBe(4);
    expect(s.trunk_calls.get(2)).toBeUndefined();
  });

  it('a report with the last answer it counted (seq) covers the calls up to it; later ones stay on top', () => {
    const s = new LiveState();
    s.tick(1_000);
    const a = s.count(routed)!;
    const b = s.count(routed)!;
    const c = s.count(routed)!;
    expect([b - a, c - b]).toEqual([1, 1]);
    // the switch counted a and b when it took its report; c's answer was on its way
    s.setCalls([{ trunk_id: 1, calls: 2 }], null, b);
    expect(s.trunk_calls.get(1)).toBe(3);
    expect(s.trunk_calls.get(2)).toBe(1);
    // the next report has c (and d came after it)
    const d = s.count(routed)!;
    s.setCalls([{ trunk_id: 1, calls: 3 }], null, c);
    expect(s.trunk_calls.get(1)).toBe(4);
    s.setCalls([{ trunk_id: 1, calls: 4 }], null, d);
    expect(s.trunk_calls.get(1)).toBe(4);
    expect(s.trunk_calls.get(2)).toBeUndefined();
  });

  it('a report naming an answer it does not know (covered already, or before a restart) covers no routed call', () => {
    const s = new LiveState();
    s.tick(1_000);
    const a = s.count(routed)!;
    s.setCalls([{ trunk_id: 1, calls: 1 }], null, a);
    s.count(routed);
    s.setCalls([{ trunk_id: 1, calls: 1 }], null, a);
    expect(s.trunk_calls.get(1)).toBe(2);
    s.setCalls([{ trunk_id: 1, calls: 1 }], null, 0);
    expect(s.trunk_calls.get(1)).toBe(2);
    // each routed call lapses 3 s after it was routed when no report covers it
    s.tick(4_001);
    expect(s.trunk_calls.get(1)).toBe(1);
  });

  it('routed calls lapse one by one, 3 s after each', () => {
    const s = new LiveState();
    s.tick(1_000);
    s.count(routed);
    s.tick(2_000);
    s.count(routed);
    s.tick(4_001);
    expect(s.trunk_calls.get(1)).toBe(1);
    s.tick(5_001);
    expect(s.trunk_calls.get(1)).toBeUndefined();
  });

  it('answer numbers wrap below 2^31 (a 32-bit integer in the switch)', () => {
    const s = new LiveState();
    s.tick(1_000);
    (s as unknown as { seq: number }).seq = 2_147_483_646;
    const [a, b] = [s.count(routed), s.count(routed)];
    expect([a, b]).toEqual([2_147_483_647, 1]);
    s.setCalls([{ trunk_id: 1, calls: 1 }], null, a);
    expect(s.trunk_calls.get(1)).toBe(2);
  });

  it('refused calls count nothing', () => {
    const s = new LiveState();
    s.tick(1_000);
    expect(s.count({ ...routed, result: 'reject' } as RoutingDecision)).toBeNull();
    expect(s.trunk_calls.size).toBe(0);
  });
});
