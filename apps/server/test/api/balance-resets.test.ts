import type { LedgerRow, ResetRow } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyReset } from '../../src/modules/finance/resets';
import { denied, makeCarrierUser, makeRestrictedAdmin, ok, startHarness, type Harness } from './harness';

/** Finance's balance reset and Log > Reset Balance Log (docs/billing.md "Balance resets"). */
let h: Harness;
let admin: string;
let carrier: number;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  carrier = (await makeCarrierUser(h, admin, 'Resetco')).clientId;
});
afterAll(() => h.close());

const db = () => h.built.services.db;
const create = (body: Record<string, unknown>, token = admin) =>
  h.call<ResetRow>('POST', '/api/finance/reset_balance', { token, body });
const list = (query = '', token = admin) =>
  h.call<{ items: ResetRow[]; total: number }>('GET', `/api/log/reset_balance_log/list${query}`, { token });
const balanceOf = async (id: number) =>
  (await db().selectFrom('carriers').select('balance').where('client_id', '=', id).executeTakeFirstOrThrow())
    .balance;
const ledger = async () =>
  ok(
    await h.call<{ items: LedgerRow[] }>(
      'GET',
      `/api/finance/actual_transaction/list?client_id=${carrier}&kind=reset`,
      { token: admin },
    ),
  ).items;

async function finished(id: number): Promise<ResetRow> {
  for (let i = 0; i < 200; i++) {
    const r = ok(await list()).items.find((x) => x.reset_id === id)!;
    if (r.state !== 'pending') return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`reset ${id} still pending`);
}

describe('Balance reset', () => {
  it('sets the balance now through the job: one reset ledger row of the difference, before and after', async () => {
    await db().updateTable('carriers').set({ balance: '12.5' }).where('client_id', '=', carrier).execute();
    const r = ok(await create({ client_id: carrier, balance: '100', note: 'new prepaid plan' }));
    expect(r).toMatchObject({ client_name: 'Resetco', balance: '100.000000', created_by: 'admin' });
    const done = await finished(r.reset_id);
    expect(done).toMatchObject({ state: 'finished', balance_before: '12.500000', amount: '87.500000' });
    expect(done.finished_at).not.toBeNull();
    expect(Number(await balanceOf(carrier))).toBe(100);
    const rows = await ledger();
    expect(rows.map((l) => [l.ref, l.amount, l.balance_before, l.balance_after, l.created_by])).toEqual([
      [`reset-${r.reset_id}`, '87.500000', '12.500000', '100.000000', 'admin'],
    ]);
    expect(rows[0]!.note).toContain('new prepaid plan');

    // Applied again (a retry, a second process): nothing moves.
    expect(await applyReset(db(), r.reset_id)).toBe(false);
    expect(await ledger()).toHaveLength(1);
  });

  it('applies a negative balance, and a reset to the same balance still leaves its ledger row', async () => {
    const neg = ok(await create({ client_id: carrier, balance: '-20.25' }));
    expect(await finished(neg.reset_id)).toMatchObject({
      amount: '-120.250000',
      balance_before: '100.000000',
    });
    const same = ok(await create({ client_id: carrier, balance: '-20.25' }));
    expect(await finished(same.reset_id)).toMatchObject({ amount: '0.000000', state: 'finished' });
    expect(Number(await balanceOf(carrier))).toBe(-20.25);
    expect((await ledger()).map((l) => l.amount)).toEqual(['0.000000', '-120.250000', '87.500000']);
  });

  it('keeps a scheduled reset pending until its time; cancelled, it never applies', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const later = ok(await create({ client_id: carrier, balance: '5', run_at: at }));
    expect(later).toMatchObject({ state: 'pending', run_at: at });
    const job = await db()
      .selectFrom('jobs')
      .select(['run_at', 'kind'])
      .where('key', '=', `reset-${later.reset_id}`)
      .executeTakeFirstOrThrow();
    expect([job.kind, new Date(job.run_at).toISOString()]).toEqual(['balance.reset', at]);
    expect(ok(await list('?state=pending')).items.map((r) => r.reset_id)).toEqual([later.reset_id]);

    const cancelled = ok(
      await h.call<ResetRow>('POST', `/api/finance/reset_balance/${later.reset_id}/cancel`, { token: admin }),
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelled_by: 'admin' });
    // the job, when it comes, finds it cancelled
    expect(await applyReset(db(), later.reset_id)).toBe(false);
    expect(Number(await balanceOf(carrier))).toBe(-20.25);
    const again = await h.call('POST', `/api/finance/reset_balance/${later.reset_id}/cancel`, {
      token: admin,
    });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toContain('Only a pending balance reset');
    // a finished one cannot be cancelled either
    const fin = ok(await list('?state=finished')).items[0]!;
    expect(
      (await h.call('POST', `/api/finance/reset_balance/${fin.reset_id}/cancel`, { token: admin })).status,
    ).toBe(409);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const before = ok(await list()).total;
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await create(body);
      expect(r.status).toBe(400);
      expect(r.body.errors).toHaveProperty(field);
    };
    await bad({ client_id: carrier, balance: '1,5' }, 'balance');
    await bad({ client_id: carrier, balance: '1.1234567' }, 'balance');
    await bad({ client_id: carrier }, 'balance');
    await bad({ client_id: 999_999, balance: '1' }, 'client_id');
    await bad({ client_id: carrier, balance: '1', run_at: 'tomorrow' }, 'run_at');
    await bad(
      { client_id: carrier, balance: '1', run_at: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      'run_at',
    );
    expect(ok(await list()).total).toBe(before);
    expect(Number(await balanceOf(carrier))).toBe(-20.25);
    expect(ok(await list(`?client_id=${carrier}&state=finished`)).total).toBe(3);
  });

  it('needs the finance right to reset balances besides the page; the log reads with the page alone', async () => {
    const page = await makeRestrictedAdmin(h, admin, 'reset_page', { '/log/reset_balance_log': 'rw' });
    ok(await list('', page.token));
    denied(await create({ client_id: carrier, balance: '1' }, page.token));
    const right = await makeRestrictedAdmin(h, admin, 'reset_right', {
      '/log/reset_balance_log': 'rw',
      'finance:reset_balance': 'r',
    });
    const r = ok(await create({ client_id: carrier, balance: '1' }, right.token));
    expect((await finished(r.reset_id)).created_by).toBe('reset_right');
    const stranger = await makeRestrictedAdmin(h, admin, 'reset_stranger');
    denied(await list('', stranger.token));
    const client = await makeCarrierUser(h, admin, 'Resetclient');
    denied(await list('', client.token));
    denied(await create({ client_id: client.clientId, balance: '1000' }, client.token));
  });
});
