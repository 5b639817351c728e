import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePrefixes, compareRates, type ComparedRow } from '../src/rate-compare';

interface Row extends ComparedRow {
  table: string;
}
const T0 = Date.UTC(2026, 0, 1);
const T1 = Date.UTC(2026, 5, 1);
const row = (table: string, code: string, rate: string, from = T0, to: number | null = null): Row => ({
  table,
  code,
  rate,
  effective_date: from,
  end_date: to,
});

describe('codePrefixes', () => {
  it('lists every prefix of every code once, with the catch-all empty code', () => {
    expect(codePrefixes(['4420', '447'])).toEqual(['', '4', '44', '442', '4420', '447']);
    expect(codePrefixes([])).toEqual(['']);
  });
});

describe('compareRates', () => {
  const client = [row('c', '44', '0.0500'), row('c', '447', '0.0900')];
  const vendorA = [row('a', '44', '0.0300'), row('a', '4420', '0.0120')];
  const vendorB = [
    row('b', '44', '0.025', T0, T1),
    row('b', '44', '0.04', T1),
    row('b', '', '1.5'), // catch-all
  ];
  const tables = [
    { side: 'client' as const, rows: client },
    { side: 'vendor' as const, rows: vendorA },
    { side: 'vendor' as const, rows: vendorB },
  ];

  it('prices each code by the longest prefix in effect in each table, with exact min and max per side', () => {
    const [london, mobile, other] = compareRates(['4420', '4475', '33'], tables, T0 + 1);
    expect(london!.rows.map((r) => r && `${r.code}:${r.rate}`)).toEqual([
      '44:0.0500',
      '4420:0.0120',
      '44:0.025',
    ]);
    expect(london!.best?.code).toBe('4420');
    expect(london!.client_min?.rate).toBe('0.0500');
    expect(london!.client_max?.rate).toBe('0.0500');
    expect(london!.vendor_min?.rate).toBe('0.0120');
    expect(london!.vendor_max?.rate).toBe('0.025');
    expect(mobile!.rows.map((r) => r?.rate)).toEqual(['0.0900', '0.0300', '0.025']);
    expect(mobile!.best?.code).toBe('447');
    // 33 is in no client or vendor A row; vendor B's catch-all answers.
    expect(other!.rows.map((r) => r?.rate)).toEqual([undefined, undefined, '1.5']);
    expect(other!.client_min).toBeUndefined();
    expect(other!.vendor_min?.rate).toBe('1.5');
  });

  it('names the destination by the longest match, a named row first among equals', () => {
    const named = (table: string, code: string, name: string): Row => ({
      ...row(table, code, '0.01'),
      code_name: name,
    });
    const [r] = compareRates(
      ['4471'],
      [
        { side: 'client', rows: [named('c', '447', '')] },
        { side: 'vendor', rows: [named('v', '447', 'UK Mobile')] },
        { side: 'vendor', rows: [named('w', '44', 'UK')] },
      ],
      T0,
    );
    expect(r!.best?.code_name).toBe('UK Mobile');
  });

  it('answers at the chosen instant: a later date picks the row that takes over', () => {
    const [london] = compareRates(['4420'], tables, T1);
    expect(london!.rows[2]?.rate).toBe('0.04');
    expect(london!.vendor_max?.rate).toBe('0.04');
    const [before] = compareRates(['4420'], tables, T0 - 1);
    expect(before!.rows.every((r) => r === undefined)).toBe(true);
  });

  it('compares amounts exactly, not as text or floats', () => {
    const [r] = compareRates(
      ['1'],
      [
        { side: 'vendor', rows: [row('x', '1', '0.100000')] },
        { side: 'vendor', rows: [row('y', '1', '0.09')] },
        { side: 'vendor', rows: [row('z', '1', '0.100001')] },
      ],
      T0,
    );
    expect(r!.vendor_min?.table).toBe('y');
    expect(r!.vendor_max?.table).toBe('z');
  });

  it('min and max are a matched rate of their side (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.stringMatching(/^\d{0,3}$/), fc.integer({ min: 0, max: 99999 }))), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.stringMatching(/^\d{1,5}$/),
        (raw, code) => {
          const ts = raw.map((rows, i) => ({
            side: i % 2 ? ('vendor' as const) : ('client' as const),
            rows: rows.map(([c, r]) => row(String(i), c, (r / 10000).toFixed(4))),
          }));
          const [res] = compareRates([code], ts, T0);
          const vendorRates = res!.rows
            .filter((r, i) => r && ts[i]!.side === 'vendor')
            .map((r) => Number(r!.rate));
          if (!vendorRates.length) expect(res!.vendor_min).toBeUndefined();
          else {
            expect(Number(res!.vendor_min!.rate)).toBe(Math.min(...vendorRates));
            expect(Number(res!.vendor_max!.rate)).toBe(Math.max(...vendorRates));
          }
          for (const [i, r] of res!.rows.entries())
            if (r) expect(code.startsWith(r.code)).toBe(true);
            else expect(ts[i]!.rows.some((x) => code.startsWith(x.code))).toBe(false);
        },
      ),
    );
  });
});
