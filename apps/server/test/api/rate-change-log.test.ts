import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

/**
 * The rate change log (statement triggers on rates, migrations 0005 and 0009): what the routing
 * snapshot's loader reads to know which rate rows (or whole rate tables) to read again.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const db = () => h.built.services.db;

async function table(name: string): Promise<number> {
  const r = await sql<{ rate_table_id: number }>`
    INSERT INTO rate_tables (name, currency, rate_type, billing_method, decimal_places)
    VALUES (${name}, 'USD', 'a_z', 'dnis', 4) RETURNING rate_table_id`.execute(db());
  return Number(r.rows[0]!.rate_table_id);
}

async function fill(id: number, n: number, from = 0): Promise<void> {
  await sql`INSERT INTO rates (rate_table_id, code, rate, effective_date)
    SELECT ${id}, (100000 + g)::text, 0.0100, '2020-01-01' FROM generate_series(${from}::int, ${from + n - 1}::int) g`.execute(
    db(),
  );
}

/** The log entries written after `seq`: [rate_table_id, rate_id or null] in order. */
async function logged(seq: number): Promise<[number, number | null][]> {
  const r = await sql<{ rate_table_id: number; rate_id: number | null }>`
    SELECT rate_table_id, rate_id FROM rate_changes WHERE seq > ${seq} ORDER BY seq`.execute(db());
  return r.rows.map((x) => [Number(x.rate_table_id), x.rate_id === null ? null : Number(x.rate_id)]);
}
async function lastSeq(): Promise<number> {
  const r = await sql<{ seq: number | null }>`SELECT max(seq) AS seq FROM rate_changes`.execute(db());
  return Number(r.rows[0]?.seq ?? 0);
}

describe('rate change log', () => {
  it('a small update logs each row; a row moved to another table is logged for the table it left', async () => {
    const a = await table('log small A');
    const b = await table('log small B');
    await fill(a, 3);
    const ids = (
      await sql<{
        rate_id: number;
      }>`SELECT rate_id FROM rates WHERE rate_table_id = ${a} ORDER BY code`.execute(db())
    ).rows.map((r) => Number(r.rate_id));
    const seq = await lastSeq();
    await sql`UPDATE rates SET rate = 0.0200 WHERE rate_id = ${ids[0]!}`.execute(db());
    await sql`UPDATE rates SET rate_table_id = ${b} WHERE rate_id = ${ids[1]!}`.execute(db());
    expect(await logged(seq)).toEqual([
      [a, ids[0]],
      [b, ids[1]],
      [a, ids[1]],
    ]);
  });

  it('a large update (beyond 1,000 rows) logs whole tables and stays linear (no quadratic join)', async () => {
    const a = await table('log large A');
    const b = await table('log large B');
    await fill(a, 40_000);
    const seq = await lastSeq();
    const t0 = performance.now();
    await sql`UPDATE rates SET rate = rate * 2 WHERE rate_table_id = ${a}`.execute(db());
    const updateMs = performance.now() - t0;
    expect(await logged(seq)).toEqual([[a, null]]);
    // 40,000 rows with the old nested-loop join: 1.6 * 10^9 comparisons, minutes; now well under that.
    expect(updateMs).toBeLessThan(30_000);

    // Half the rows move to table B: B is logged as a whole, and so is A, which they left.
    const seq2 = await lastSeq();
    await sql`UPDATE rates SET rate_table_id = ${b} WHERE rate_table_id = ${a} AND code::int % 2 = 0`.execute(
      db(),
    );
    expect(await logged(seq2)).toEqual([
      [b, null],
      [a, null],
    ]);

    // A large update within one table logs only that table.
    const seq3 = await lastSeq();
    await sql`UPDATE rates SET rate = 0.0300 WHERE rate_table_id = ${b}`.execute(db());
    expect(await logged(seq3)).toEqual([[b, null]]);
  });
});
