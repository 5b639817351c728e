import type { InvoiceDetail, VendorInvoiceDetail } from '@tandem/contract';
import { formatMoney, parseMoney } from '@tandem/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeAllDue } from '../../src/modules/billing/extra-charges';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import {
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  upload,
  type Harness,
} from './harness';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

/**
 * Extra charges and vendor invoices received (docs/billing.md): every path that moves a balance is
 * one ledger row, once, whatever the number of sends; vendor invoices compare with the CDRs.
 */
let h: Harness;
let admin: string;
let f: Fixture;
let vendorB: number;

const db = () => h.built.services.db;
const balanceOf = async (clientId: number) =>
  (
    await db()
      .selectFrom('carriers')
      .select('balance')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow()
  ).balance;
const ledger = (clientId: number, refPrefix: string) =>
  db()
    .selectFrom('ledger')
    .select(['kind', 'side', 'ref', 'amount', 'balance_before', 'balance_after'])
    .where('client_id', '=', clientId)
    .where('ref', 'like', `${refPrefix}%`)
    .orderBy('ledger_id')
    .execute();
const plus = (a: string, b: string) => formatMoney(parseMoney(a) + parseMoney(b), 6);

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  const key = await switchKey(h, admin);
  f = await termination(h);
  vendorB = f.vendors[1]!.carrier;
  // The vendor's rates name their countries: Tandem's figures per destination.
  await db().updateTable('rates').set({ country: 'United Kingdom' }).where('code', '=', '44').execute();
  await db().updateTable('rates').set({ country: 'United States' }).where('code', '=', '1').execute();
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
  // Vendor B carries (LCR picks the cheaper: B for the UK, A for the US, so force B by numbers to the UK).
  ok(
    await sendCdrs(h, key, 'fx-1', [
      cdrOf(f, { duration: 60, start: '2026-11-20T10:00:00Z' }),
      cdrOf(f, { duration: 120, start: '2026-11-21T10:00:00Z' }),
    ]),
  );
}, 240_000);
afterAll(async () => {
  await h.close();
});

describe('Extra charges', () => {
  let oneOff: number;

  it('a one-off charge dated in the past is charged at once: one ledger row; sent twice, recorded once', async () => {
    const before = await balanceOf(f.customer);
    const body = {
      client_id: f.customer,
      name: 'Port setup',
      amount: '1.50',
      frequency: 'once',
      start_date: '2026-11-05',
      idempotency_key: 'charge-key-0001',
    };
    const [a, b] = await Promise.all([
      h.call<{ extra_charge_id: number; created: boolean; charged: number; balance: string }>(
        'POST',
        '/api/finance/extra_charge/create',
        { token: admin, body },
      ),
      h.call<{ extra_charge_id: number; created: boolean; charged: number }>(
        'POST',
        '/api/finance/extra_charge/create',
        { token: admin, body },
      ),
    ]);
    const ra = ok(a);
    const rb = ok(b);
    expect(ra.extra_charge_id).toBe(rb.extra_charge_id);
    expect([ra.created, rb.created].sort()).toEqual([false, true]);
    expect(ra.charged + rb.charged).toBe(1);
    oneOff = ra.extra_charge_id;
    const rows = await ledger(f.customer, `extra_charge:${oneOff}:`);
    expect(rows).toEqual([
      {
        kind: 'extra_charge',
        side: 'customer',
        ref: `extra_charge:${oneOff}:2026-11-05`,
        amount: '-1.500000',
        balance_before: before,
        balance_after: plus(before, '-1.5'),
      },
    ]);
    expect(await balanceOf(f.customer)).toBe(plus(before, '-1.5'));
    const list = ok(
      await h.call<{
        items: { extra_charge_id: number; status: string; charged_total: string; next_date: string | null }[];
      }>('GET', `/api/finance/extra_charge/list?client_id=${f.customer}`, { token: admin }),
    );
    expect(list.items.find((i) => i.extra_charge_id === oneOff)).toMatchObject({
      status: 'finished',
      charged_total: '1.500000',
      next_date: null,
    });
  });

  it('a recurring charge is charged by the run for each date due, once, whatever the runs; stop ends it', async () => {
    const r = ok(
      await h.call<{ extra_charge_id: number; charged: number }>('POST', '/api/finance/extra_charge/create', {
        token: admin,
        body: {
          client_id: vendorB,
          side: 'vendor',
          name: 'Cross-connect',
          amount: '10',
          frequency: 'weekly',
          start_date: '2030-01-01',
          idempotency_key: 'charge-key-0002',
        },
      }),
    );
    expect(r.charged).toBe(0);
    const id = r.extra_charge_id;
    const before = await balanceOf(vendorB);
    const now = new Date('2030-01-15T12:00:00Z');
    // Two runs at once (two processes), then a third.
    await Promise.all([chargeAllDue(h.built.services, { now }), chargeAllDue(h.built.services, { now })]);
    await chargeAllDue(h.built.services, { now });
    const rows = await ledger(vendorB, `extra_charge:${id}:`);
    expect(rows.map((x) => [x.ref, x.amount])).toEqual([
      [`extra_charge:${id}:2030-01-01`, '10.000000'],
      [`extra_charge:${id}:2030-01-08`, '10.000000'],
      [`extra_charge:${id}:2030-01-15`, '10.000000'],
    ]);
    // A vendor's charge is owed to it: its balance grows.
    expect(await balanceOf(vendorB)).toBe(plus(before, '30'));
    ok(await h.call('POST', `/api/finance/extra_charge/${id}/stop`, { token: admin }));
    fails(await h.call('POST', `/api/finance/extra_charge/${id}/stop`, { token: admin }), 170);
    await chargeAllDue(h.built.services, { now: new Date('2030-03-01T00:00:00Z') });
    expect(await ledger(vendorB, `extra_charge:${id}:`)).toHaveLength(3);
    // Cancel one occurrence: a reversing row; twice is refused and moves nothing.
    const c = ok(
      await h.call<{ balance: string }>('POST', `/api/finance/extra_charge/${id}/runs/1/cancel`, {
        token: admin,
      }),
    );
    expect(c.balance).toBe(plus(before, '20'));
    fails(await h.call('POST', `/api/finance/extra_charge/${id}/runs/1/cancel`, { token: admin }), 170);
    const after = await ledger(vendorB, `extra_charge:${id}:`);
    expect(after.map((x) => [x.ref, x.amount]).at(-1)).toEqual([
      `extra_charge:${id}:2030-01-08:cancel`,
      '-10.000000',
    ]);
    expect(after).toHaveLength(4);
    const runs = ok(
      await h.call<{ items: { occurrence: number; status: string }[] }>(
        'GET',
        `/api/finance/extra_charge/${id}/runs`,
        { token: admin },
      ),
    ).items;
    expect(runs.map((x) => [x.occurrence, x.status])).toEqual([
      [2, 'charged'],
      [1, 'canceled'],
      [0, 'charged'],
    ]);
  });

  it('shows on the invoice of its period: subtotal = usage + charges rounded once', async () => {
    const inv = ok(
      await h.call<{ invoice_id: number }>('POST', '/api/finance/invoice/create', {
        token: admin,
        body: { client_id: f.customer, date_from: '2026-11-01', date_to: '2026-11-30' },
      }),
    );
    const d = ok(
      await h.call<InvoiceDetail>('GET', `/api/finance/invoice/${inv.invoice_id}`, { token: admin }),
    );
    expect(d.lines.charges).toEqual([
      { extra_charge_id: oneOff, occurrence: 0, date: '2026-11-05', name: 'Port setup', amount: '1.500000' },
    ]);
    expect(d.extra_charges).toBe('1.50');
    expect(d.subtotal).toBe(formatMoney(parseMoney(d.usage_exact) + parseMoney('1.5'), 2));
    expect(d.amount).toBe(d.subtotal);
    // The PDF is drawn with the charges.
    const pdf = await h.built.app.inject({
      method: 'GET',
      url: `/api/finance/invoice/${inv.invoice_id}/pdf`,
      headers: { 'x-auth-token': admin },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses bad input naming the field; needs the Extra Charge permission; portal users have none', async () => {
    invalid(
      await h.call('POST', '/api/finance/extra_charge/create', {
        token: admin,
        body: { client_id: f.customer, name: 'X', amount: '0' },
      }),
      'amount',
    );
    invalid(
      await h.call('POST', '/api/finance/extra_charge/create', {
        token: admin,
        body: {
          client_id: f.customer,
          name: 'X',
          amount: '1',
          frequency: 'monthly',
          start_date: '2026-11-05',
          end_date: '2026-11-01',
        },
      }),
      'end_date',
    );
    invalid(
      await h.call('POST', '/api/finance/extra_charge/create', {
        token: admin,
        body: { client_id: f.customer, name: '', amount: '1' },
      }),
      'name',
    );
    notVisible(
      await h.call('POST', '/api/finance/extra_charge/create', {
        token: admin,
        body: { client_id: 999999, name: 'X', amount: '1' },
      }),
    );
    const clerk = await makeRestrictedAdmin(h, admin, 'charge_reader', { '/finance/extra_charge': 'r' });
    ok(await h.call('GET', '/api/finance/extra_charge/list', { token: clerk.token }));
    denied(
      await h.call('POST', '/api/finance/extra_charge/create', {
        token: clerk.token,
        body: { client_id: f.customer, name: 'X', amount: '1' },
      }),
    );
    const client = await makeCarrierUser(h, admin, 'ChargeClient');
    denied(await h.call('GET', '/api/finance/extra_charge/list', { token: client.token }));
  });
});

describe('Vendor invoices', () => {
  let viId: number;
  let ours: string;

  it('records a vendor invoice and compares it with Tandem’s cost of the vendor: totals, destination, day', async () => {
    const r = ok(
      await h.call<{ vendor_invoice_id: number }>('POST', '/api/finance/vendor_invoice/create', {
        token: admin,
        body: {
          client_id: vendorB,
          invoice_number: 'VB-2026-11',
          invoice_date: '2026-12-02',
          period_from: '2026-11-01',
          period_to: '2026-11-30',
          amount: '0.175',
          minutes: '3.5',
          lines: [
            { key: 'united kingdom', minutes: '3', amount: '0.075' },
            { key: 'France', minutes: '0.5', amount: '0.10' },
          ],
        },
      }),
    );
    viId = r.vendor_invoice_id;
    const d = ok(
      await h.call<VendorInvoiceDetail>('GET', `/api/finance/vendor_invoice/${viId}`, { token: admin }),
    );
    // Vendor B: 60 s + 120 s to the UK at 0.0250 a minute.
    ours = d.comparison.our_amount;
    expect(ours).toBe('0.075000');
    expect(d.comparison).toMatchObject({
      our_calls: 2,
      our_minutes: '3.00',
      their_amount: '0.175000',
      amount_difference: '0.100000',
      minutes_difference: '0.50',
      amount_difference_percent: '133.33',
    });
    expect(d.comparison.by_destination.map((l) => [l.key, l.amount_difference, l.their_amount])).toEqual([
      ['France', '0.100000', '0.100000'],
      ['United Kingdom', '0.000000', '0.075000'],
    ]);
    expect(d.our_days.map((x) => [x.key, x.amount])).toEqual([
      ['2026-11-20', '0.025000'],
      ['2026-11-21', '0.050000'],
    ]);
    expect(d).toMatchObject({
      status: 'received',
      currency: 'USD',
      our_amount: '0.075000',
      difference: '0.100000',
    });
    // Recording moved no balance.
    expect(await ledger(vendorB, 'vendor_invoice:')).toEqual([]);
  });

  it('refuses the same number twice, another currency, a period ending before it starts', async () => {
    const body = {
      client_id: vendorB,
      invoice_number: 'vb-2026-11',
      invoice_date: '2026-12-02',
      period_from: '2026-11-01',
      period_to: '2026-11-30',
      amount: '1',
    };
    fails(
      await h.call('POST', '/api/finance/vendor_invoice/create', { token: admin, body }),
      160,
      /already exists/,
    );
    invalid(
      await h.call('POST', '/api/finance/vendor_invoice/create', {
        token: admin,
        body: { ...body, invoice_number: 'VB-X', currency: 'EUR' },
      }),
      'currency',
      'The carrier bills in USD',
    );
    invalid(
      await h.call('POST', '/api/finance/vendor_invoice/create', {
        token: admin,
        body: { ...body, invoice_number: 'VB-Y', period_to: '2026-10-01' },
      }),
      'period_to',
    );
  });

  it('dispute, then resolve at the amount agreed: one ledger adjustment, once, sent twice', async () => {
    ok(
      await h.call('POST', `/api/finance/vendor_invoice/${viId}/dispute`, {
        token: admin,
        body: { note: 'France was never sent to this vendor' },
      }),
    );
    let d = ok(
      await h.call<VendorInvoiceDetail>('GET', `/api/finance/vendor_invoice/${viId}`, { token: admin }),
    );
    expect(d).toMatchObject({ status: 'disputed', disputed_amount: '0.100000' });
    // Accepting at another amount needs the dispute first (here it has one); resolving twice at once.
    const before = await balanceOf(vendorB);
    const agreed = plus(ours, '0.04');
    const send = () =>
      h.call<{ status: string; adjustment: string; balance: string; changed: boolean }>(
        'POST',
        `/api/finance/vendor_invoice/${viId}/settle`,
        { token: admin, body: { agreed_amount: agreed, note: 'half of France' } },
      );
    const [a, b] = await Promise.all([send(), send()]);
    const results = [ok(a), ok(b)];
    expect(results.map((x) => x.changed).sort()).toEqual([false, true]);
    expect(results.every((x) => x.status === 'resolved' && x.adjustment === '0.040000')).toBe(true);
    expect(await ledger(vendorB, 'vendor_invoice:')).toEqual([
      {
        kind: 'adjustment',
        side: 'vendor',
        ref: `vendor_invoice:${viId}`,
        amount: '0.040000',
        balance_before: before,
        balance_after: plus(before, '0.04'),
      },
    ]);
    expect(await balanceOf(vendorB)).toBe(plus(before, '0.04'));
    // A third send with the same amount: unchanged; another amount: refused; a settled one stays as it is.
    expect(ok(await send()).changed).toBe(false);
    fails(
      await h.call('POST', `/api/finance/vendor_invoice/${viId}/settle`, {
        token: admin,
        body: { agreed_amount: '5', note: '' },
      }),
      170,
      'The vendor invoice is already settled',
    );
    fails(
      await h.call('PATCH', `/api/finance/vendor_invoice/${viId}`, { token: admin, body: { amount: '9' } }),
      170,
    );
    fails(await h.call('DELETE', `/api/finance/vendor_invoice/${viId}`, { token: admin }), 170);
    d = ok(await h.call<VendorInvoiceDetail>('GET', `/api/finance/vendor_invoice/${viId}`, { token: admin }));
    expect(d).toMatchObject({
      status: 'resolved',
      agreed_amount: agreed,
      adjustment: '0.040000',
      settled_by: 'admin',
    });
    expect(await ledger(vendorB, 'vendor_invoice:')).toHaveLength(1);
  });

  it('accepting at the vendor’s amount adjusts by vendor − Tandem; another amount needs a dispute', async () => {
    const r = ok(
      await h.call<{ vendor_invoice_id: number }>('POST', '/api/finance/vendor_invoice/create', {
        token: admin,
        body: {
          client_id: vendorB,
          invoice_number: 'VB-2026-11-20',
          invoice_date: '2026-12-02',
          period_from: '2026-11-20',
          period_to: '2026-11-20',
          amount: '0.02',
        },
      }),
    );
    invalid(
      await h.call('POST', `/api/finance/vendor_invoice/${r.vendor_invoice_id}/settle`, {
        token: admin,
        body: { agreed_amount: '0.01' },
      }),
      'agreed_amount',
    );
    const before = await balanceOf(vendorB);
    const s = ok(
      await h.call<{ status: string; adjustment: string }>(
        'POST',
        `/api/finance/vendor_invoice/${r.vendor_invoice_id}/settle`,
        { token: admin, body: {} },
      ),
    );
    // The vendor's 0.02 against Tandem's 0.025 of that day.
    expect(s).toMatchObject({ status: 'accepted', adjustment: '-0.005000' });
    expect(await balanceOf(vendorB)).toBe(plus(before, '-0.005'));
  });

  it('keeps the vendor’s PDF (only a PDF); deleting needs the finance permission', async () => {
    const r = ok(
      await h.call<{ vendor_invoice_id: number }>('POST', '/api/finance/vendor_invoice/create', {
        token: admin,
        body: {
          client_id: vendorB,
          invoice_number: 'VB-PDF',
          invoice_date: '2026-12-02',
          period_from: '2026-10-01',
          period_to: '2026-10-31',
          amount: '5',
        },
      }),
    );
    const url = `/api/finance/vendor_invoice/${r.vendor_invoice_id}/pdf`;
    const pdf = Buffer.from('%PDF-1.4\n% vendor invoice\n%%EOF\n');
    const up = await upload(h, url, admin, {}, { name: 'vb.pdf', data: pdf, type: 'application/pdf' });
    expect(ok(up)).toEqual({ size: pdf.length });
    const got = await h.built.app.inject({ method: 'GET', url, headers: { 'x-auth-token': admin } });
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.rawPayload.equals(pdf)).toBe(true);
    invalid(await upload(h, url, admin, {}, { name: 'vb.pdf', data: Buffer.from('not a pdf') }), 'file');
    const list = ok(
      await h.call<{ items: { invoice_number: string; has_pdf: boolean }[] }>(
        'GET',
        `/api/finance/vendor_invoice/list?client_id=${vendorB}&invoice_number=PDF`,
        { token: admin },
      ),
    );
    expect(list.items).toEqual([expect.objectContaining({ invoice_number: 'VB-PDF', has_pdf: true })]);
    const clerk = await makeRestrictedAdmin(h, admin, 'vi_clerk', { '/finance/vendor_invoice': 'rw' });
    ok(await h.call('GET', `/api/finance/vendor_invoice/${r.vendor_invoice_id}`, { token: clerk.token }));
    denied(
      await h.call('DELETE', `/api/finance/vendor_invoice/${r.vendor_invoice_id}`, { token: clerk.token }),
    );
    ok(await h.call('DELETE', `/api/finance/vendor_invoice/${r.vendor_invoice_id}`, { token: admin }));
    notVisible(await h.call('GET', url, { token: admin }));
    const client = await makeCarrierUser(h, admin, 'ViClient', { client_type: 'vendor' });
    denied(await h.call('GET', '/api/finance/vendor_invoice/list', { token: client.token }));
  });
});

describe('Invoice setting logo', () => {
  // A 1×1 PNG.
  const PNG =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it('is kept as uploaded and drawn on the invoice PDF; other types are refused naming the field', async () => {
    invalid(
      await h.call('POST', '/api/config/invoice_setting/create', {
        token: admin,
        body: { name: 'Bad logo', logo: 'data:image/gif;base64,R0lGOD' },
      }),
      'logo',
    );
    const s = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/invoice_setting/create', {
        token: admin,
        body: { name: 'With logo', logo: PNG },
      }),
    );
    const pdfOf = async (id: number) =>
      (
        await h.built.app.inject({
          method: 'GET',
          url: `/api/finance/invoice/${id}/pdf`,
          headers: { 'x-auth-token': admin },
        })
      ).rawPayload.toString('latin1');
    const make = async (from: string) =>
      ok(
        await h.call<{ invoice_id: number }>('POST', '/api/finance/invoice/create', {
          token: admin,
          body: { client_id: f.customer, date_from: from, date_to: from },
        }),
      ).invoice_id;
    const plain = await make('2026-09-01');
    expect(await pdfOf(plain)).not.toContain('/Subtype /Image');
    ok(
      await h.call('POST', `/api/config/invoice_setting/${s.object_id}/carriers`, {
        token: admin,
        body: { client_ids: [f.customer] },
      }),
    );
    const withLogo = await make('2026-09-02');
    expect(await pdfOf(withLogo)).toContain('/Subtype /Image');
    const row = ok(
      await h.call<{ logo: string }>('GET', `/api/config/invoice_setting/${s.object_id}`, { token: admin }),
    );
    expect(row.logo).toBe(PNG);
  });
});
