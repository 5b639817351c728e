import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseMoney, formatMoney } from '../src/money';
import { BillingTermsError, billedDuration, callCost, rateCall, rateLeg } from '../src/rating';

const terms = (min_time: number, interval: number, grace_time = 0) => ({ min_time, interval, grace_time });

describe('billedDuration', () => {
  it.each([
    // [min/interval, duration, billed]
    ['1/1', terms(1, 1), 1, 1],
    ['1/1', terms(1, 1), 37, 37],
    ['1/1', terms(1, 1), 36.2, 37],
    ['6/6', terms(6, 6), 1, 6],
    ['6/6', terms(6, 6), 6, 6],
    ['6/6', terms(6, 6), 7, 12],
    ['6/6', terms(6, 6), 61, 66],
    ['30/6', terms(30, 6), 1, 30],
    ['30/6', terms(30, 6), 30, 30],
    ['30/6', terms(30, 6), 31, 36],
    ['30/6', terms(30, 6), 36, 36],
    ['30/6', terms(30, 6), 37, 42],
    ['60/60', terms(60, 60), 5, 60],
    ['60/60', terms(60, 60), 60, 60],
    ['60/60', terms(60, 60), 61, 120],
    ['60/60', terms(60, 60), 121, 180],
    ['0/6', terms(0, 6), 4, 6],
    ['0/1', terms(0, 1), 0.4, 1],
  ])('%s: %s s answered -> %i s billed', (_label, t, duration, billed) => {
    expect(billedDuration(duration, t)).toBe(billed);
  });

  it('bills nothing for an unanswered call', () => {
    expect(billedDuration(0, terms(30, 6))).toBe(0);
    expect(billedDuration(0, terms(0, 1))).toBe(0);
  });

  it('bills nothing within the grace time, inclusive', () => {
    expect(billedDuration(3, terms(30, 6, 3))).toBe(0);
    expect(billedDuration(3.5, terms(30, 6, 3))).toBe(30);
    expect(billedDuration(6, terms(6, 6, 6))).toBe(0);
    expect(billedDuration(7, terms(6, 6, 6))).toBe(12);
  });

  it('refuses bad increments and durations', () => {
    expect(() => billedDuration(10, terms(30, 0))).toThrow(BillingTermsError);
    expect(() => billedDuration(10, terms(-1, 6))).toThrow(/min_time/);
    expect(() => billedDuration(10, terms(30, 6, 1.5))).toThrow(/grace_time/);
    expect(() => billedDuration(-1, terms(30, 6))).toThrow(/duration/);
    expect(() => billedDuration(Number.NaN, terms(30, 6))).toThrow(/duration/);
  });

  it('property: billed covers the call, in whole increments after the minimum', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 100_000 }),
        (min, interval, grace, durationTenths) => {
          const duration = durationTenths / 10;
          const billed = billedDuration(duration, terms(min, interval, grace));
          if (duration === 0 || duration <= grace) return billed === 0;
          return (
            billed >= duration &&
            billed >= min &&
            (billed - min) % interval === 0 &&
            (billed === min || billed - interval < duration)
          );
        },
      ),
    );
  });
});

describe('callCost', () => {
  const r = parseMoney;

  it('charges rate * billed / 60, rounded half-up to the table decimals', () => {
    // 0.2875/min for 36 s = 0.1725
    expect(formatMoney(callCost(r('0.2875'), 36, 0n, 4), 4)).toBe('0.1725');
    // 0.0125/min for 6 s = 0.00125 -> 0.0013 at 4 places, 0.001 at 3
    expect(formatMoney(callCost(r('0.0125'), 6, 0n, 4), 4)).toBe('0.0013');
    expect(formatMoney(callCost(r('0.0125'), 6, 0n, 3), 3)).toBe('0.001');
    expect(formatMoney(callCost(r('0.0125'), 6, 0n, 6), 6)).toBe('0.001250');
    // 0.0101/min for 1 s = 0.000168333.. -> 0.000168
    expect(callCost(r('0.0101'), 1, 0n, 6)).toBe(168n);
  });

  it('adds the setup fee before rounding once', () => {
    // 0.05 + 0.0125 * 6 / 60 = 0.05125 -> 0.0513 at 4 places
    expect(formatMoney(callCost(r('0.0125'), 6, r('0.05'), 4), 4)).toBe('0.0513');
    expect(formatMoney(callCost(r('0.0125'), 6, r('0.05'), 2), 2)).toBe('0.05');
    expect(formatMoney(callCost(0n, 60, r('0.1'), 2), 2)).toBe('0.10');
  });

  it('charges nothing, not even the setup fee, when nothing is billed', () => {
    expect(callCost(r('0.5'), 0, r('0.05'), 4)).toBe(0n);
  });

  it('rates a leg and a call: revenue, cost and profit', () => {
    const ingress = { ...terms(30, 6), rate: r('0.0150'), setup_fee: 0n, decimals: 4 };
    const egress = { ...terms(6, 6), rate: r('0.0100'), setup_fee: 0n, decimals: 4 };
    expect(rateLeg(31, ingress)).toEqual({ billed_seconds: 36, cost: r('0.009') });
    const call = rateCall(31, ingress, egress);
    expect(call.ingress.billed_seconds).toBe(36);
    expect(call.egress?.billed_seconds).toBe(36);
    expect(formatMoney(call.revenue, 4)).toBe('0.0090');
    expect(formatMoney(call.cost, 4)).toBe('0.0060');
    expect(formatMoney(call.profit, 4)).toBe('0.0030');
    const unanswered = rateCall(0, ingress, egress);
    expect(unanswered.profit).toBe(0n);
    expect(rateCall(10, ingress, null).cost).toBe(0n);
  });

  it('property: cost is within half a unit of the exact value', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10_000_000n }),
        fc.integer({ min: 0, max: 7200 }),
        fc.integer({ min: 0, max: 6 }),
        (rate, seconds, decimals) => {
          const cost = callCost(rate, seconds, 0n, decimals);
          const step = 10n ** BigInt(6 - decimals);
          const exactTimes60 = rate * BigInt(seconds);
          const diff = cost * 60n - exactTimes60;
          return cost % step === 0n && 2n * (diff < 0n ? -diff : diff) <= 60n * step;
        },
      ),
    );
  });
});
