import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, parseMoney } from '../src/money';
import { RateGenRuleError, generateRates } from '../src/rategen';
import type { GeneratedRate, RateGenRule, RateGenVendor, VendorRate } from '../src/rategen';

const rule = (extra: Partial<RateGenRule> = {}): RateGenRule => ({
  rate_table_type: 'a_z',
  lcr_basis: 'lcr1',
  average_count: 3,
  default_rate: null,
  decimal_places: 4,
  margins: [],
  ...extra,
});
const v = (trunk_id: number, rows: [string, string, Partial<VendorRate>?][]): RateGenVendor => ({
  trunk_id,
  rows: rows.map(([code, rate, extra]) => ({ code, rate, ...extra })),
});
const shown = (rates: GeneratedRate[]) =>
  rates.map((r) => [r.code, formatMoney(r.rate.rate, 4), r.rate.trunk_id, r.rate.margin_index]);

const A = v(11, [
  ['44', '0.0100', { code_name: 'UK' }],
  ['447', '0.0500', { code_name: 'UK Mobile' }],
  ['33', '0.0200'],
]);
const B = v(22, [
  ['44', '0.0120'],
  ['4475', '0.0300'],
  ['49', '0.0400'],
]);
const C = v(33, [['44', '0.0090']]);

describe('generateRates: LCR basis and longest-prefix costs', () => {
  it('lcr1 sells the lowest vendor cost of each code, found by longest prefix in each vendor table', () => {
    const r = generateRates(rule(), [A, B], null, 0);
    // 4475: A's 447 (0.05) against B's 4475 (0.03); 447: A 0.05 against B's 44 (0.012).
    expect(shown(r)).toEqual([
      ['33', '0.0200', 11, null],
      ['44', '0.0100', 11, null],
      ['447', '0.0120', 22, null],
      ['4475', '0.0300', 22, null],
      ['49', '0.0400', 22, null],
    ]);
    expect(r.find((x) => x.code === '447')).toMatchObject({ code_name: 'UK Mobile', source: 'vendor' });
    expect(r.find((x) => x.code === '447')?.rate.vendor_count).toBe(2);
  });

  it('lcr2 and lcr3 take the 2nd and 3rd lowest, or the highest when fewer vendors price the code', () => {
    expect(
      shown(generateRates(rule({ lcr_basis: 'lcr2' }), [A, B, C], [{ code: '44' }, { code: '33' }], 0)),
    ).toEqual([
      ['33', '0.0200', 11, null],
      ['44', '0.0100', 11, null],
    ]);
    expect(shown(generateRates(rule({ lcr_basis: 'lcr3' }), [A, B, C], [{ code: '44' }], 0))).toEqual([
      ['44', '0.0120', 22, null],
    ]);
  });

  it('average takes the N lowest costs and rounds the exact average once', () => {
    // (0.009 + 0.010) / 2 = 0.0095; (0.009 + 0.010 + 0.012) / 3 = 0.010333.. -> 0.0103
    const two = generateRates(
      rule({ lcr_basis: 'average', average_count: 2 }),
      [A, B, C],
      [{ code: '44' }],
      0,
    );
    expect(formatMoney(two[0]!.rate.rate, 4)).toBe('0.0095');
    expect(two[0]!.rate.trunk_id).toBe(33);
    const three = generateRates(
      rule({ lcr_basis: 'average', average_count: 3 }),
      [A, B, C],
      [{ code: '44' }],
      0,
    );
    expect(formatMoney(three[0]!.rate.rate, 4)).toBe('0.0103');
    expect(formatMoney(three[0]!.rate.cost!, 6)).toBe('0.010333');
  });

  it('reads only rows effective at the generation instant', () => {
    const dated = v(1, [
      ['44', '0.0100', { effective_date: 0, end_date: 1000 }],
      ['44', '0.0200', { effective_date: 1000 }],
      ['33', '0.0500', { effective_date: 5000 }],
    ]);
    expect(shown(generateRates(rule(), [dated], null, 500))).toEqual([['44', '0.0100', 1, null]]);
    expect(shown(generateRates(rule(), [dated], null, 6000))).toEqual([
      ['33', '0.0500', 1, null],
      ['44', '0.0200', 1, null],
    ]);
  });
});

describe('generateRates: margins, default rate, rounding', () => {
  const margins = [
    { rate_from: '0', rate_to: '0.01', markup_type: 'percentage' as const, markup: '50' },
    { rate_from: '0.01', rate_to: '0.05', markup_type: 'percentage' as const, markup: '10' },
    { rate_from: '0.05', rate_to: null, markup_type: 'fixed' as const, markup: '0.005' },
  ];

  it('applies the markup of the range [from, to) the cost falls into', () => {
    const vendor = v(7, [
      ['1', '0.0080'],
      ['2', '0.0100'],
      ['3', '0.0499'],
      ['4', '0.0500'],
      ['5', '1.2345'],
    ]);
    expect(shown(generateRates(rule({ margins }), [vendor], null, 0))).toEqual([
      ['1', '0.0120', 7, 0],
      ['2', '0.0110', 7, 1],
      ['3', '0.0549', 7, 1], // 0.05489 -> 0.0549
      ['4', '0.0550', 7, 2],
      ['5', '1.2395', 7, 2],
    ]);
  });

  it('sells at cost when the cost is outside every range', () => {
    const r = generateRates(rule({ margins: margins.slice(1, 2) }), [v(1, [['1', '0.0080']])], null, 0);
    expect(formatMoney(r[0]!.rate.rate, 4)).toBe('0.0080');
    expect(r[0]!.rate.margin_index).toBeNull();
  });

  it('rounds half up to the decimal places, once, from the exact figure', () => {
    const r = generateRates(
      rule({
        decimal_places: 2,
        margins: [{ rate_from: '0', rate_to: null, markup_type: 'percentage', markup: '25' }],
      }),
      [
        v(1, [
          ['1', '0.0100'],
          ['2', '0.0180'],
        ]),
      ],
      null,
      0,
    );
    // 0.0125 -> 0.01; 0.0225 -> 0.02 (the digit after the 2nd place is 2)
    expect(r.map((x) => formatMoney(x.rate.rate, 2))).toEqual(['0.01', '0.02']);
    const up = generateRates(rule({ decimal_places: 3 }), [v(1, [['1', '0.0125']])], null, 0);
    expect(formatMoney(up[0]!.rate.rate, 3)).toBe('0.013');
  });

  it('gives codes of the deck that no vendor prices the default rate, or leaves them out', () => {
    const deck = [{ code: '44', code_name: 'United Kingdom', country: 'GB' }, { code: '999' }];
    expect(shown(generateRates(rule(), [A], deck, 0))).toEqual([['44', '0.0100', 11, null]]);
    const withDefault = generateRates(rule({ default_rate: '0.25' }), [A], deck, 0);
    expect(shown(withDefault)).toEqual([
      ['44', '0.0100', 11, null],
      ['999', '0.2500', null, null],
    ]);
    expect(withDefault[0]).toMatchObject({ code_name: 'United Kingdom', country: 'GB' });
    expect(withDefault[1]).toMatchObject({ source: 'default', rate: { cost: null, vendor_count: 0 } });
  });
});

describe('generateRates: US jurisdictional templates', () => {
  it('prices each jurisdiction column from the same column of the vendors, with the fallbacks', () => {
    const x = v(1, [['1201', '0.0100', { intra_rate: '0.0050', inter_rate: '0.0080', ij_rate: null }]]);
    const y = v(2, [['1201', '0.0090', { intra_rate: '0.0070', local_rate: '0.0010' }]]);
    const [r] = generateRates(rule({ rate_table_type: 'us_jurisdictional' }), [x, y], null, 0);
    expect(formatMoney(r!.rate.rate, 4)).toBe('0.0090');
    expect(formatMoney(r!.intra_rate!.rate, 4)).toBe('0.0050');
    expect(r!.intra_rate!.trunk_id).toBe(1);
    expect(formatMoney(r!.inter_rate!.rate, 4)).toBe('0.0080'); // y has no inter: its rate 0.009
    expect(formatMoney(r!.ij_rate!.rate, 4)).toBe('0.0090'); // x: 0.01, y: 0.009 (both fall back)
    expect(formatMoney(r!.local_rate!.rate, 4)).toBe('0.0010');
    const [plain] = generateRates(rule(), [x, y], null, 0);
    expect(plain!.intra_rate).toBeNull();
  });
});

describe('generateRates: rules it refuses', () => {
  it('refuses overlapping or empty ranges and bad decimal places', () => {
    const overlap = [
      { rate_from: '0', rate_to: '0.02', markup_type: 'fixed' as const, markup: '0' },
      { rate_from: '0.01', rate_to: null, markup_type: 'fixed' as const, markup: '0' },
    ];
    expect(() => generateRates(rule({ margins: overlap }), [A], null, 0)).toThrow(RateGenRuleError);
    expect(() =>
      generateRates(
        rule({ margins: [{ rate_from: '1', rate_to: '1', markup_type: 'fixed', markup: '0' }] }),
        [A],
        null,
        0,
      ),
    ).toThrow(RateGenRuleError);
    expect(() => generateRates(rule({ decimal_places: 7 }), [A], null, 0)).toThrow(RateGenRuleError);
  });
});

// ------------------------------------------------------------------------------------------------
// Properties against a naive reference
// ------------------------------------------------------------------------------------------------

const digit = fc.constantFrom('1', '2', '3');
const code = fc.string({ unit: digit, minLength: 1, maxLength: 4 });
const micros = fc.bigInt({ min: 0n, max: 2_000_000n });
const vendorArb = fc.array(fc.record({ code, rate: micros }), { maxLength: 8 });

/** Longest code of `rows` that prefixes `number` (all rows always effective). */
function naiveCost(rows: { code: string; rate: bigint }[], number: string): bigint | undefined {
  let best: { code: string; rate: bigint } | undefined;
  for (const r of rows)
    if (number.startsWith(r.code) && (!best || r.code.length > best.code.length)) best = r;
  return best?.rate;
}

describe('generateRates properties', () => {
  it('lcr1 without margins sells the lowest longest-prefix cost, rounded half up', () => {
    fc.assert(
      fc.property(
        fc.array(vendorArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 6 }),
        (tables, dp) => {
          // One row per code per vendor (a table has a code once at a time).
          const vendors = tables.map((rows, i) => ({
            trunk_id: i + 1,
            rows: [...new Map(rows.map((r) => [r.code, r])).values()],
          }));
          const out = generateRates(rule({ decimal_places: dp }), vendors, null, 0);
          const all = new Set(vendors.flatMap((x) => x.rows.map((r) => r.code)));
          expect(out.map((r) => r.code)).toEqual([...all].sort());
          for (const r of out) {
            const costs = vendors
              .map((x) => naiveCost(x.rows, r.code))
              .filter((c): c is bigint => c !== undefined);
            const min = costs.reduce((a, b) => (b < a ? b : a));
            expect(r.rate.cost).toBe(min);
            expect(r.rate.rate).toBe(parseMoney(formatMoney(min, dp)));
            expect(r.rate.vendor_count).toBe(costs.length);
          }
        },
      ),
    );
  });

  it('a percentage markup is within half a step of cost * (100 + p) / 100 and never below the cost at 6 places', () => {
    fc.assert(
      fc.property(
        micros,
        fc.bigInt({ min: 0n, max: 500_000_000n }),
        fc.integer({ min: 0, max: 6 }),
        (cost, p, dp) => {
          const [r] = generateRates(
            rule({
              decimal_places: dp,
              margins: [{ rate_from: '0', rate_to: null, markup_type: 'percentage', markup: p }],
            }),
            [{ trunk_id: 1, rows: [{ code: '1', rate: cost }] }],
            null,
            0,
          );
          const exactTimes100 = cost * (100_000_000n + p); // rate * 1e8
          const step = 10n ** BigInt(6 - dp);
          const diff = r!.rate.rate * 100_000_000n - exactTimes100;
          expect(diff * 2n <= step * 100_000_000n && -diff * 2n < step * 100_000_000n).toBe(true);
          if (dp === 6) expect(r!.rate.rate >= cost).toBe(true);
        },
      ),
    );
  });

  it('average of N equals the exact mean of the N lowest costs, rounded once', () => {
    fc.assert(
      fc.property(
        fc.array(micros, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 6 }),
        (costs, n) => {
          const vendors = costs.map((c, i) => ({ trunk_id: i + 1, rows: [{ code: '9', rate: c }] }));
          const [r] = generateRates(
            rule({ lcr_basis: 'average', average_count: n, decimal_places: 6 }),
            vendors,
            null,
            0,
          );
          const lowest = [...costs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, n);
          const sum = lowest.reduce((a, b) => a + b, 0n);
          const k = BigInt(lowest.length);
          // |rate - sum / k| <= 1/2 micro
          const diff = r!.rate.rate * k - sum;
          expect(2n * (diff < 0n ? -diff : diff) <= k).toBe(true);
        },
      ),
    );
  });
});
