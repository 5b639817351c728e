import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../src/snapshot';
import { priceNumber, rateCdrLeg } from '../src/cdr-rating';
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
