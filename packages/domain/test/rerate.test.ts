import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rateCdr, type CdrToRate } from '../src/cdr-rating';
import { balanceEffect, moneyOf, RerateTally, type CdrMoney } from '../src/rerate';
import { buildSnapshot } from '../src/snapshot';
import { T0, baseConfig } from './fixtures';

const money = (
  customer_id: number | null,
  vendor_id: number | null,
  revenue: bigint,
  cost: bigint,
): CdrMoney => ({
  customer_id,
  vendor_id,
  revenue,
  cost,
});

/** A ledger as moveBalances keeps it: the sum of the rows per carrier. */
class Ledger {
  readonly sums = new Map<number, bigint>();
  post(changes: readonly { client_id: number; amount: bigint }[]): void {
    for (const c of changes) this.sums.set(c.client_id, (this.sums.get(c.client_id) ?? 0n) + c.amount);
  }
  of(id: number): bigint {
    return this.sums.get(id) ?? 0n;
  }
}

describe('RerateTally', () => {
  it('corrects each side by new minus old and sums old and new figures per carrier', () => {
    const t = new RerateTally();
    expect(t.add(money(1, 11, 50_000n, 25_000n), money(1, 11, 60_000n, 20_000n))).toBe(true);
    expect(t.add(money(1, 12, 10_000n, 5_000n), money(1, 12, 10_000n, 5_000n))).toBe(false);
    expect(t.changes()).toEqual([
      { client_id: 1, side: 'customer', amount: -10_000n, cdrs: 1 },
      { client_id: 11, side: 'vendor', amount: -5_000n, cdrs: 1 },
    ]);
    expect(t.cdrs).toBe(2);
    expect(t.changed).toBe(1);
    expect([t.oldRevenue, t.newRevenue, t.oldCost, t.newCost]).toEqual([60_000n, 70_000n, 30_000n, 25_000n]);
    expect(t.carriers().find((c) => c.client_id === 1)).toEqual({
      client_id: 1,
      customer_cdrs: 2,
      vendor_cdrs: 0,
      old_revenue: 60_000n,
      new_revenue: 70_000n,
      old_cost: 0n,
      new_cost: 0n,
    });
  });

  it('prices an unpriced CDR: the whole new charge, and moves a CDR between vendors', () => {
    const t = new RerateTally();
    t.add(money(1, null, 0n, 0n), money(1, 11, 30_000n, 12_000n));
    t.add(money(1, 11, 30_000n, 12_000n), money(1, 12, 30_000n, 9_000n));
    expect(t.changes()).toEqual([
      // the customer pays once for the call it was not charged; vendor 11 got and lost 0.012
      { client_id: 1, side: 'customer', amount: -30_000n, cdrs: 1 },
      { client_id: 12, side: 'vendor', amount: 9_000n, cdrs: 1 },
    ]);
  });

  it('merges chunk tallies into the same totals as one tally', () => {
    const pairs: [CdrMoney, CdrMoney][] = [
      [money(1, 11, 5n, 3n), money(1, 11, 7n, 2n)],
      [money(2, 11, 5n, 3n), money(2, 12, 5n, 4n)],
      [money(1, null, 0n, 0n), money(1, 12, 9n, 1n)],
    ];
    const whole = new RerateTally();
    const a = new RerateTally();
    const b = new RerateTally();
    pairs.forEach(([o, n], i) => {
      whole.add(o, n);
      (i < 2 ? a : b).add(o, n);
    });
    a.merge(b);
    expect(a.changes()).toEqual(whole.changes());
    expect(a.carriers()).toEqual(whole.carriers());
    expect([a.cdrs, a.changed, a.newRevenue, a.newCost]).toEqual([
      whole.cdrs,
      whole.changed,
      whole.newRevenue,
      whole.newCost,
    ]);
  });
});

const arbMoney = fc.record({
  customer_id: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  vendor_id: fc.option(fc.integer({ min: 11, max: 13 }), { nil: null }),
  revenue: fc.bigInt({ min: 0n, max: 10_000_000n }),
  cost: fc.bigInt({ min: 0n, max: 10_000_000n }),
});

describe('rerate properties', () => {
  it('the ledger sums to what an ingest at the final rates would have moved, whatever reratings came between', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(arbMoney, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 20 }),
        (cdrs) => {
          const ledger = new Ledger();
          // ingest at the first rating, then each later rating is a rerate run over every CDR
          const current = cdrs.map((versions) => versions[0]!);
          for (const m of current) ledger.post(balanceEffect(m));
          const runs = Math.max(...cdrs.map((v) => v.length));
          for (let r = 1; r < runs; r++) {
            const t = new RerateTally();
            cdrs.forEach((versions, i) => {
              const next = versions[Math.min(r, versions.length - 1)]!;
              t.add(current[i]!, next);
              current[i] = next;
            });
            ledger.post(t.changes());
          }
          const fresh = new Ledger();
          for (const m of current) fresh.post(balanceEffect(m));
          for (const id of [1, 2, 3, 11, 12, 13]) expect(ledger.of(id)).toBe(fresh.of(id));
        },
      ),
    );
  });

  it('rerating twice at the same rates is rerating once: the second run changes nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(arbMoney, arbMoney), { maxLength: 30 }), (pairs) => {
        const first = new RerateTally();
        for (const [old, next] of pairs) first.add(old, next);
        const second = new RerateTally();
        for (const [, next] of pairs) second.add(next, next);
        expect(second.changed).toBe(0);
        expect(second.changes()).toEqual([]);
        expect(second.newRevenue).toBe(first.newRevenue);
      }),
    );
  });

  it('rating with the same snapshot again moves nothing; a named table rates every CDR of its side', () => {
    const snapshot = buildSnapshot(baseConfig());
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            duration: fc.integer({ min: 0, max: 3600 }),
            vendor: fc.constantFrom(11, 12, 13, null),
            dnis: fc.constantFrom('442071234567', '447911123456', '33123456789'),
          }),
          { maxLength: 40 },
        ),
        (calls) => {
          const cdrs: CdrToRate[] = calls.map((c) => ({
            ingress_trunk_id: 1,
            egress_trunk_id: c.vendor,
            ani: '12125550000',
            dnis: c.dnis,
            lrn: null,
            start_ms: T0,
            duration: c.duration,
          }));
          const stored = cdrs.map((c) => moneyOf(rateCdr(snapshot, c)));
          const again = new RerateTally();
          cdrs.forEach((c, i) => again.add(stored[i]!, moneyOf(rateCdr(snapshot, c))));
          expect(again.changes()).toEqual([]);

          // every egress leg at table 12's rate (44 at 0.0080), whichever vendor carried it
          const named = cdrs.map((c) => rateCdr(snapshot, c, null, { egress: 12 }));
          named.forEach((r, i) => {
            if (r.egress !== null && r.egress.rate_table_id !== null) {
              expect(r.egress.rate_table_id).toBe(12);
              expect(r.egress.rate).toBe(8_000n);
              expect(r.egress.carrier_id).toBe(cdrs[i]!.egress_trunk_id);
            }
          });
        },
      ),
    );
  });
});

describe('rateCdr with a named rate table', () => {
  const snapshot = buildSnapshot(baseConfig());
  const cdr: CdrToRate = {
    ingress_trunk_id: 1,
    egress_trunk_id: 11,
    ani: '12125550000',
    dnis: '442071234567',
    lrn: null,
    start_ms: T0,
    duration: 60,
  };

  it('prices the ingress side with the named table instead of the product', () => {
    expect(rateCdr(snapshot, cdr).ingress).toMatchObject({ rate_table_id: 1, rate: 20_000n, cost: 20_000n });
    expect(rateCdr(snapshot, cdr, null, { ingress: 13 }).ingress).toMatchObject({
      carrier_id: 1,
      rate_table_id: 13,
      rate: 12_000n,
      cost: 12_000n,
    });
  });

  it('a named table that does not exist leaves the side unpriced with its reason', () => {
    const r = rateCdr(snapshot, cdr, null, { egress: 999 });
    expect(r.unpriced).toBe('no_egress_rate_table');
    expect(r.cost).toBe(0n);
    expect(r.egress?.carrier_id).toBe(11);
  });
});
