import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CodeDeck, DeckPath } from '../src/code-deck';
import { PrefixIndex } from '../src/prefix-index';

interface Row {
  code: string;
  effective_date: number | null;
  end_date: number | null;
  name: string;
}

describe('CodeDeck', () => {
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
  const tables = [
    [row('44', 'A:UK'), row('447', 'A:UK mobile')],
    [row('4475', 'B:UK 75'), row('44', 'B:UK old', null, 100), row('44', 'B:UK new', 100)],
    [],
    [row('', 'D:anything')],
  ];
  const byNumber: Row[] = [];
  const deck = CodeDeck.build(tables, (r, _t, _i, k) => {
    byNumber[k] = r;
  });
  const lookup = (table: number, number: string, at: number) => byNumber[deck.lookup(table, number, at)];

  it('finds each table its own longest effective code', () => {
    expect(lookup(0, '447512', 0)?.name).toBe('A:UK mobile');
    expect(lookup(1, '447512', 0)?.name).toBe('B:UK 75');
    expect(lookup(1, '447012', 99)?.name).toBe('B:UK old');
    expect(lookup(1, '447012', 100)?.name).toBe('B:UK new');
    expect(lookup(2, '447512', 0)).toBeUndefined();
    expect(lookup(3, '447512', 0)?.name).toBe('D:anything');
    expect(lookup(0, '33', 0)).toBeUndefined();
    expect(deck.codeCount).toBe(4);
    expect(deck.rowCount).toBe(6);
    // rows are numbered node by node, then table by table, latest effective date first
    expect(byNumber.map((r) => r.name)).toEqual([
      'D:anything',
      'A:UK',
      'B:UK new',
      'B:UK old',
      'A:UK mobile',
      'B:UK 75',
    ]);
  });

  it('walks a number once for all tables', () => {
    const path = deck.walk('4475129', new DeckPath());
    expect(Array.from(path.depths.slice(0, path.count))).toEqual([0, 2, 3, 4]);
    expect(byNumber[deck.find(0, path, 0)]?.name).toBe('A:UK mobile');
    expect(byNumber[deck.find(1, path, 0)]?.name).toBe('B:UK 75');
    expect(deck.find(2, path, 0)).toBe(-1);
  });

  it('property: agrees with one PrefixIndex per table', () => {
    const code = fc.string({ unit: fc.constantFrom('1', '2', '3'), maxLength: 4 });
    const time = fc.integer({ min: 0, max: 50 });
    const table = fc.array(
      fc.record({
        code,
        effective_date: fc.option(time, { nil: null }),
        end_date: fc.option(time, { nil: null }),
        name: fc.string({ maxLength: 3 }),
      }),
      { maxLength: 15 },
    );
    fc.assert(
      fc.property(
        fc.array(table, { minLength: 1, maxLength: 4 }),
        fc.string({ unit: fc.constantFrom('1', '2', '3'), maxLength: 6 }),
        time,
        (tables, number, at) => {
          const numbered: Row[] = [];
          const shared = CodeDeck.build(tables, (r, _t, _i, k) => {
            numbered[k] = r;
          });
          tables.forEach((rows, t) => {
            expect(numbered[shared.lookup(t, number, at)]).toBe(PrefixIndex.build(rows).lookup(number, at));
          });
        },
      ),
    );
  });
});
