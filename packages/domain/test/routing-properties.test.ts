import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSnapshot } from '../src/snapshot';
import { decide } from '../src/routing';
import { orderDynamic } from '../src/egress-order';
import type { EgressCandidate } from '../src/egress-order';
import { parseMoney } from '../src/money';
import type { DynamicRule, EngineConfig } from '../src/config';
import { baseConfig, call, carrier, rates, vendor } from './fixtures';

/** A customer at `ingress` per minute and one vendor per entry of `vendorRates` (trunk ids 100+). */
function market(
  ingress: string,
  vendorRates: string[],
  rule: DynamicRule,
  minimum: string | null,
): EngineConfig {
  const ids = vendorRates.map((_, i) => 100 + i);
  const base = baseConfig();
  return {
    ...base,
    carriers: [carrier(1, { min_profitability_percent: minimum }), ...ids.map((id) => carrier(id))],
    trunks: [base.trunks[0]!, ...ids.map((id) => vendor(id, id, id))],
    rate_tables: [
      rates(1, [{ code: '44', rate: ingress }], { decimal_places: 6 }),
      ...ids.map((id, i) => rates(id, [{ code: '44', rate: vendorRates[i]! }], { decimal_places: 6 })),
    ],
    dynamic_routes: [{ dynamic_route_id: 1, rule, trunks: ids.map((trunk_id) => ({ trunk_id })) }],
  };
}

const rate = fc.integer({ min: 0, max: 99_999 }).map((n) => `0.${String(n).padStart(5, '0')}`);

describe('routing properties', () => {
  it('LCR lists exactly the vendors meeting the margin, cheapest first, with their margin', () => {
    fc.assert(
      fc.property(
        rate,
        fc.array(rate, { minLength: 1, maxLength: 8 }),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
        (ingress, vendorRates, minimum) => {
          const decision = decide(
            buildSnapshot(market(ingress, vendorRates, 'lcr', minimum === null ? null : String(minimum))),
            call(),
          );
          const revenue = parseMoney(ingress);
          const eligible = vendorRates
            .map((r, i) => ({ id: 100 + i, cost: parseMoney(r) }))
            .filter(
              ({ cost }) =>
                minimum === null ||
                (revenue > 0n
                  ? (revenue - cost) * 100n >= BigInt(minimum) * revenue
                  : cost <= 0n && minimum <= 0),
            )
            .sort((a, b) => (a.cost < b.cost ? -1 : a.cost > b.cost ? 1 : a.id - b.id));
          if (eligible.length === 0) {
            expect(decision.reject_reason).toBe('no_route');
            return;
          }
          expect(decision.routes.map((r) => r.trunk_id)).toEqual(eligible.map((e) => e.id));
          for (const r of decision.routes) {
            expect(parseMoney(r.profit)).toBe(revenue - parseMoney(r.rate));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the trace never changes the decision', () => {
    const snapshot = buildSnapshot(baseConfig({ block_list: [{ dnis_prefix: '4490' }] }));
    const numbers = fc.stringMatching(/^(44\d{0,10}|33\d{0,9}|\d{0,12})$/);
    fc.assert(
      fc.property(numbers, fc.constantFrom('10.0.0.7', '10.0.1.7', '10.0.0.200'), (dnis, ip) => {
        const quiet = decide(snapshot, call({ dnis, source_ip: ip }));
        const traced = decide(snapshot, call({ dnis, source_ip: ip }), {}, { trace: true });
        expect({ ...traced, trace: [] }).toEqual(quiet);
        expect(traced.trace.at(-1)?.step).toBe('result');
        expect(traced.trace.at(-1)?.outcome).toBe(quiet.result === 'route' ? 'ok' : 'fail');
      }),
      { numRuns: 200 },
    );
  });

  it('the in-place pool sort orders as a stable Array.prototype.sort would', () => {
    const candidate = fc.record({
      // small rates, and huge ones that share a double (doubles are 256 apart at 2^60)
      rate: fc.oneof(fc.bigInt({ min: 0n, max: 50n }), fc.bigInt({ min: 2n ** 60n, max: 2n ** 60n + 1000n })),
      priority: fc.integer({ min: 0, max: 3 }),
      asr: fc.integer({ min: 0, max: 5 }),
      acd: fc.integer({ min: 0, max: 5 }),
      id: fc.integer({ min: 1, max: 20 }),
    });
    fc.assert(
      fc.property(
        fc.array(candidate, { maxLength: 12 }),
        fc.constantFrom<DynamicRule>('lcr', 'largest_asr', 'largest_acd'),
        (raw, rule) => {
          const list = raw.map((c) => ({ ...c, trunk: { trunk_id: c.id } }) as unknown as EgressCandidate);
          const byRate = (a: EgressCandidate, b: EgressCandidate) =>
            a.rate < b.rate ? -1 : a.rate > b.rate ? 1 : 0;
          const id = (c: EgressCandidate) => c.trunk.trunk_id;
          const reference = [...list].sort(
            rule === 'lcr'
              ? (a, b) => byRate(a, b) || a.priority - b.priority || id(a) - id(b)
              : rule === 'largest_asr'
                ? (a, b) => b.asr - a.asr || b.acd - a.acd || byRate(a, b) || id(a) - id(b)
                : (a, b) => b.acd - a.acd || b.asr - a.asr || byRate(a, b) || id(a) - id(b),
          );
          expect(orderDynamic(rule, [...list])).toEqual(reference);
        },
      ),
    );
  });
});
