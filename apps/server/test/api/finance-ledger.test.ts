import type { BalanceCheckRow, LedgerRow } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import { denied, makeCarrierUser, makeRestrictedAdmin, ok, startHarness, type Harness } from './harness';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;

type Transactions = {
  items: LedgerRow[];
  total: number;
  totals: { amount: string; credit: string; debit: string };
};

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
  ok(
    await sendCdrs(h, key, 'fin-1', [
      cdrOf(f, { duration: 60 }),
      cdrOf(f, { duration: 30, dnis: '12125550123' }),
    ]),
  );
  ok(await sendCdrs(h, key, 'fin-2', [cdrOf(f, { duration: 120 })]));
});
afterAll(() => h.close());

const db = () => h.built.services.db;
const qs = (query: Record<string, unknown>) => {
  const p = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return p.size ? `?${p.toString()}` : '';
};
const list = (token: string, query: Record<string, unknown> = {}) =>
  h.call<Transactions>('GET', `/api/finance/actual_transaction/list${qs(query)}`, { token });

describe('Finance > Actual Transaction', () => {
  it('lists ledger rows newest first with before and after, filters and totals over the filter', async () => {
    const all = ok(await list(admin, { client_id: f.customer, per_page: 50 }));
    expect(all.total).toBe(2);
    expect(
      all.items.map((r) => [r.ref, r.kind, r.side, r.amount, r.balance_before, r.balance_after]),
    ).toEqual([
      ['fin-2', 'usage', 'customer', '-0.100000', '-0.060000', '-0.160000'],
      ['fin-1', 'usage', 'customer', '-0.060000', '0.000000', '-0.060000'],
    ]);
    expect(all.items[0]).toMatchObject({ client_name: 'Customer', cdr_count: 1 });
    expect(all.totals).toEqual({ amount: '-0.160000', credit: '0.000000', debit: '-0.160000' });

    const vendors = ok(await list(admin, { side: 'vendor' }));
    expect(vendors.items.every((r) => r.side === 'vendor')).toBe(true);
    expect(vendors.totals.amount).toBe('0.082500'); // 0.025 + 0.0075 + 0.05
    expect(ok(await list(admin, { ref: 'fin-2' })).total).toBe(2);
    expect(ok(await list(admin, { kind: 'payment' })).total).toBe(0);
    expect(ok(await list(admin, { time_from: '2100-01-01' })).total).toBe(0);
    const asc = ok(await list(admin, { client_id: f.customer, order_by: 'amount', order_dir: 'asc' }));
    expect(asc.items.map((r) => r.amount)).toEqual(['-0.100000', '-0.060000']);
    expect((await list(admin, { kind: 'nonsense' })).body.errors).toHaveProperty('kind');
  });

  it('shows a client user only its own carrier, whatever client_id it sends; vendors and other admins are refused', async () => {
    const client = await makeCarrierUser(h, admin, 'Ledgerco');
    await db()
      .insertInto('ledger')
      .values({
        client_id: client.clientId,
        kind: 'payment',
        ref: 'pay-1',
        amount: '25',
        balance_before: '0',
        balance_after: '25',
      })
      .execute();
    await db()
      .updateTable('carriers')
      .set({ balance: '25' })
      .where('client_id', '=', client.clientId)
      .execute();
    const own = ok(await list(client.token, { client_id: f.customer }));
    expect(own.items.map((r) => [r.client_id, r.ref, r.amount])).toEqual([
      [client.clientId, 'pay-1', '25.000000'],
    ]);
    expect(own.totals.amount).toBe('25.000000');
    const vendor = await makeCarrierUser(h, admin, 'Ledgervendor', { client_type: 'vendor' });
    denied(await list(vendor.token));
    const stranger = await makeRestrictedAdmin(h, admin, 'ledger_stranger');
    denied(await list(stranger.token));
  });
});

describe('Finance > Regenerate Balance', () => {
  const check = (query: Record<string, unknown> = {}) =>
    h.call<{ items: BalanceCheckRow[]; total: number }>(
      'GET',
      `/api/finance/regenerate_balance/list${qs(query)}`,
      {
        token: admin,
      },
    );
  const regenerate = (client_ids: number[] = []) =>
    h.call<{ regenerated: BalanceCheckRow[] }>('POST', '/api/finance/regenerate_balance/regenerate', {
      token: admin,
      body: { client_ids },
    });

  it('shows a balance that differs from its ledger, sets it to the ledger sum with a ledger row, once', async () => {
    expect(ok(await check({ mismatched_only: 'true' })).total).toBe(0);
    // a balance changed behind the ledger's back
    await db().updateTable('carriers').set({ balance: '5' }).where('client_id', '=', f.customer).execute();
    const found = ok(await check({ mismatched_only: 'true' }));
    expect(found.items).toEqual([
      {
        client_id: f.customer,
        name: 'Customer',
        stored: '5.000000',
        ledger: '-0.160000',
        difference: '-5.160000',
        ledger_rows: 2,
      },
    ]);
    expect(ok(await check()).total).toBeGreaterThan(1);

    const fixed = ok(await regenerate());
    expect(fixed.regenerated.map((r) => [r.client_id, r.stored, r.ledger])).toEqual([
      [f.customer, '5.000000', '-0.160000'],
    ]);
    const c = await db()
      .selectFrom('carriers')
      .select('balance')
      .where('client_id', '=', f.customer)
      .executeTakeFirstOrThrow();
    expect(Number(c.balance)).toBe(-0.16);
    const rows = ok(await list(admin, { client_id: f.customer, kind: 'regenerate' }));
    expect(rows.items.map((r) => [r.amount, r.balance_before, r.balance_after, r.created_by])).toEqual([
      ['0.000000', '-0.160000', '-0.160000', 'admin'],
    ]);
    expect(rows.items[0]!.note).toContain('5.000000');

    // again: nothing differs, nothing written
    expect(ok(await regenerate()).regenerated).toEqual([]);
    expect(ok(await list(admin, { kind: 'regenerate' })).total).toBe(1);
    // the next batch goes on from the regenerated balance
    ok(await sendCdrs(h, key, 'fin-3', [cdrOf(f, { duration: 60 })]));
    const next = ok(await list(admin, { ref: 'fin-3', side: 'customer' })).items[0]!;
    expect([next.balance_before, next.balance_after]).toEqual(['-0.160000', '-0.210000']);
  });

  it('regenerates only the carriers asked for and needs the write permission', async () => {
    const vendorA = f.vendors[0]!.carrier;
    await db()
      .updateTable('carriers')
      .set({ balance: '1' })
      .where('client_id', 'in', [f.customer, vendorA])
      .execute();
    expect(ok(await regenerate([vendorA])).regenerated.map((r) => r.client_id)).toEqual([vendorA]);
    expect(ok(await check({ mismatched_only: 'true' })).items.map((r) => r.client_id)).toEqual([f.customer]);
    const reader = await makeRestrictedAdmin(h, admin, 'balance_reader', {
      '/finance/regenerate_balance': 'r',
    });
    ok(await h.call('GET', '/api/finance/regenerate_balance/list', { token: reader.token }));
    denied(
      await h.call('POST', '/api/finance/regenerate_balance/regenerate', {
        token: reader.token,
        body: { client_ids: [] },
      }),
    );
    expect(ok(await check({ mismatched_only: 'true' })).total).toBe(1);
  });
});
