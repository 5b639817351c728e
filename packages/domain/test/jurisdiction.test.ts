import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  JurisdictionIndex,
  RATE_COLUMN_FALLBACK,
  nanpOffset,
  nanpTenDigits,
  rateColumnFor,
  rateInColumn,
} from '../src/jurisdiction';
import type { Jurisdiction, RateColumn } from '../src/jurisdiction';
import { RateStore } from '../src/rate-store';

const data = new Map([
  ['212555', { state: 'NY', lata: '132' }],
  ['718555', { state: 'NY', lata: '132' }],
  ['315555', { state: 'NY', lata: '134' }],
  ['201555', { state: 'NJ', lata: '224' }],
  ['416555', { state: 'ON', lata: null, country: 'CA' }],
]);
const index = JurisdictionIndex.build(data);

describe('NANP numbers', () => {
  it.each([
    ['2125551234', 0, '2125551234'],
    ['12125551234', 1, '2125551234'],
    ['22125551234', -1, null],
    ['212555123', -1, null],
    ['1212555123a', -1, null],
    ['1125551234', -1, null], // NPA starting with 1
    ['2121551234', -1, null], // NXX starting with 1
    ['', -1, null],
  ])('%s', (number, offset, ten) => {
    expect(nanpOffset(number)).toBe(offset);
    expect(nanpTenDigits(number)).toBe(ten);
  });
});

describe('JurisdictionIndex.classify', () => {
  it.each<[string, string, boolean, Jurisdiction]>([
    ['12125550000', '17185550001', false, 'intra'],
    ['2125550000', '3155550001', false, 'intra'],
    ['12125550000', '12015550001', false, 'inter'],
    ['12125550000', '17185550001', true, 'local'],
    ['12125550000', '13155550001', true, 'intra'], // same state, other LATA
    ['12125550000', '12015550001', true, 'inter'],
    ['19995550000', '12015550001', false, 'indeterminate'], // ANI NPA-NXX unknown
    ['anonymous', '12015550001', false, 'indeterminate'], // ANI not a number
    ['442071234567', '12015550001', false, 'indeterminate'], // ANI not NANP
    ['14165550000', '12015550001', false, 'indeterminate'], // ANI in Canada
    ['12125550000', '19995550001', false, 'indeterminate'], // DNIS unknown
    ['12125550000', '14165550001', false, 'indeterminate'], // DNIS not US
  ])('%s -> %s (local rate %s) = %s', (ani, dnis, local, expected) => {
    expect(index.classify(ani, dnis, local)).toBe(expected);
  });

  it('looks up state and LATA in either number form', () => {
    expect(index.size).toBe(5);
    expect(index.lookup('12015559999')?.state).toBe('NJ');
    expect(index.lookup('2015559999')?.lata).toBe('224');
    expect(index.lookup('2015569999')).toBeUndefined();
  });

  it('builds from a plain record and refuses bad keys', () => {
    const fromRecord = JurisdictionIndex.build({ '305555': { state: 'FL' } });
    expect(fromRecord.classify('3055550000', '13055551111', true)).toBe('intra'); // LATA unknown: not local
    expect(() => JurisdictionIndex.build({ '30555': { state: 'FL' } })).toThrow(/6 digits/);
    expect(() => JurisdictionIndex.build({ '105555': { state: 'FL' } })).toThrow(/6 digits/);
  });

  it('property: intra/inter follows the states, symmetric in both directions', () => {
    const npaNxx = fc.constantFrom(...data.keys());
    fc.assert(
      fc.property(npaNxx, npaNxx, fc.integer({ min: 0, max: 9999 }), (a, b, line) => {
        const ani = `1${a}${String(line).padStart(4, '0')}`;
        const dnis = `${b}0000`;
        const there = index.classify(ani, dnis, false);
        const back = index.classify(dnis, ani, false);
        const sa = data.get(a);
        const sb = data.get(b);
        if (sa?.country || sb?.country) return there === 'indeterminate' && back === 'indeterminate';
        return there === back && there === (sa?.state === sb?.state ? 'intra' : 'inter');
      }),
    );
  });
});

describe('rate column', () => {
  const row = { rate: 10n, intra_rate: 20n, inter_rate: 30n, ij_rate: 40n, local_rate: 50n };
  const bare = { rate: 10n, intra_rate: 20n, inter_rate: null, ij_rate: null, local_rate: null };

  it('uses `rate` for A-Z and US non-jurisdictional tables', () => {
    expect(rateColumnFor('a_z', 'inter', 'ij')).toBe('rate');
    expect(rateColumnFor('us_non_jurisdictional', 'intra', 'ij')).toBe('rate');
    expect(rateColumnFor('us_jurisdictional', null, 'ij')).toBe('rate');
  });

  it.each<[Jurisdiction, 'inter' | 'intra' | 'ij', string, bigint]>([
    ['intra', 'ij', 'intra_rate', 20n],
    ['inter', 'ij', 'inter_rate', 30n],
    ['local', 'ij', 'local_rate', 50n],
    ['indeterminate', 'ij', 'ij_rate', 40n],
    ['indeterminate', 'inter', 'inter_rate', 30n],
    ['indeterminate', 'intra', 'intra_rate', 20n],
  ])('US jurisdictional %s with IJ rule %s -> %s', (j, rule, column, rate) => {
    const chosen = rateColumnFor('us_jurisdictional', j, rule);
    expect(chosen).toBe(column);
    expect(rateInColumn(row, chosen)).toBe(rate);
  });

  it('falls back when the row lacks the column', () => {
    expect(rateInColumn(bare, 'inter_rate')).toBe(10n);
    expect(rateInColumn(bare, 'ij_rate')).toBe(10n);
    expect(rateInColumn(bare, 'local_rate')).toBe(20n);
    expect(rateInColumn({ rate: 7n }, 'local_rate')).toBe(7n);
  });
});

describe('rate column fallbacks', () => {
  const columns = Object.keys(RATE_COLUMN_FALLBACK) as RateColumn[];
  const optional = fc.option(fc.bigInt({ min: 0n, max: 10n ** 12n }), { nil: null });
  const rows = fc.record({
    rate: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    intra_rate: optional,
    inter_rate: optional,
    ij_rate: optional,
    local_rate: optional,
  });

  it('rateInColumn and the rate columns of a snapshot take the first column the list names that the row has', () => {
    fc.assert(
      fc.property(rows, (row) => {
        const store = new RateStore(1);
        store.write(0, {
          ...row,
          code: '1',
          code_name: null,
          country: null,
          min_time: 1,
          interval: 1,
          grace_time: 0,
          setup_fee: 0n,
          effective_date: null,
          end_date: null,
        });
        for (const column of columns) {
          const expected = RATE_COLUMN_FALLBACK[column]
            .map((c) => row[c])
            .find((v): v is bigint => v !== null);
          expect(rateInColumn(row, column)).toBe(expected);
          expect(store.rateAt(0, column)).toBe(expected);
        }
      }),
    );
  });
});
