import { describe, expect, it } from 'vitest';
import { RateStore } from '../src/rate-store';
import type { RateRow } from '../src/rate-store';

const base: RateRow = {
  code: '1201',
  code_name: 'NJ',
  country: 'US',
  rate: 10n,
  intra_rate: 20n,
  inter_rate: null,
  ij_rate: 40n,
  local_rate: null,
  min_time: 6,
  interval: 6,
  grace_time: 0,
  setup_fee: 5n,
  effective_date: 1000,
  end_date: null,
};

describe('RateStore', () => {
  const store = new RateStore(2);
  store.write(0, base);
  store.write(1, {
    ...base,
    code: '1',
    intra_rate: null,
    local_rate: 50n,
    effective_date: null,
    end_date: 2000,
  });

  it('reads each column with the jurisdiction fallbacks', () => {
    expect(store.rateAt(0, 'rate')).toBe(10n);
    expect(store.rateAt(0, 'intra_rate')).toBe(20n);
    expect(store.rateAt(0, 'inter_rate')).toBe(10n); // missing: falls back to rate
    expect(store.rateAt(0, 'ij_rate')).toBe(40n);
    expect(store.rateAt(0, 'local_rate')).toBe(20n); // missing: intra
    expect(store.rateAt(1, 'local_rate')).toBe(50n);
    expect(store.rateAt(1, 'intra_rate')).toBe(10n);
  });

  it('gives rows back as objects, nulls included', () => {
    expect(store.row(0)).toEqual(base);
    expect(store.row(1)).toMatchObject({
      code: '1',
      intra_rate: null,
      local_rate: 50n,
      effective_date: null,
      end_date: 2000,
    });
  });

  it('knows which amounts fit an int64 column', () => {
    expect(RateStore.fits(2n ** 63n - 1n)).toBe(true);
    expect(RateStore.fits(2n ** 63n)).toBe(false);
    expect(RateStore.fits(-(2n ** 63n))).toBe(false); // the missing-rate marker
    expect(RateStore.fits(-(2n ** 63n) + 1n)).toBe(true);
  });
});

describe('RateStore.allocateSteps', () => {
  it('allocates the columns a step at a time and gives the same store as the constructor', () => {
    const count = (size: number) => {
      const steps = RateStore.allocateSteps(size);
      let yields = 0;
      let r = steps.next();
      for (; !r.done; r = steps.next()) yields++;
      return { yields, made: r.value };
    };
    // a small store: no pause; a large one: pauses between the 14 columns' groups
    expect(count(1000).yields).toBe(0);
    expect(count(100_000).yields).toBeGreaterThanOrEqual(8);
    const { made } = count(1000);
    const plain = new RateStore(1000);
    expect(made.size).toBe(1000);
    for (const k of [
      'code',
      'codeName',
      'country',
      'rate',
      'intra',
      'inter',
      'ij',
      'local',
      'setupFee',
      'minTime',
      'interval',
      'grace',
      'effective',
      'end',
    ] as const) {
      expect(made[k].length).toBe(1000);
      expect(made[k].constructor).toBe(plain[k].constructor);
    }
  });
});
