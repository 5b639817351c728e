import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { affordableSeconds, holdFor } from '../src/credit';
import { parseMoney } from '../src/money';
import { callCost, billedDuration, type LegTerms } from '../src/rating';
import { decide } from '../src/routing';
import { buildSnapshot } from '../src/snapshot';
import { baseConfig, call, withCarrier } from './fixtures';

const terms = (over: Partial<LegTerms> = {}): LegTerms => ({
  rate: parseMoney('0.0200'),
  setup_fee: 0n,
  min_time: 30,
  interval: 6,
  grace_time: 0,
  decimals: 4,
  ...over,
});

describe('affordableSeconds', () => {
  it('is the longest billed duration on the grid the credit pays', () => {
    // 0.0200 a minute: 0.0100 buys 30 s exactly, 0.0119 still 30 s (36 s cost 0.0120)
    expect(affordableSeconds(parseMoney('0.0100'), terms())).toBe(30);
    expect(affordableSeconds(parseMoney('0.0119'), terms())).toBe(30);
    expect(affordableSeconds(parseMoney('0.0120'), terms())).toBe(36);
    expect(affordableSeconds(parseMoney('0.0200'), terms())).toBe(60);
    expect(affordableSeconds(parseMoney('0.0099'), terms())).toBe(0);
    expect(affordableSeconds(0n, terms())).toBe(0);
    expect(affordableSeconds(-5n, terms())).toBe(0);
  });
  it('pays the setup fee first; 1/1 and 60/60 grids', () => {
    expect(affordableSeconds(parseMoney('0.0300'), terms({ setup_fee: parseMoney('0.0100') }))).toBe(60);
    expect(affordableSeconds(parseMoney('0.01'), terms({ min_time: 1, interval: 1 }))).toBe(30);
    expect(affordableSeconds(parseMoney('0.03'), terms({ min_time: 60, interval: 60 }))).toBe(60);
    expect(affordableSeconds(parseMoney('0.01'), terms({ min_time: 0, interval: 6 }))).toBe(30);
  });
  it('is null (no cap) for a free call and 0 when the setup fee alone is too much', () => {
    expect(affordableSeconds(1n, terms({ rate: 0n }))).toBeNull();
    expect(affordableSeconds(parseMoney('1'), terms({ rate: 0n, setup_fee: parseMoney('0.5') }))).toBeNull();
    expect(affordableSeconds(parseMoney('0.1'), terms({ rate: 0n, setup_fee: parseMoney('0.5') }))).toBe(0);
  });
  it('never grants a duration whose cost exceeds the credit, and the next step always would (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10_000_000_000n }),
        fc.bigInt({ min: 1n, max: 5_000_000n }),
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.constantFrom([0, 1], [1, 1], [6, 6], [30, 6], [60, 60], [0, 60]),
        fc.integer({ min: 0, max: 6 }),
        (available, rate, setup, [min_time, interval], decimals) => {
          const t = terms({ rate, setup_fee: setup, min_time: min_time!, interval: interval!, decimals });
          const s = affordableSeconds(available, t);
          expect(s).not.toBeNull();
          const cost = (sec: number) =>
            callCost(rate, billedDuration(sec, { ...t, grace_time: 0 }), setup, decimals);
          if (s! > 0) {
            expect(cost(s!)).toBeLessThanOrEqual(available);
            expect(holdFor(s!, t)).toBe(cost(s!));
          }
          // Maximal: one more step costs more than the credit, before or after rounding.
          const next = s! > 0 ? s! + interval! : Math.max(min_time!, interval!);
          const exactNext = rate * BigInt(billedDuration(next, { ...t, grace_time: 0 })) + setup * 60n;
          if (s! < 900_000_000) expect(exactNext > available * 60n || cost(next) > available).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('credit in the routing decision', () => {
  // Customer 1 is prepaid with 0.0100 of credit; 44 costs it 0.0200 a minute, billed 30/6.
  const prepaid = (balance: string) =>
    buildSnapshot(withCarrier(baseConfig(), 1, { mode: 'prepaid', balance, allowed_credit: '0' }));

  it('caps every route at what the credit buys and holds its cost', () => {
    const d = decide(prepaid('0.0100'), call(), {});
    expect(d.result).toBe('route');
    expect(d.routes.map((r) => r.max_duration_s)).toEqual([30, 30, 30]);
    expect(d.hold).toBe(parseMoney('0.0100'));
  });

  it('refuses with insufficient balance when the credit does not pay the first step', () => {
    const d = decide(prepaid('0.0099'), call(), {});
    expect(d.result).toBe('reject');
    expect(d.reject_reason).toBe('insufficient_balance');
  });

  it('subtracts what calls up hold: 30 concurrent calls against one minute of credit cannot all pass', () => {
    const snapshot = prepaid('0.0200');
    const held = new Map<number, bigint>();
    let admitted = 0;
    let granted = 0;
    for (let i = 0; i < 30; i++) {
      const d = decide(snapshot, call(), { held });
      if (d.result !== 'route') continue;
      admitted++;
      granted += d.routes[0]!.max_duration_s!;
      held.set(1, (held.get(1) ?? 0n) + (d.hold ?? 0n));
    }
    expect(granted).toBeLessThanOrEqual(60);
    expect(admitted).toBe(1);
    expect(held.get(1)).toBeLessThanOrEqual(parseMoney('0.0200'));
  });

  it('a postpaid customer within its limit gets a cap of what the limit leaves; unlimited credit none', () => {
    const postpaid = buildSnapshot(
      withCarrier(baseConfig(), 1, { balance: '-999.99', credit_limit: '1000' }),
    );
    const d = decide(postpaid, call(), {});
    expect(d.routes[0]!.max_duration_s).toBe(30); // 0.01 left buys 30 s
    const unlimited = buildSnapshot(
      withCarrier(baseConfig(), 1, { balance: '-5000', unlimited_credit: true }),
    );
    const u = decide(unlimited, call(), {});
    expect(u.result).toBe('route');
    expect(u.hold).toBeUndefined();
  });
});
