import type { PaymentRow } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBalances } from '../../src/modules/cdr/ledger';
import { recordPayment } from '../../src/modules/billing/payments';
import {
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  ok,
  startHarness,
  type Harness,
} from './harness';

let h: Harness;
let admin: string;
let client: { clientId: number; token: string };
let other: { clientId: number; token: string };
let vendor: { clientId: number; token: string };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  client = await makeCarrierUser(h, admin, 'Payco');
  other = await makeCarrierUser(h, admin, 'Otherco');
  vendor = await makeCarrierUser(h, admin, 'Vendco', { client_type: 'vendor' });
});
afterAll(() => h.close());

const db = () => h.built.services.db;
type Created = { payment_id: number; created: boolean; balance: string };
const pay = (token: string, body: Record<string, unknown>) =>
  h.call<Created>('POST', '/api/finance/payment/create', { token, body });
const payments = (token: string, q = '') =>
  h.call<{ items: PaymentRow[]; total: number; totals: { amount: string; fee: string } }>(
    'GET',
    `/api/finance/payment/list${q}`,
    { token },
  );
const ledgerOf = (clientId: number) =>
  db()
    .selectFrom('ledger')
    .select(['kind', 'ref', 'amount', 'balance_after'])
    .where('client_id', '=', clientId)
    .orderBy('ledger_id')
    .execute();
const balanceOf = async (clientId: number) =>
  (
    await db()
      .selectFrom('carriers')
      .select('balance')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow()
  ).balance;

describe('Payments', () => {
  it('a received payment is one ledger row raising the balance; the same idempotency key records it once', async () => {
    const body = {
      client_id: client.clientId,
      amount: '100.25',
      fee: '1.5',
      transaction_id: 'TX-1',
      idempotency_key: 'form-key-0001',
    };
    const first = ok(await pay(admin, body));
    expect(first).toMatchObject({ created: true, balance: '100.250000' });
    const again = ok(await pay(admin, body));
    expect(again).toEqual({ payment_id: first.payment_id, created: false, balance: '100.250000' });
    expect(await ledgerOf(client.clientId)).toEqual([
      {
        kind: 'payment',
        ref: `payment:${first.payment_id}`,
        amount: '100.250000',
        balance_after: '100.250000',
      },
    ]);
    const list = ok(await payments(admin, `?client_id=${client.clientId}`));
    expect(list.items.map((p) => [p.amount, p.fee, p.transaction_id, p.status, p.created_by])).toEqual([
      ['100.250000', '1.500000', 'TX-1', 'completed', 'admin'],
    ]);
    expect(list.totals).toEqual({ amount: '100.250000', fee: '1.500000' });
  });

  it('a payment sent to a vendor lowers what we owe it', async () => {
    const r = ok(await pay(admin, { client_id: vendor.clientId, direction: 'sent', amount: '40' }));
    expect(r.balance).toBe('-40.000000');
    expect(ok(await payments(admin, '?direction=sent')).total).toBe(1);
  });

  it('refuses a zero, negative or malformed amount naming the field, and an unknown carrier', async () => {
    invalid(await pay(admin, { client_id: client.clientId, amount: '0' }), 'amount');
    invalid(await pay(admin, { client_id: client.clientId, amount: '-5' }), 'amount');
    invalid(await pay(admin, { client_id: client.clientId, amount: '1.1234567' }), 'amount');
    invalid(await pay(admin, { client_id: client.clientId, amount: '5', fee: 'x' }), 'fee');
    fails(await pay(admin, { client_id: 999_999, amount: '5' }), 150);
  });

  it('cancelling is a reversing ledger row, needs the finance permission to delete payments, and happens once', async () => {
    const p = ok(await pay(admin, { client_id: other.clientId, amount: '30' }));
    const clerk = await makeRestrictedAdmin(h, admin, 'pay_clerk', { '/finance/payment': 'rw' });
    ok(await pay(clerk.token, { client_id: other.clientId, amount: '5' }));
    denied(
      await h.call('POST', `/api/finance/payment/${p.payment_id}/cancel`, { token: clerk.token, body: {} }),
    );
    const boss = await makeRestrictedAdmin(h, admin, 'pay_boss', {
      '/finance/payment': 'rw',
      'finance:delete_payment': 'r',
    });
    const c = ok(
      await h.call<{ balance: string }>('POST', `/api/finance/payment/${p.payment_id}/cancel`, {
        token: boss.token,
        body: { note: 'bounced' },
      }),
    );
    expect(c.balance).toBe('5.000000');
    fails(
      await h.call('POST', `/api/finance/payment/${p.payment_id}/cancel`, { token: boss.token, body: {} }),
      170,
      /already canceled/,
    );
    expect((await ledgerOf(other.clientId)).map((r) => [r.ref, r.amount])).toEqual([
      [`payment:${p.payment_id}`, '30.000000'],
      [`payment:${p.payment_id + 1}`, '5.000000'],
      [`payment:${p.payment_id}:cancel`, '-30.000000'],
    ]);
    const row = ok(await payments(admin, `?client_id=${other.clientId}&status=canceled`)).items[0];
    expect(row).toMatchObject({ status: 'canceled', canceled_by: 'pay_boss', cancel_note: 'bounced' });
  });

  it('a client user sees only its own received payments and cannot record one; a vendor sees none', async () => {
    const own = ok(await payments(client.token, `?client_id=${other.clientId}`));
    expect(own.items.every((p) => p.client_id === client.clientId)).toBe(true);
    expect(own.total).toBe(1);
    denied(await pay(client.token, { client_id: client.clientId, amount: '1000' }));
    denied(await payments(vendor.token));
  });

  it('recordPayment (the online payment entry) is idempotent under concurrency and keeps balance = ledger', async () => {
    const before = await balanceOf(client.clientId);
    const runs = Array.from({ length: 40 }, (_, i) =>
      db()
        .transaction()
        .execute((trx) =>
          recordPayment(trx, {
            client_id: client.clientId,
            direction: 'received',
            amount: '0.01',
            method: 'card',
            // every payment twice: each key must credit once
            idempotency_key: `provider-evt-${i % 20}`,
            created_by: 'card provider',
          }),
        ),
    );
    const done = await Promise.all(runs);
    expect(done.filter((d) => d.created)).toHaveLength(20);
    expect(await balanceOf(client.clientId)).toBe((Number(before) + 0.2).toFixed(6));
    const check = await checkBalances(db(), { clientIds: [client.clientId] });
    expect(check[0]?.difference).toBe('0.000000');
  });
});

describe('Credit and debit notes', () => {
  it('a credit note raises, a debit note lowers the balance, each one ledger row; cancelling reverses once', async () => {
    const start = await balanceOf(other.clientId);
    const credit = ok(
      await h.call<{ note_id: number; balance: string }>('POST', '/api/finance/note/create', {
        token: admin,
        body: { client_id: other.clientId, kind: 'credit', amount: '12.5', note: 'goodwill' },
      }),
    );
    const debit = ok(
      await h.call<{ note_id: number; balance: string }>('POST', '/api/finance/note/create', {
        token: admin,
        body: { client_id: other.clientId, kind: 'debit', amount: '2.5' },
      }),
    );
    expect(Number(debit.balance) - Number(start)).toBeCloseTo(10, 6);
    const rows = await ledgerOf(other.clientId);
    expect(rows.slice(-2).map((r) => [r.kind, r.ref, r.amount])).toEqual([
      ['credit_note', `note:${credit.note_id}`, '12.500000'],
      ['debit_note', `note:${debit.note_id}`, '-2.500000'],
    ]);
    const clerk = await makeRestrictedAdmin(h, admin, 'note_clerk', { '/finance/invoice': 'rw' });
    denied(await h.call('POST', `/api/finance/note/${credit.note_id}/cancel`, { token: clerk.token }));
    ok(await h.call('POST', `/api/finance/note/${credit.note_id}/cancel`, { token: admin }));
    fails(await h.call('POST', `/api/finance/note/${credit.note_id}/cancel`, { token: admin }), 170);
    expect((await ledgerOf(other.clientId)).at(-1)).toMatchObject({
      kind: 'credit_note',
      ref: `note:${credit.note_id}:cancel`,
      amount: '-12.500000',
    });
    const notes = ok(
      await h.call<{ items: { note_id: number; status: string }[] }>(
        'GET',
        `/api/finance/note/list?client_id=${other.clientId}`,
        { token: other.token },
      ),
    );
    expect(notes.items.map((n) => [n.note_id, n.status])).toEqual([
      [debit.note_id, 'normal'],
      [credit.note_id, 'canceled'],
    ]);
    // a client sees only its own notes
    expect(
      ok(
        await h.call<{ total: number }>('GET', `/api/finance/note/list?client_id=${other.clientId}`, {
          token: client.token,
        }),
      ).total,
    ).toBe(0);
  });
});

describe('Credit and debit notes, sent twice', () => {
  it('the same idempotency key records a note once, also when ten requests race; another key is a new note', async () => {
    const noted = await makeCarrierUser(h, admin, 'Noteco');
    const start = await balanceOf(noted.clientId);
    const body = {
      client_id: noted.clientId,
      kind: 'credit',
      amount: '1.25',
      idempotency_key: 'note-key-0001',
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call<{ note_id: number; created: boolean; balance: string }>('POST', '/api/finance/note/create', {
          token: admin,
          body,
        }),
      ),
    );
    const made = answers.map(ok);
    expect(made.filter((a) => a.created)).toHaveLength(1);
    expect(new Set(made.map((a) => a.note_id)).size).toBe(1);
    expect(Number(await balanceOf(noted.clientId)) - Number(start)).toBeCloseTo(1.25, 6);
    expect((await ledgerOf(noted.clientId)).filter((r) => r.ref === `note:${made[0]!.note_id}`)).toHaveLength(
      1,
    );
    // the same key for another carrier, or another key, is a new note
    const again = ok(
      await h.call<{ created: boolean }>('POST', '/api/finance/note/create', {
        token: admin,
        body: { ...body, idempotency_key: 'note-key-0002' },
      }),
    );
    expect(again.created).toBe(true);
    invalid(
      await h.call('POST', '/api/finance/note/create', {
        token: admin,
        body: { ...body, idempotency_key: 'short' },
      }),
      'idempotency_key',
    );
    const check = await checkBalances(db(), { clientIds: [noted.clientId] });
    expect(check[0]?.difference).toBe('0.000000');
  });
});

describe('Statement and mutual balance', () => {
  it('opening + what moved = closing, split by what moved it; a client gets its own whatever id it sends', async () => {
    const st = ok(
      await h.call<{
        client_id: number;
        opening: string;
        closing: string;
        figures: Record<string, string>;
        net_owed_by_carrier: string;
        items: { ref: string }[];
        total: number;
      }>('GET', `/api/finance/mutual_transaction/${other.clientId}`, { token: admin }),
    );
    expect(st.opening).toBe('0.000000');
    expect(st.closing).toBe(await balanceOf(other.clientId));
    expect(st.figures).toMatchObject({
      payments_received: '5.000000', // 30 + 5 − 30 canceled
      credit_notes: '0.000000', // 12.5 − 12.5 canceled
      debit_notes: '-2.500000',
    });
    expect(st.net_owed_by_carrier).toBe('-2.500000');
    expect(st.total).toBe(st.items.length);

    const mine = ok(
      await h.call<{ client_id: number }>('GET', `/api/finance/mutual_transaction/${other.clientId}`, {
        token: client.token,
      }),
    );
    expect(mine.client_id).toBe(client.clientId);
    // a period after everything: opening = closing = the balance
    const later = ok(
      await h.call<{ opening: string; closing: string; total: number }>(
        'GET',
        `/api/finance/mutual_transaction/${other.clientId}?time_from=2100-01-01`,
        { token: admin },
      ),
    );
    expect(later).toMatchObject({ opening: st.closing, closing: st.closing, total: 0 });

    const overall = ok(
      await h.call<{ items: { client_id: number; payments_sent: string; closing: string }[] }>(
        'GET',
        '/api/finance/overall_mutual_balance/list?per_page=100',
        { token: admin },
      ),
    );
    expect(overall.items.find((r) => r.client_id === vendor.clientId)).toMatchObject({
      payments_sent: '-40.000000',
      closing: '-40.000000',
    });
    denied(await h.call('GET', '/api/finance/overall_mutual_balance/list', { token: client.token }));
  });
});

describe('Finance permissions', () => {
  it('regenerating balances needs the finance right to reset balances besides the page', async () => {
    const regenerate = (token: string) =>
      h.call('POST', '/api/finance/regenerate_balance/regenerate', { token, body: { client_ids: [] } });
    const page = await makeRestrictedAdmin(h, admin, 'regen_page', { '/finance/regenerate_balance': 'rw' });
    denied(await regenerate(page.token));
    const right = await makeRestrictedAdmin(h, admin, 'regen_right', {
      '/finance/regenerate_balance': 'rw',
      'finance:reset_balance': 'r',
    });
    ok(await regenerate(right.token));
  });
});
