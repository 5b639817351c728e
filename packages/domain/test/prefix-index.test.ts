import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PrefixCodeError, PrefixIndex } from '../src/prefix-index';

interface Row {
  code: string;
  effective_date: number | null;
  end_date: number | null;
  name: string;
}

const row = (
  code: string,
  name: string,
  effective: number | null = null,
  end: number | null = null,
): Row => ({
  code,
  name,
  effective_date: effective,
  end_date: end,
});

describe('PrefixIndex longest-prefix match', () => {
  const index = PrefixIndex.build([
    row('44', 'UK'),
    row('447', 'UK mobile'),
    row('4475', 'UK mobile 75'),
    row('1', 'NANP'),
    row('1212', 'NY'),
  ]);

  it.each([
    ['447512345678', 'UK mobile 75'],
    ['447012345678', 'UK mobile'],
    ['442071234567', 'UK'],
    ['12125551234', 'NY'],
    ['13105551234', 'NANP'],
    ['4475', 'UK mobile 75'],
  ])('%s -> %s', (number, name) => {
    expect(index.lookup(number, 0)?.name).toBe(name);
  });

  it('returns undefined when no code prefixes the number', () => {
    expect(index.lookup('33123456789', 0)).toBeUndefined();
    expect(index.lookup('4', 0)).toBeUndefined();
    expect(index.lookup('', 0)).toBeUndefined();
  });

  it('stops reading at the first non-digit', () => {
    expect(index.lookup('44#7512', 0)?.name).toBe('UK');
    expect(index.lookup('+447512', 0)).toBeUndefined();
  });

  it('counts codes and rows', () => {
    expect(index.codeCount).toBe(5);
    expect(index.rowCount).toBe(5);
    expect(index.maxCodeLength).toBe(4);
  });

  it('supports a catch-all empty code', () => {
    const withDefault = PrefixIndex.build([row('', 'anything'), row('44', 'UK')]);
    expect(withDefault.lookup('3312', 0)?.name).toBe('anything');
    expect(withDefault.lookup('4412', 0)?.name).toBe('UK');
    expect(withDefault.lookup('', 0)?.name).toBe('anything');
  });

  it('refuses codes with non-digits', () => {
    expect(() => PrefixIndex.build([row('44a', 'bad')])).toThrow(PrefixCodeError);
    expect(() => PrefixIndex.build([row('+44', 'bad')])).toThrow(/digits only/);
  });
});

describe('PrefixIndex effective dates', () => {
  const jan = Date.UTC(2024, 0, 1);
  const feb = Date.UTC(2024, 1, 1);
  const mar = Date.UTC(2024, 2, 1);
  const index = PrefixIndex.build([
    row('44', 'UK old', null, feb),
    row('44', 'UK new', feb, null),
    row('447', 'UK mobile Jan-Feb', jan, feb),
    row('4475', 'UK 75 from March', mar, null),
  ]);

  it('treats the effective date as inclusive and the end date as exclusive', () => {
    expect(index.lookup('4420', feb - 1)?.name).toBe('UK old');
    expect(index.lookup('4420', feb)?.name).toBe('UK new');
    expect(index.lookup('4470', jan - 1)?.name).toBe('UK old');
    expect(index.lookup('4470', jan)?.name).toBe('UK mobile Jan-Feb');
    expect(index.lookup('4470', feb - 1)?.name).toBe('UK mobile Jan-Feb');
  });

  it('falls back to a shorter code when the longest has no effective row', () => {
    expect(index.lookup('4475000', feb)?.name).toBe('UK new');
    expect(index.lookup('4475000', mar - 1)?.name).toBe('UK new');
    expect(index.lookup('4475000', mar)?.name).toBe('UK 75 from March');
    expect(index.lookup('4475000', jan + 5)?.name).toBe('UK mobile Jan-Feb');
  });

  it('prefers the row that started last when several are effective', () => {
    const overlapping = PrefixIndex.build([row('1', 'first', jan, null), row('1', 'second', feb, null)]);
    expect(overlapping.lookup('1', mar)?.name).toBe('second');
    expect(overlapping.lookup('1', jan)?.name).toBe('first');
    expect(overlapping.rowsOf('1').map((r) => r.name)).toEqual(['second', 'first']);
    expect(overlapping.codeCount).toBe(1);
  });

  it('lists candidates longest code first and finds rows by predicate', () => {
    expect(index.candidates('44751').map((r) => r.name)).toEqual([
      'UK 75 from March',
      'UK mobile Jan-Feb',
      'UK new',
      'UK old',
    ]);
    expect(index.lookupWhere('44751', (r, suffix) => r.name.endsWith(suffix), 'old')?.name).toBe('UK old');
    expect(index.lookupWhere('44751', () => false, null)).toBeUndefined();
    expect(index.some('44751', (r, name) => r.name === name, 'UK mobile Jan-Feb')).toBe(true);
    expect(index.some('4420', (r, name) => r.name === name, 'UK mobile Jan-Feb')).toBe(false);
    expect(index.rowsOf('449')).toEqual([]);
  });
});

describe('PrefixIndex properties', () => {
  const code = fc.string({ unit: fc.constantFrom('1', '2', '3'), minLength: 1, maxLength: 5 });
  const time = fc.integer({ min: 0, max: 100 });
  const rows = fc.array(
    fc.record({
      code,
      effective_date: fc.option(time, { nil: null }),
      end_date: fc.option(time, { nil: null }),
      name: fc.string(),
    }),
    { maxLength: 40 },
  );

  it('agrees with a brute-force scan of all rows', () => {
    fc.assert(
      fc.property(
        rows,
        fc.string({ unit: fc.constantFrom('1', '2', '3'), maxLength: 7 }),
        time,
        (rs, number, at) => {
          const effective = (r: Row) =>
            (r.effective_date ?? -Infinity) <= at && at < (r.end_date ?? Infinity);
          let expected: Row | undefined;
          for (const r of rs) {
            if (!number.startsWith(r.code) || !effective(r)) continue;
            if (
              !expected ||
              r.code.length > expected.code.length ||
              (r.code.length === expected.code.length &&
                (r.effective_date ?? -Infinity) > (expected.effective_date ?? -Infinity))
            ) {
              expected = r;
            }
          }
          expect(PrefixIndex.build(rs).lookup(number, at)).toBe(expected);
        },
      ),
    );
  });

  it('builds 700,000 codes in well under a few seconds and finds each of them', () => {
    const rows: Row[] = [];
    for (let i = 0; i < 700_000; i++) rows.push(row(String(1_200_000 + i), String(i)));
    const started = performance.now();
    const index = PrefixIndex.build(rows);
    const elapsed = performance.now() - started;
    expect(index.codeCount).toBe(700_000);
    expect(index.lookup('12345678901', 0)?.name).toBe(String(1_234_567 - 1_200_000));
    expect(index.lookup('11999999999', 0)).toBeUndefined();
    expect(elapsed).toBeLessThan(3000);
  });
});
