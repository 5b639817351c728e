import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MoneyFormatError,
  chargeForSeconds,
  divideRoundHalfUp,
  formatMoney,
  formatMicros,
  formatMoneyDifference,
  isExactMicros,
  marginPercent,
  maximumCost,
  meetsMinimumMargin,
  parseMoney,
  roundMoney,
  sumMoney,
  toMicros,
} from '../src/money';

describe('parseMoney', () => {
  it.each([
    ['0.2875', 287_500n],
    ['-1.5', -1_500_000n],
    ['12', 12_000_000n],
    ['.5', 500_000n],
    ['+3.', 3_000_000n],
    ['0.000001', 1n],
    ['1.2500000', 1_250_000n],
    [' 7.25 ', 7_250_000n],
    ['-0', 0n],
  ])('%s -> %s micros', (text, micros) => {
    expect(parseMoney(text)).toBe(micros);
  });

  it.each(['', '.', '-', '1e5', '1,000.00', 'abc', '0.0000005', '1.2.3', '--1'])('refuses "%s"', (text) => {
    expect(() => parseMoney(text)).toThrow(MoneyFormatError);
  });

  it('passes bigint micros through toMicros', () => {
    expect(toMicros(42n)).toBe(42n);
    expect(toMicros('0.042')).toBe(42_000n);
  });
});

describe('formatMoney and roundMoney', () => {
  it.each([
    [287_500n, 4, '0.2875'],
    [287_500n, 2, '0.29'],
    [125_000n, 2, '0.13'],
    [124_999n, 2, '0.12'],
    [-125_000n, 2, '-0.13'],
    [-124_999n, 2, '-0.12'],
    [-1_500_000n, 0, '-2'],
    [1_500_000n, 0, '2'],
    [-4_000n, 2, '0.00'],
    [5n, 6, '0.000005'],
    [12_000_000n, 6, '12.000000'],
    [0n, 3, '0.000'],
  ])('%s micros at %i places -> %s', (micros, places, text) => {
    expect(formatMoney(micros, places)).toBe(text);
  });

  it('rounds half away from zero in micro-units', () => {
    expect(roundMoney(1_234_550n, 4)).toBe(1_234_600n);
    expect(roundMoney(1_234_549n, 4)).toBe(1_234_500n);
    expect(roundMoney(-1_234_550n, 4)).toBe(-1_234_600n);
    expect(roundMoney(999_999n, 0)).toBe(1_000_000n);
    expect(roundMoney(7n, 6)).toBe(7n);
  });

  it('refuses decimal places outside 0..6', () => {
    expect(() => formatMoney(1n, 7)).toThrow(RangeError);
    expect(() => roundMoney(1n, -1)).toThrow(RangeError);
    expect(() => roundMoney(1n, 1.5)).toThrow(RangeError);
  });

  it('divides rounding half away from zero', () => {
    expect(divideRoundHalfUp(5n, 2n)).toBe(3n);
    expect(divideRoundHalfUp(-5n, 2n)).toBe(-3n);
    expect(divideRoundHalfUp(4n, 3n)).toBe(1n);
    expect(divideRoundHalfUp(5n, 3n)).toBe(2n);
  });
});

const micros = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });
const places = fc.integer({ min: 0, max: 6 });

describe('money properties', () => {
  it('format at 6 places then parse gives the same amount', () => {
    fc.assert(fc.property(micros, (m) => parseMoney(formatMoney(m, 6)) === m));
  });

  it('formatting at N places equals formatting the rounded amount', () => {
    fc.assert(
      fc.property(micros, places, (m, n) => {
        const rounded = roundMoney(m, n);
        return formatMoney(m, n) === formatMoney(rounded, n) && parseMoney(formatMoney(m, n)) === rounded;
      }),
    );
  });

  it('rounding moves an amount by at most half a step, and is idempotent and symmetric', () => {
    fc.assert(
      fc.property(micros, places, (m, n) => {
        const step = 10n ** BigInt(6 - n);
        const r = roundMoney(m, n);
        const diff = r - m;
        return (
          r % step === 0n &&
          2n * (diff < 0n ? -diff : diff) <= step &&
          roundMoney(r, n) === r &&
          roundMoney(-m, n) === -r
        );
      }),
    );
  });

  it('a decimal string with up to 6 places round-trips through parse and format', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 999_999 }), (w, f) => {
        const text = `${w}.${String(f).padStart(6, '0')}`;
        return formatMoney(parseMoney(text), 6) === text;
      }),
    );
  });

  it('sums exactly where floats would not', () => {
    const tenths = Array.from({ length: 10 }, () => parseMoney('0.1'));
    expect(formatMoney(sumMoney(tenths), 2)).toBe('1.00');
    expect(parseMoney('0.1') + parseMoney('0.2')).toBe(parseMoney('0.3'));
  });
});

describe('chargeForSeconds', () => {
  it('charges rate * seconds / 60 rounded once', () => {
    expect(chargeForSeconds(parseMoney('0.2875'), 30, 4)).toBe(parseMoney('0.1438')); // 0.14375
    expect(chargeForSeconds(parseMoney('0.2875'), 30, 6)).toBe(parseMoney('0.14375'));
    expect(chargeForSeconds(parseMoney('0.01'), 1, 6)).toBe(parseMoney('0.000167')); // 0.0001666..
    expect(chargeForSeconds(parseMoney('0.01'), 1, 4)).toBe(parseMoney('0.0002'));
    expect(chargeForSeconds(parseMoney('0.001'), 1, 4)).toBe(0n); // 0.0000166..
    expect(chargeForSeconds(parseMoney('1'), 60, 0)).toBe(parseMoney('1'));
    expect(chargeForSeconds(parseMoney('0.5'), 0, 2)).toBe(0n);
  });

  it('is additive over whole minutes', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.integer({ min: 0, max: 1000 }),
        (rate, minutes) => {
          return chargeForSeconds(rate, minutes * 60, 6) === rate * BigInt(minutes);
        },
      ),
    );
  });

  it('refuses fractional or negative seconds', () => {
    expect(() => chargeForSeconds(1n, 1.5, 4)).toThrow(RangeError);
    expect(() => chargeForSeconds(1n, -1, 4)).toThrow(RangeError);
  });
});

describe('margins', () => {
  it('compares the margin exactly with the minimum percentage', () => {
    // revenue 0.0100, cost 0.0095: margin 5 %
    expect(meetsMinimumMargin(10_000n, 9_500n, parseMoney('5'))).toBe(true);
    expect(meetsMinimumMargin(10_000n, 9_500n, parseMoney('5.000001'))).toBe(false);
    expect(meetsMinimumMargin(10_000n, 10_001n, 0n)).toBe(false);
    expect(meetsMinimumMargin(10_000n, 10_001n, parseMoney('-1'))).toBe(true);
    expect(meetsMinimumMargin(0n, 0n, 0n)).toBe(true);
    expect(meetsMinimumMargin(0n, 0n, parseMoney('1'))).toBe(false);
    expect(meetsMinimumMargin(0n, 1n, parseMoney('-50'))).toBe(false);
    expect(marginPercent(10_000n, 9_500n)).toBe('5.00');
    expect(marginPercent(30_000n, 20_000n, 3)).toBe('33.333');
    expect(marginPercent(0n, 1n)).toBeNull();
  });
});

/** Reference formatting on bigint only: the specification formatMoney must meet. */
function referenceFormat(m: bigint, places: number): string {
  const step = 10n ** BigInt(6 - places);
  const negative = m < 0n;
  const magnitude = negative ? -m : m;
  let q = magnitude / step;
  if ((magnitude % step) * 2n >= step) q += 1n;
  let digits = q.toString();
  if (places > 0) {
    digits = digits.padStart(places + 1, '0');
    digits = `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  }
  return negative && q !== 0n ? `-${digits}` : digits;
}

describe('formatMoney fast path', () => {
  const edge = 2n ** 52n;
  const amounts = fc.oneof(
    fc.bigInt({ min: -1_000_000_000n, max: 1_000_000_000n }),
    fc.bigInt({ min: edge - 5_000_000n, max: edge + 5_000_000n }),
    fc.bigInt({ min: -edge - 5_000_000n, max: -edge + 5_000_000n }),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    // where the 32-bit integer path (below 10^9 micro-units) hands over to the double path
    fc.bigInt({ min: 999_000_000n, max: 1_001_000_000n }),
    fc.bigInt({ min: -1_001_000_000n, max: -999_000_000n }),
    // below one unit, where texts are kept and given again
    fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
  );

  it('agrees with bigint-only formatting everywhere, including around 10^9 and 2^52', () => {
    fc.assert(
      fc.property(amounts, places, (m, n) => formatMoney(m, n) === referenceFormat(m, n)),
      { numRuns: 2000 },
    );
    const int32Edge = [999_999_999n, 1_000_000_000n, 999_500_000n, 999_499_999n, 2n ** 31n - 1n, 2n ** 31n];
    for (const m of [
      edge - 1n,
      edge,
      edge + 1n,
      -edge + 1n,
      -edge,
      edge - 500_000n,
      edge - 499_999n,
      ...int32Edge,
      ...int32Edge.map((v) => -v),
    ]) {
      for (let n = 0; n <= 6; n++) expect(formatMoney(m, n)).toBe(referenceFormat(m, n));
    }
  });
});

describe('formatMoney below one unit (texts kept for reuse)', () => {
  it('gives the same text the first and the second time, for both signs and every place count', () => {
    const amounts = [0n, 1n, 4n, 5n, 49n, 50n, 499_999n, 500_000n, 999_499n, 999_500n, 999_999n, 12_345n];
    for (let n = 0; n <= 6; n++) {
      for (const m of [...amounts, ...amounts.map((v) => -v)]) {
        const first = formatMoney(m, n);
        expect(first).toBe(referenceFormat(m, n));
        expect(formatMoney(m, n)).toBe(first);
      }
    }
    // rounding to zero keeps no minus sign, and a kept "-0.x" text is not given for "0.x"
    expect(formatMoney(-4n, 5)).toBe('0.00000');
    expect(formatMoney(-123_400n, 4)).toBe('-0.1234');
    expect(formatMoney(123_400n, 4)).toBe('0.1234');
    expect(formatMoneyDifference(10_000n, 22_345n, 6)).toBe('-0.012345');
    expect(formatMoneyDifference(22_345n, 10_000n, 6)).toBe('0.012345');
  });

  it('keeps formatting right once a table holds as many texts as it keeps (100,000)', () => {
    for (let m = 0; m < 120_000; m++)
      expect(formatMoney(BigInt(m) + 200_000n, 6)).toBe(referenceFormat(BigInt(m) + 200_000n, 6));
    expect(formatMoney(987_654n, 6)).toBe('0.987654');
    expect(formatMoney(987_654n, 6)).toBe('0.987654');
    expect(formatMoney(200_001n, 6)).toBe('0.200001');
  });
});

describe('formatMicros (amounts already converted with Number)', () => {
  it('formats like formatMoney wherever isExactMicros holds, and says where that ends', () => {
    const limit = 2n ** 51n;
    fc.assert(
      fc.property(fc.bigInt({ min: -limit + 1n, max: limit - 1n }), places, (m, n) => {
        return isExactMicros(Number(m)) && formatMicros(Number(m), n) === referenceFormat(m, n);
      }),
      { numRuns: 1000 },
    );
    expect(isExactMicros(Number(limit - 1n))).toBe(true);
    expect(isExactMicros(Number(limit))).toBe(false);
    expect(isExactMicros(Number(-limit))).toBe(false);
    expect(() => formatMicros(1, 7)).toThrow(RangeError);
  });
});

describe('maximumCost', () => {
  it('is the largest cost meeting the margin', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -1000n, max: 10n ** 9n }),
        fc.bigInt({ min: -(10n ** 8n), max: 2n * 10n ** 8n }),
        fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
        (revenue, minPercent, cost) => {
          const direct =
            revenue <= 0n
              ? cost <= 0n && minPercent <= 0n
              : (revenue - cost) * 100_000_000n >= minPercent * revenue;
          const ceiling = maximumCost(revenue, minPercent);
          return (
            meetsMinimumMargin(revenue, cost, minPercent) === direct &&
            (ceiling === null || meetsMinimumMargin(revenue, ceiling, minPercent))
          );
        },
      ),
    );
    expect(maximumCost(10_000n, parseMoney('5'))).toBe(9_500n);
    expect(maximumCost(10_000n, parseMoney('150'))).toBe(-5_000n);
    expect(maximumCost(3n, parseMoney('50'))).toBe(1n);
    expect(maximumCost(0n, 1n)).toBeNull();
  });
});

describe('parseMoney fast path', () => {
  /** Reference: the decimal string's value in micro-units by string surgery and BigInt. */
  function referenceParse(text: string): bigint {
    const negative = text.startsWith('-');
    const [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.');
    const micros = BigInt((whole || '0') + fraction.padEnd(6, '0'));
    return negative ? -micros : micros;
  }

  it('agrees with the reference on plain decimals of every size', () => {
    const text = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^\d{1,12}$/),
        fc.option(fc.stringMatching(/^\d{0,6}$/), { nil: undefined }),
      )
      .map(
        ([negative, whole, fraction]) =>
          `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
      );
    fc.assert(
      fc.property(text, (t) => parseMoney(t) === referenceParse(t)),
      { numRuns: 2000 },
    );
    expect(parseMoney('999999999.999999')).toBe(999_999_999_999_999n);
    expect(parseMoney('1000000000.000001')).toBe(1_000_000_000_000_001n);
    expect(parseMoney('-0.000001')).toBe(-1n);
  });
});

describe('formatMoneyDifference', () => {
  it('equals formatting the difference', () => {
    const any = fc.oneof(
      fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
      fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
    );
    fc.assert(
      fc.property(any, any, places, (a, b, n) => formatMoneyDifference(a, b, n) === formatMoney(a - b, n)),
    );
    expect(formatMoneyDifference(20_000n, 8_000n, 4)).toBe('0.0120');
    expect(formatMoneyDifference(8_000n, 20_000n, 4)).toBe('-0.0120');
    expect(formatMoneyDifference(12_345_678n, 0n, 3)).toBe('12.346');
  });
});
