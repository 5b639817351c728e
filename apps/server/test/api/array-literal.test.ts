import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayLiteral } from '../../src/db/arrays';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('arrayLiteral (bulk statements send their arrays as text)', () => {
  it('reads back as the same values, whatever the text holds', async () => {
    // Any text PostgreSQL stores (no NUL): quotes, backslashes, braces, commas, "NULL", spaces, empty.
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }).map((s) => s.replaceAll('\u0000', '')),
      fc.constantFrom('NULL', 'null', '', ' ', '{', '}', ',', '"', '\\', '\\"', 'a,b', '{1,2}'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { nil: null }), { maxLength: 20 }), async (values) => {
        const r = await sql<{
          v: string | null;
        }>`SELECT unnest(${arrayLiteral(values)}::text[]) AS v`.execute(h.built.services.db);
        expect(r.rows.map((x) => x.v)).toEqual(values);
      }),
      { numRuns: 60 },
    );
  });

  it('numbers, booleans and nulls in typed arrays', async () => {
    const r = await sql<{ i: number | null; b: boolean | null; n: string | null }>`
      SELECT * FROM unnest(${arrayLiteral([1, null, -7])}::int8[], ${arrayLiteral([true, false, null])}::bool[],
        ${arrayLiteral(['0.123456', null, '-12.5'])}::numeric[]) AS t(i, b, n)`.execute(h.built.services.db);
    expect(r.rows).toEqual([
      { i: 1, b: true, n: '0.123456' },
      { i: null, b: false, n: null },
      { i: -7, b: null, n: '-12.5' },
    ]);
    expect(arrayLiteral([])).toBe('{}');
  });
});
