import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startHarness, type Harness } from './harness';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

// Concurrency of the CDR ingest (issue 10), on PGlite and (DATABASE_URL) PostgreSQL, where the
// batches run on separate connections at once: the same batch sent twice at once is billed once;
// 1,000 small batches posted at once, sharing calls between them, leave every balance equal to its
// ledger sum and each (call_id, attempt) stored and billed once.

let h: Harness;
let key: string;
let f: Fixture;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
});
afterAll(() => h.close());

const db = () => h.built.services.db;
const n = async (q: ReturnType<typeof sql<{ n: number }>>) => (await q.execute(db())).rows[0]!.n;
const unbalanced = () =>
  n(sql`SELECT count(*)::int AS n FROM carriers c
    LEFT JOIN (SELECT client_id, sum(amount) AS s FROM ledger GROUP BY client_id) l ON l.client_id = c.client_id
    WHERE c.balance <> coalesce(l.s, 0)`);

describe('concurrent CDR batches', () => {
  it('the same batch sent twice at once is stored and billed once', async () => {
    const cdrs = Array.from({ length: 500 }, (_, i) => cdrOf(f, { callId: `twice-${i}`, duration: 60 }));
    const [a, b] = await Promise.all([sendCdrs(h, key, 'twice', cdrs), sendCdrs(h, key, 'twice', cdrs)]).then(
      (rs) => rs.map(ok),
    );
    expect([a!.duplicate, b!.duplicate].sort()).toEqual([false, true]);
    expect(a!.stored).toBe(500);
    expect(b!.stored).toBe(500); // the duplicate answers with the first one's counts
    expect(await n(sql`SELECT count(*)::int AS n FROM cdrs WHERE call_id LIKE 'twice-%'`)).toBe(500);
    expect(await n(sql`SELECT count(*)::int AS n FROM ledger WHERE ref = 'twice'`)).toBe(2);
    // 500 minutes of UK at 0.05
    expect(
      await n(sql`SELECT (-amount)::float8 AS n FROM ledger WHERE ref = 'twice' AND side = 'customer'`),
    ).toBe(25);
    expect(await unbalanced()).toBe(0);
  });

  it('1,000 small batches posted at once leave balances equal to the ledger sums, each call billed once', async () => {
    const before = await n(sql`SELECT balance::float8 AS n FROM carriers WHERE client_id = ${f.customer}`);
    // 1,000 batches of 3 CDRs over 1,500 calls: each call is in two batches (another batch resends it)
    const batches = Array.from({ length: 1000 }, (_, b) =>
      [b, b + 1, b + 500].map((c) =>
        cdrOf(f, {
          callId: `many-${c % 1500}`,
          duration: 60,
          vendor: c % 2,
          start: new Date(Date.UTC(2026, 10, 21, 0) + (c % 1500) * 60_000).toISOString(),
        }),
      ),
    );
    const results = (await Promise.all(batches.map((cdrs, b) => sendCdrs(h, key, `many-${b}`, cdrs)))).map(
      ok,
    );
    const stored = results.reduce((s, r) => s + r.stored, 0);
    const duplicates = results.reduce((s, r) => s + r.duplicates, 0);
    const distinct = new Set(batches.flat().map((c) => c.call_id)).size;
    expect(stored).toBe(distinct);
    expect(stored + duplicates).toBe(3000);
    expect(await n(sql`SELECT count(*)::int AS n FROM cdrs WHERE call_id LIKE 'many-%'`)).toBe(distinct);
    expect(await unbalanced()).toBe(0);
    // every stored call is one UK minute at 0.05 for the customer
    const after = await n(sql`SELECT balance::float8 AS n FROM carriers WHERE client_id = ${f.customer}`);
    expect(after).toBeCloseTo(before - distinct * 0.05, 6);
    // and the vendors are owed what their stored calls cost (A 0.03, B 0.025 a UK minute)
    for (const [v, rate] of [
      [0, 0.03],
      [1, 0.025],
    ] as const) {
      const calls = await n(
        sql`SELECT count(*)::int AS n FROM cdrs WHERE call_id LIKE 'many-%' AND egress_trunk_id = ${f.vendors[v]!.trunk}`,
      );
      const ledger = await n(
        sql`SELECT coalesce(sum(amount), 0)::float8 AS n FROM ledger WHERE client_id = ${f.vendors[v]!.carrier} AND ref LIKE 'many-%'`,
      );
      expect(ledger).toBeCloseTo(calls * rate, 6);
    }
  }, 300_000);
});
