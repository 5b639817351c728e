import type { InvoiceDetail, InvoiceRow } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAutoInvoices } from '../../src/modules/billing/auto-invoice';
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
  startSmtp,
  type Harness,
} from './harness';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;
let f: Fixture;
let settingId: number;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'billing@tandem.test',
  });
  admin = await h.setupAdmin();
  const key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
  ok(
    await sendCdrs(h, key, 'inv-1', [
      cdrOf(f, { duration: 60 }),
      cdrOf(f, { duration: 30, dnis: '12125550123' }),
    ]),
  );
  ok(await sendCdrs(h, key, 'inv-2', [cdrOf(f, { duration: 120, start: '2026-11-21T10:00:00Z' })]));
  // posted as if the switch had sent them on the day (the ledger dates a balance move by its
  // posting, and the invoice's opening and closing balances read those dates), whatever today is
  await db()
    .updateTable('ledger')
    .set({ created_at: new Date('2026-11-21T12:00:00Z') })
    .where('ref', 'in', ['inv-1', 'inv-2'])
    .execute();
  await db()
    .updateTable('carriers')
    .set({ billing_email: 'ap@customer.example.com' })
    .where('client_id', '=', f.customer)
    .execute();
  settingId = ok(
    await h.call<{ object_id: number }>('POST', '/api/config/invoice_setting/create', {
      token: admin,
      body: {
        name: 'Standard',
        decimal_places: 2,
        tax_percent: '10',
        is_default: true,
        company_info: 'Tandem Voice Ltd',
      },
    }),
  ).object_id;
}, 240_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const db = () => h.built.services.db;
const create = (body: Record<string, unknown>, token = admin) =>
  h.call<{ invoice_id: number; invoice_number: string }>('POST', '/api/finance/invoice/create', {
    token,
    body,
  });
const get = (id: number, token = admin) =>
  h.call<InvoiceDetail>('GET', `/api/finance/invoice/${id}`, { token });
const pay = (body: Record<string, unknown>) =>
  h.call<{ payment_id: number }>('POST', '/api/finance/payment/create', { token: admin, body });

let invoiceId: number;

describe('Invoices', () => {
  it('a manual invoice sums the CDRs of the period exactly and rounds once to the setting’s places, with tax', async () => {
    const r = ok(
      await create({
        client_id: f.customer,
        date_from: '2026-11-01',
        date_to: '2026-11-30',
        include_tax: true,
      }),
    );
    invoiceId = r.invoice_id;
    expect(r.invoice_number).toMatch(/^INV\d{6}$/);
    const inv = ok(await get(invoiceId));
    expect(inv).toMatchObject({
      usage_exact: '0.160000',
      subtotal: '0.16',
      tax_percent: '10.0000',
      tax: '0.02', // 0.016 half up
      amount: '0.18',
      due: '0.18',
      calls: 3,
      pay_status: 'unpaid',
      status: 'normal',
      period_from: '2026-11-01',
      period_to: '2026-11-30',
      period_start: '2026-11-01T00:00:00.000Z',
      period_end: '2026-12-01T00:00:00.000Z',
      closing_balance: '-0.16',
    });
    const sum = (k: 'destination' | 'day') => inv.lines[k].reduce((a, l) => a + Number(l.amount), 0);
    expect(sum('destination')).toBeCloseTo(0.16, 6);
    expect(inv.lines.day.map((d) => d.key)).toEqual(['2026-11-20', '2026-11-21']);
    expect(sum('day')).toBeCloseTo(0.16, 6);
  });

  it('refuses an overlapping period and a period ending before it starts', async () => {
    fails(
      await create({ client_id: f.customer, date_from: '2026-11-15', date_to: '2026-12-15' }),
      170,
      /already covers part of this period/,
    );
    invalid(
      await create({ client_id: f.customer, date_from: '2026-11-15', date_to: '2026-11-01' }),
      'date_to',
    );
    invalid(
      await create({ client_id: f.customer, date_from: '2026-13-01', date_to: '2026-11-01' }),
      'date_from',
    );
  });

  it('payments and notes settle it: partly paid, credit note, paid; over-allocation refused', async () => {
    invalid(
      await pay({
        client_id: f.customer,
        amount: '1',
        allocations: [{ invoice_id: invoiceId, amount: '0.5' }],
      }),
      'allocations.0.amount',
    );
    invalid(
      await pay({
        client_id: f.customer,
        amount: '0.05',
        allocations: [{ invoice_id: invoiceId, amount: '0.10' }],
      }),
      'allocations',
    );
    ok(
      await pay({
        client_id: f.customer,
        amount: '0.10',
        allocations: [{ invoice_id: invoiceId, amount: '0.10' }],
      }),
    );
    expect(ok(await get(invoiceId))).toMatchObject({
      pay_status: 'partially_paid',
      paid_amount: '0.10',
      due: '0.08',
    });
    invalid(
      await h.call('POST', '/api/finance/note/create', {
        token: admin,
        body: { client_id: f.customer, kind: 'credit', invoice_id: invoiceId, amount: '0.09' },
      }),
      'amount',
    );
    ok(
      await h.call('POST', '/api/finance/note/create', {
        token: admin,
        body: { client_id: f.customer, kind: 'credit', invoice_id: invoiceId, amount: '0.08' },
      }),
    );
    expect(ok(await get(invoiceId))).toMatchObject({ pay_status: 'paid', credited: '0.08', due: '0.00' });
    const list = ok(
      await h.call<{ items: { payment_id: number }[] }>(
        'GET',
        `/api/finance/payment/list?invoice_id=${invoiceId}`,
        {
          token: admin,
        },
      ),
    );
    expect(list.items).toHaveLength(1);
  });

  it('renders a PDF and the CDR CSV; a public link downloads without sign-in until it expires', async () => {
    const pdf = await h.built.app.inject({
      method: 'GET',
      url: `/api/finance/invoice/${invoiceId}/pdf`,
      headers: { 'x-auth-token': admin },
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const csv = await h.built.app.inject({
      method: 'GET',
      url: `/api/finance/invoice/${invoiceId}/cdr`,
      headers: { 'x-auth-token': admin },
    });
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(4); // header + 3 calls
    const link = ok(
      await h.call<{ url: string; expires_at: string }>('POST', `/api/finance/invoice/${invoiceId}/link`, {
        token: admin,
      }),
    );
    expect(link.url).toMatch(/\/api\/invoice\/download\/[A-Za-z0-9_-]{43}$/);
    const path = new URL(link.url).pathname;
    const pub = await h.built.app.inject({ method: 'GET', url: path });
    expect(pub.statusCode).toBe(200);
    expect(pub.headers['content-type']).toBe('application/pdf');
    expect((await h.built.app.inject({ method: 'GET', url: path + 'x' })).statusCode).toBe(404);
    await db()
      .updateTable('invoices')
      .set({ token_expires_at: new Date(Date.now() - 1000) })
      .where('invoice_id', '=', invoiceId)
      .execute();
    const expired = await h.built.app.inject({ method: 'GET', url: path });
    expect(expired.statusCode).toBe(404);
    expect(expired.json<{ error: { message: string } }>().error.message).toMatch(/expired/);
  });

  it('sends the invoice to the billing e-mail with the PDF attached, in the invoice log', async () => {
    const r = ok(
      await h.call<{ sent: boolean }>('POST', `/api/finance/invoice/${invoiceId}/send`, {
        token: admin,
        body: {},
      }),
    );
    expect(r.sent).toBe(true);
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(['ap@customer.example.com']);
    expect(mail.subject).toMatch(/^Invoice INV\d{6}/);
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/);
    const log = ok(
      await h.call<{ items: { action: string; status: string; message: string }[] }>(
        'GET',
        '/api/log/invoice_log/list',
        {
          token: admin,
        },
      ),
    );
    expect(log.items[0]).toMatchObject({
      action: 'sent',
      status: 'success',
      message: 'Sent to ap@customer.example.com',
    });
  });

  it('writes the mail from the "Invoice" mail template; a missing template fails the delivery, logged', async () => {
    await db()
      .updateTable('mail_templates')
      .set({ subject: 'Your bill {invoice_number} ({amount} {currency})' })
      .where('event', '=', 'invoice_sent')
      .where('language', '=', 'en')
      .execute();
    const sent = ok(
      await h.call<{ sent: boolean }>('POST', `/api/finance/invoice/${invoiceId}/send`, {
        token: admin,
        body: {},
      }),
    );
    expect(sent.sent).toBe(true);
    const inv = ok(await get(invoiceId));
    expect(smtp.mails.at(-1)!.subject).toBe(`Your bill ${inv.invoice_number} (${inv.amount} USD)`);
    const saved = await db()
      .selectFrom('mail_templates')
      .selectAll()
      .where('event', '=', 'invoice_sent')
      .execute();
    await db().deleteFrom('mail_templates').where('event', '=', 'invoice_sent').execute();
    const before = smtp.mails.length;
    const r = ok(
      await h.call<{ sent: boolean; error: string }>('POST', `/api/finance/invoice/${invoiceId}/send`, {
        token: admin,
        body: {},
      }),
    );
    expect(r).toEqual({ sent: false, error: 'Invoice email template is not defined or defined incorrectly' });
    expect(smtp.mails.length).toBe(before);
    const log = ok(
      await h.call<{ items: { action: string; status: string; message: string }[] }>(
        'GET',
        '/api/log/invoice_log/list',
        { token: admin },
      ),
    );
    expect(log.items[0]).toMatchObject({
      action: 'sent',
      status: 'failed',
      message: `Delivery of invoice #${inv.invoice_number} failed: Invoice email template is not defined or defined incorrectly`,
    });
    await db()
      .insertInto('mail_templates')
      .values(saved.map(({ id: _id, ...t }) => t) as never)
      .execute();
  });

  it('void releases payments, reverse restores the state; delete needs a voided invoice and the finance permission', async () => {
    ok(await h.call('POST', `/api/finance/invoice/${invoiceId}/void`, { token: admin }));
    expect(ok(await get(invoiceId))).toMatchObject({
      status: 'voided',
      paid_amount: '0.00',
      pay_status: 'partially_paid',
    });
    fails(await h.call('POST', `/api/finance/invoice/${invoiceId}/void`, { token: admin }), 170);
    // a voided invoice no longer blocks the period
    const other = ok(await create({ client_id: f.customer, date_from: '2026-11-20', date_to: '2026-11-20' }));
    fails(
      await h.call('POST', `/api/finance/invoice/${invoiceId}/reverse`, { token: admin }),
      170,
      /already covers/,
    );
    ok(await h.call('POST', `/api/finance/invoice/${other.invoice_id}/void`, { token: admin }));
    ok(await h.call('POST', `/api/finance/invoice/${invoiceId}/reverse`, { token: admin }));
    expect(ok(await get(invoiceId)).status).toBe('normal');
    const clerk = await makeRestrictedAdmin(h, admin, 'inv_clerk', { '/finance/invoice': 'rw' });
    denied(await h.call('DELETE', `/api/finance/invoice/${other.invoice_id}`, { token: clerk.token }));
    fails(await h.call('DELETE', `/api/finance/invoice/${invoiceId}`, { token: admin }), 170);
    ok(await h.call('DELETE', `/api/finance/invoice/${other.invoice_id}`, { token: admin }));
    notVisible(await get(other.invoice_id));
  });

  it('a client user sees its own invoices and PDFs only; a vendor none', async () => {
    const client = await makeCarrierUser(h, admin, 'Billco');
    const vendor = await makeCarrierUser(h, admin, 'Billvendor', { client_type: 'vendor' });
    const own = ok(
      await create({ client_id: client.clientId, date_from: '2026-11-01', date_to: '2026-11-30' }),
    );
    const list = ok(
      await h.call<{ items: InvoiceRow[] }>('GET', `/api/finance/invoice/list?client_id=${f.customer}`, {
        token: client.token,
      }),
    );
    expect(list.items.map((i) => i.invoice_id)).toEqual([own.invoice_id]);
    expect(ok(await get(own.invoice_id, client.token)).amount).toBe('0.00');
    notVisible(await get(invoiceId, client.token));
    const pdf = await h.built.app.inject({
      method: 'GET',
      url: `/api/finance/invoice/${invoiceId}/pdf`,
      headers: { 'x-auth-token': client.token },
    });
    expect(pdf.statusCode).toBe(404);
    denied(
      await create(
        { client_id: client.clientId, date_from: '2026-10-01', date_to: '2026-10-31' },
        client.token,
      ),
    );
    denied(await h.call('GET', '/api/finance/invoice/list', { token: vendor.token }));
  });

  it('invoice settings: one default, carriers assigned', async () => {
    const second = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/invoice_setting/create', {
        token: admin,
        body: { name: 'Four places', decimal_places: 4, is_default: true },
      }),
    ).object_id;
    const first = ok(
      await h.call<{ is_default: boolean }>('GET', `/api/config/invoice_setting/${settingId}`, {
        token: admin,
      }),
    );
    expect(first.is_default).toBe(false);
    ok(
      await h.call('POST', `/api/config/invoice_setting/${second}/carriers`, {
        token: admin,
        body: { client_ids: [f.customer] },
      }),
    );
    const carriers = ok(
      await h.call<{ items: { client_id: number; invoice_setting_id: number | null }[] }>(
        'GET',
        `/api/config/invoice_setting/${second}/carriers`,
        { token: admin },
      ),
    );
    expect(carriers.items.find((c) => c.client_id === f.customer)?.invoice_setting_id).toBe(second);
  });
});

describe('Automatic invoices', () => {
  it('needs a payment term; invoices each ended period once in the carrier’s zone, catching up, whatever the runs', async () => {
    fails(
      await h.call('POST', `/api/finance/auto_invoice_management/${f.vendors[1]!.carrier}/start`, {
        token: admin,
        body: {},
      }),
      170,
      /payment term/,
    );
    const term = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/payment_term/create', {
        token: admin,
        body: { name: 'Daily 7', invoicing_cycle: 'daily', grace_days: 7 },
      }),
    ).object_id;
    // GMT+2: the calls of 20 Nov 10:00 UTC and 21 Nov 10:00 UTC are on local days 20 and 21
    await db()
      .updateTable('carriers')
      .set({ payment_term_id: term, time_zone: '+0200', generate_at: 1 })
      .where('client_id', '=', f.customer)
      .execute();
    // the manual invoices of November would overlap: void them
    for (const i of await db()
      .selectFrom('invoices')
      .select('invoice_id')
      .where('client_id', '=', f.customer)
      .where('status', '=', 'normal')
      .execute())
      ok(await h.call('POST', `/api/finance/invoice/${i.invoice_id}/void`, { token: admin }));
    ok(
      await h.call('POST', `/api/finance/auto_invoice_management/${f.customer}/start`, {
        token: admin,
        body: { first_date: '2026-11-19' },
      }),
    );
    const now = new Date('2026-11-22T00:30:00Z'); // 02:30 local on the 22nd: days 19, 20, 21 are due
    const runs = await Promise.all([
      runAutoInvoices(h.built.services, { now, send: false }),
      runAutoInvoices(h.built.services, { now, send: false }),
    ]);
    expect(runs.reduce((a, r) => a + r.created, 0)).toBe(2); // day 19 has no traffic: skipped (non-zero only)
    const again = await runAutoInvoices(h.built.services, { now, send: false });
    expect(again).toEqual({ created: 0, skipped: 0, failed: 0 });
    const auto = await db()
      .selectFrom('invoices')
      .select(['period_start', 'amount', 'due_date', 'invoice_date'])
      .where('client_id', '=', f.customer)
      .where('origin', '=', 'auto')
      .orderBy('period_start')
      .execute();
    expect(auto.map((a) => [a.period_start.toISOString(), a.amount])).toEqual([
      ['2026-11-19T22:00:00.000Z', '0.060000'],
      ['2026-11-20T22:00:00.000Z', '0.100000'],
    ]);
    expect(new Date(auto[0]!.due_date).toISOString().slice(0, 10)).toBe('2026-11-29'); // 22nd + 7 days
    const list = ok(
      await h.call<{ items: { client_id: number; started: boolean; last_period_end: string }[] }>(
        'GET',
        '/api/finance/auto_invoice_management/list?started=true',
        { token: admin },
      ),
    );
    expect(list.items).toEqual([
      expect.objectContaining({
        client_id: f.customer,
        started: true,
        last_period_end: '2026-11-21T22:00:00.000Z',
      }),
    ]);
    ok(await h.call('POST', `/api/finance/auto_invoice_management/${f.customer}/stop`, { token: admin }));
    expect(
      await runAutoInvoices(h.built.services, { now: new Date('2026-11-25T00:00:00Z'), send: false }),
    ).toEqual({
      created: 0,
      skipped: 0,
      failed: 0,
    });
    const job = ok(
      await h.call<{ job_id: number }>('POST', '/api/finance/auto_invoice_management/run', { token: admin }),
    );
    expect(job.job_id).toBeGreaterThan(0);
  });
});
