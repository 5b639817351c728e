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
  const deck = CodeDeck.build([
    [row('44', 'A:UK'), row('447', 'A:UK mobile')],
    [row('4475', 'B:UK 75'), row('44', 'B:UK old', null, 100), row('44', 'B:UK new', 100)],
    [],
    [row('', 'D:anything')],
  ]);

  it('finds each table its own longest effective code', () => {
    expect(deck.lookup(0, '447512', 0)?.name).toBe('A:UK mobile');
    expect(deck.lookup(1, '447512', 0)?.name).toBe('B:UK 75');
    expect(deck.lookup(1, '447012', 99)?.name).toBe('B:UK old');
    expect(deck.lookup(1, '447012', 100)?.name).toBe('B:UK new');
    expect(deck.lookup(2, '447512', 0)).toBeUndefined();
    expect(deck.lookup(3, '447512', 0)?.name).toBe('D:anything');
    expect(deck.lookup(0, '33', 0)).toBeUndefined();
    expect(deck.codeCount).toBe(4);
  });

  it('walks a number once for all tables', () => {
    const path = deck.walk('4475129', new DeckPath());
    expect(Array.from(path.depths.slice(0, path.count))).toEqual([0, 2, 3, 4]);
    expect(deck.rows[deck.find(0, path, 0)]?.name).toBe('A:UK mobile');
    expect(deck.rows[deck.find(1, path, 0)]?.name).toBe('B:UK 75');
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
          const shared = CodeDeck.build(tables);
          tables.forEach((rows, t) => {
            expect(shared.lookup(t, number, at)).toBe(PrefixIndex.build(rows).lookup(number, at));
          });
        },
      ),
    );
  });
});
