import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRows, copyValue } from '../../src/db/copy';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await sql`CREATE TABLE copy_probe (n int4, t text, b bool, m numeric, at timestamptz)`.execute(db());
});
afterAll(() => h.close());
const db = () => h.built.services.db;

describe('copyRows (COPY FROM STDIN on both databases: the CDR ingest writes its rows with it)', () => {
  it('reads back as the same values, whatever the text holds', async () => {
    // Any text PostgreSQL stores (no NUL): tabs, line breaks, backslashes, "\N", quotes, empty.
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }).map((s) => s.replaceAll('\u0000', '')),
      fc.constantFrom('\\N', '\\', '\t', '\n', '\r\n', '', ' ', '"', 'a\tb', '\\.', 'NULL'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { nil: null }), { maxLength: 20 }), async (values) => {
        await db()
          .transaction()
          .execute(async (trx) => {
            await sql`DELETE FROM copy_probe`.execute(trx);
            const data = values.map((v, i) => `${i}\t${copyValue(v)}\n`).join('');
            await copyRows('copy_probe', ['n', 't'], data).execute(trx);
            const r = await sql<{ t: string | null }>`SELECT t FROM copy_probe ORDER BY n`.execute(trx);
            expect(r.rows.map((x) => x.t)).toEqual(values);
          });
      }),
      { numRuns: 40 },
    );
  });

  it('numbers, booleans, money and times, inside the caller transaction (rolled back with it)', async () => {
    const line = (vals: (string | number | boolean | null)[]) => vals.map(copyValue).join('\t') + '\n';
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`DELETE FROM copy_probe`.execute(trx);
        await copyRows(
          'copy_probe',
          ['n', 't', 'b', 'm', 'at'],
          line([1, 'x', true, '0.123456', '2026-11-20T10:00:00.250Z']) +
            line([null, null, false, '-12.5', null]),
        ).execute(trx);
      });
    const r = await sql<{ n: number | null; b: boolean | null; m: string | null; at: string | null }>`
      SELECT n, b, m::text AS m, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS at
      FROM copy_probe ORDER BY n NULLS LAST`.execute(db());
    expect(r.rows).toEqual([
      { n: 1, b: true, m: '0.123456', at: '2026-11-20 10:00:00.250' },
      { n: null, b: false, m: '-12.5', at: null },
    ]);
    await db()
      .transaction()
      .execute(async (trx) => {
        await copyRows('copy_probe', ['n'], line([2])).execute(trx);
        throw new Error('rollback');
      })
      .catch((e: Error) => expect(e.message).toBe('rollback'));
    expect(
      (await sql<{ n: string }>`SELECT count(*)::text AS n FROM copy_probe`.execute(db())).rows[0]!.n,
    ).toBe('2');
    // a bad value fails the statement, naming the column, and nothing is written
    await expect(
      db()
        .transaction()
        .execute((trx) => copyRows('copy_probe', ['n'], line(['x'])).execute(trx)),
    ).rejects.toThrow(/type integer/);
  });
});
