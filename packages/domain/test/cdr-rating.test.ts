import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../src/snapshot';
import { priceNumber, rateCdr, rateCdrLeg } from '../src/cdr-rating';
import { failoverFor } from '../src/failover';
import { formatMoney } from '../src/money';
import { T0, baseConfig, rates, withTrunk } from './fixtures';

describe('rating CDR legs with the snapshot', () => {
  const snapshot = buildSnapshot(
    baseConfig({
      jurisdiction: { '212555': { state: 'NY' }, '201555': { state: 'NJ' } },
      rate_tables: [
        rates(1, [
          { code: '44', code_name: 'UK', rate: '0.0200', min_time: 30, interval: 6, setup_fee: '0.0100' },
          { code: '447', code_name: 'UK mobile', rate: '0.0300', min_time: 30, interval: 6, grace_time: 3 },
        ]),
        rates(11, [{ code: '1', rate: '0.0100', intra_rate: '0.0050', inter_rate: '0.0090' }], {
          type: 'us_jurisdictional',
        }),
        rates(12, []),
        rates(13, []),
      ],
    }),
  );

  it('prices the number like the routing decision does', () => {
    expect(priceNumber(snapshot, 1, '12125550000', '447911123456', T0)).toMatchObject({
      code: '447',
      code_name: 'UK mobile',
      column: 'rate',
      jurisdiction: null,
      terms: { rate: 30_000n, min_time: 30, interval: 6, grace_time: 3, setup_fee: 0n, decimals: 4 },
    });
    expect(priceNumber(snapshot, 11, '12125550000', '12015550000', T0)).toMatchObject({
      column: 'inter_rate',
      jurisdiction: 'inter',
      terms: { rate: 9_000n },
    });
    expect(priceNumber(snapshot, 1, '1', '33123', T0)).toBeNull();
    expect(priceNumber(snapshot, 99, '1', '44', T0)).toBeNull();
  });

  it('bills the duration in the row increments and adds the setup fee', () => {
    const leg = rateCdrLeg(snapshot, 1, '12125550000', '442071234567', T0, 31);
    expect(leg?.billed_seconds).toBe(36);
    // 0.0100 + 0.0200 * 36 / 60 = 0.0220
    expect(formatMoney(leg?.cost ?? -1n, 4)).toBe('0.0220');
    expect(rateCdrLeg(snapshot, 1, '1', '447911123456', T0, 3)?.cost).toBe(0n); // grace
    expect(rateCdrLeg(snapshot, 1, '1', '33', T0, 30)).toBeNull();
  });
});

describe('failoverFor', () => {
  it("uses the snapshot trunk's rules, then the system defaults", () => {
    const config = withTrunk(
      baseConfig({
        settings: {
          default_ij_rule: 'inter',
          default_failover_rules: [{ sip_code: 503, action: 'return', return_code: 480 }],
        },
      }),
      11,
      { failover_rules: [{ sip_code: 503, action: 'next' }] },
    );
    const snapshot = buildSnapshot(config);
    expect(failoverFor(snapshot, 11, 503)).toBe('next');
    expect(failoverFor(snapshot, 12, 503)).toEqual({
      return_code: 480,
      return_clause: 'Temporarily Unavailable',
    });
    expect(failoverFor(snapshot, 999, 486)).toEqual({ return_code: 486, return_clause: 'Busy Here' });
  });
});

describe('rateCdr: both legs of a CDR', () => {
  const snapshot = buildSnapshot(
    withTrunk(withTrunk(baseConfig(), 1, { tech_prefix: '77#' }), 12, { bill_by: 'lrn' }),
  );
  const cdr = (over: Partial<Parameters<typeof rateCdr>[1]> = {}) => ({
    ingress_trunk_id: 1,
    egress_trunk_id: 11,
    ani: '12125550000',
    dnis: '77#442071234567',
    lrn: null,
    start_ms: T0,
    duration: 31,
    ...over,
  });

  it('bills the customer at its rate and pays the vendor at its own, profit the difference', () => {
    const r = rateCdr(snapshot, cdr());
    // customer 0.0200/min billed 30/6: 36 s = 0.0120; vendor 11 0.0100/min billed 1/1 (default 0/1): 31 s
    expect(r.ingress).toMatchObject({
      carrier_id: 1,
      rate_table_id: 1,
      code: '44',
      billed_seconds: 36,
      number: '442071234567',
    });
    expect(formatMoney(r.revenue, 4)).toBe('0.0120');
    expect(r.egress).toMatchObject({ carrier_id: 11, rate_table_id: 11, code: '44' });
    expect(r.cost).toBe(r.egress!.cost);
    expect(r.profit).toBe(r.revenue - r.cost);
    expect(r.unpriced).toBeNull();
  });

  it('prices a vendor that bills by LRN on the LRN', () => {
    const r = rateCdr(snapshot, cdr({ egress_trunk_id: 12, lrn: '447911000000' }));
    expect(r.egress).toMatchObject({ number: '447911000000', code: '44' });
    expect(r.ingress.number).toBe('442071234567');
  });

  it('an unanswered attempt costs nothing on either leg', () => {
    const r = rateCdr(snapshot, cdr({ duration: 0 }));
    expect([r.revenue, r.cost, r.ingress.billed_seconds]).toEqual([0n, 0n, 0]);
  });

  it('keeps a CDR it cannot price and says why', () => {
    expect(rateCdr(snapshot, cdr({ ingress_trunk_id: 999 })).unpriced).toBe('unknown_ingress_trunk');
    expect(rateCdr(snapshot, cdr({ dnis: '77#33123' })).unpriced).toBe('no_ingress_rate');
    const noVendorRate = rateCdr(snapshot, cdr({ egress_trunk_id: 12, dnis: '77#447911123456', lrn: '33' }));
    expect(noVendorRate.unpriced).toBe('no_egress_rate');
    expect(noVendorRate.cost).toBe(0n);
    expect(rateCdr(snapshot, cdr({ egress_trunk_id: 4242 })).unpriced).toBe('unknown_egress_trunk');
  });

  it('adds the customer short call charge to answered calls under the threshold', () => {
    const short = { seconds: 6, charges: new Map([[1, 50_000n]]) };
    expect(rateCdr(snapshot, cdr({ duration: 5 }), short).short_call_charge).toBe(50_000n);
    expect(rateCdr(snapshot, cdr({ duration: 6 }), short).short_call_charge).toBe(0n);
    expect(rateCdr(snapshot, cdr({ duration: 0 }), short).short_call_charge).toBe(0n);
  });

  it('rates at the row in force at the call start', () => {
    const dated = buildSnapshot(
      baseConfig({
        rate_tables: [
          rates(1, [
            { code: '44', rate: '0.0200', end_date: T0 },
            { code: '44', rate: '0.0500', effective_date: T0 },
          ]),
          rates(11, [{ code: '44', rate: '0.0100' }]),
          rates(12, []),
          rates(13, []),
        ],
      }),
    );
    const before = rateCdr(dated, cdr({ dnis: '442071234567', start_ms: T0 - 1000, duration: 60 }));
    const after = rateCdr(dated, cdr({ dnis: '442071234567', start_ms: T0, duration: 60 }));
    expect(formatMoney(before.revenue, 4)).toBe('0.0200');
    expect(formatMoney(after.revenue, 4)).toBe('0.0500');
  });
});
