import { formatMoney, parseMoney } from '@tandem/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { startFakePaypal, startFakeStripe, type FakePaypal, type FakeStripe } from './payment-fakes';

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stripe: FakeStripe;
let paypal: FakePaypal;
let admin: string;
let client: { clientId: number; token: string };
let other: { clientId: number; token: string };

const STRIPE_SECRET = 'sk_test_fake';
const STRIPE_WHSEC = 'whsec_fake_secret';
const PP_ID = 'pp-client';
const PP_SECRET = 'pp-secret';
const PP_HOOK = 'WH-123';

interface Payment {
  id: number;
  status: string;
  amount: string;
  charged: string;
  service_charge: string;
  fee: string;
  error: string;
  provider_ref: string;
  transaction_id: string;
}

const balanceOf = async (clientId: number) =>
  (
    await h.built.services.db
      .selectFrom('carriers')
      .select('balance')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow()
  ).balance;
/** The ledger rows of the payment recorded for an online top-up (billing's payments, key online:<id>). */
const ledgerRows = async (key: string) => {
  const payments = await h.built.services.db
    .selectFrom('payments')
    .select('payment_id')
    .where('idempotency_key', '=', key)
    .execute();
  expect(payments).toHaveLength(1);
  return h.built.services.db
    .selectFrom('ledger')
    .selectAll()
    .where('ref', '=', `payment:${payments[0]!.payment_id}`)
    .execute();
};
const stripeHook = (raw: string, signature: string) =>
  h.call('POST', '/api/payment/webhook/stripe', { raw, headers: { 'stripe-signature': signature } });

beforeAll(async () => {
  smtp = await startSmtp();
  stripe = await startFakeStripe(STRIPE_SECRET, STRIPE_WHSEC);
  paypal = await startFakePaypal(PP_ID, PP_SECRET, PP_HOOK);
  h = await startHarness({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    JOBS_POLL_MS: '50',
    PUBLIC_URL: 'https://portal.carrier.test',
  });
  admin = await h.setupAdmin();
  client = await makeCarrierUser(h, admin, 'Payer');
  other = await makeCarrierUser(h, admin, 'Stranger');
  await h.built.services.db
    .updateTable('carriers')
    .set({ billing_email: 'ap@payer.test', notifications: JSON.stringify({ payment_received: true }) })
    .where('client_id', '=', client.clientId)
    .execute();
  // Building the migrated database takes long on a busy machine.
}, 240_000);
afterAll(async () => {
  await h.close();
  await Promise.all([smtp.close(), stripe.close(), paypal.close()]);
});

describe('payment setting', () => {
  it('stores the keys sealed and never answers them', async () => {
    ok(
      await h.call('PUT', '/api/config/payment_setting/stripe', {
        token: admin,
        body: {
          enabled: true,
          public_key: 'pk_test_fake',
          secret: STRIPE_SECRET,
          webhook_secret: STRIPE_WHSEC,
          api_url: stripe.url,
          currency: 'USD',
          fee_percent: '2.9',
          fee_fixed: '0.30',
          service_charge_percent: '2.9',
        },
      }),
    );
    ok(
      await h.call('PUT', '/api/config/payment_setting/paypal', {
        token: admin,
        body: {
          enabled: true,
          public_key: PP_ID,
          secret: PP_SECRET,
          webhook_secret: PP_HOOK,
          api_url: paypal.url,
          currency: 'USD',
          fee_percent: '3.49',
          fee_fixed: '0.49',
          service_charge_percent: '0',
        },
      }),
    );
    const r = await h.call<{ items: Record<string, unknown>[] }>('GET', '/api/config/payment_setting', {
      token: admin,
    });
    const items = ok(r).items;
    expect(items.map((i) => [i.provider, i.has_secret, i.has_webhook_secret])).toEqual([
      ['stripe', true, true],
      ['paypal', true, true],
    ]);
    expect(JSON.stringify(r.body)).not.toMatch(/sk_test_fake|whsec_fake|pp-secret/);
    const row = await h.built.services.db
      .selectFrom('payment_gateways')
      .select('secret_enc')
      .where('provider', '=', 'stripe')
      .executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(STRIPE_SECRET);
    invalid(
      await h.call('PUT', '/api/config/payment_setting/stripe', {
        token: admin,
        body: {
          enabled: true,
          public_key: 'pk',
          api_url: 'ftp://x',
          currency: 'USD',
          fee_percent: '1',
          fee_fixed: '0',
          service_charge_percent: '1',
        },
      }),
      'api_url',
    );
  });

  it('needs the Payment Setting permission', async () => {
    const r = await makeRestrictedAdmin(h, admin, 'nopay');
    denied(await h.call('GET', '/api/config/payment_setting', { token: r.token }));
    denied(await h.call('GET', '/api/log/auto_payment_log', { token: r.token }));
    // Only a client tops up its own account.
    denied(
      await h.call('POST', '/api/clients/billing/online_payment', {
        token: admin,
        body: { provider: 'stripe', amount: '30' },
      }),
    );
  });
});

describe('card top-up (Stripe)', () => {
  let pay: { id: number; redirect_url: string; charged: string; service_charge: string };

  it('refuses less than the minimum', async () => {
    invalid(
      await h.call('POST', '/api/clients/billing/online_payment', {
        token: client.token,
        body: { provider: 'stripe', amount: '24.99' },
      }),
      'amount',
      'Minimum credit addition is $25.00',
    );
    invalid(
      await h.call('POST', '/api/clients/billing/online_payment', {
        token: client.token,
        body: { provider: 'stripe', amount: '30.001' },
      }),
      'amount',
    );
  });

  it('creates a checkout for the amount plus the service charge, exact to the cent', async () => {
    const opts = ok(
      await h.call<{ providers: { provider: string }[]; min_amount: string }>(
        'GET',
        '/api/clients/billing/online_payment/options',
        {
          token: client.token,
        },
      ),
    );
    expect(opts.providers.map((p) => p.provider)).toEqual(['stripe', 'paypal']);
    expect(opts.min_amount).toBe('25.00');
    pay = ok(
      await h.call<typeof pay>('POST', '/api/clients/billing/online_payment', {
        token: client.token,
        body: { provider: 'stripe', amount: '25' },
      }),
    );
    expect(pay).toMatchObject({ charged: '25.73', service_charge: '0.73' });
    expect(pay.redirect_url).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/);
    const session = [...stripe.sessions.values()].at(-1)!;
    expect(session).toMatchObject({ amount_total: 2573, currency: 'usd' });
    expect(session.metadata.online_payment_id).toBe(String(pay.id));
    const p = ok(
      await h.call<Payment>('GET', `/api/clients/billing/online_payment/${pay.id}`, { token: client.token }),
    );
    expect(p).toMatchObject({ status: 'initial', amount: '25.00', charged: '25.73', fee: '1.05' });
    notVisible(await h.call('GET', `/api/clients/billing/online_payment/${pay.id}`, { token: other.token }));
  });

  it('refuses a webhook whose signature is wrong and credits nothing', async () => {
    const session = [...stripe.sessions.values()].at(-1)!;
    const { raw } = stripe.event(session.id);
    const forged = `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`;
    fails(await stripeHook(raw, forged), 110, 'The webhook signature is not valid');
    // A body changed after signing fails too.
    const signed = stripe.event(session.id);
    fails(await stripeHook(signed.raw.replace('2573', '9999'), signed.signature), 110);
    expect(await balanceOf(client.clientId)).toBe('0.000000');
  });

  it('credits once when the signed webhook is delivered three times', async () => {
    const before = smtp.mails.length;
    const session = [...stripe.sessions.values()].at(-1)!;
    const { raw, signature } = stripe.event(session.id);
    const results = await Promise.all([stripeHook(raw, signature), stripeHook(raw, signature)]);
    results.push(await stripeHook(raw, signature));
    for (const r of results) expect(ok(r as never)).toEqual({ received: true });
    expect(await balanceOf(client.clientId)).toBe('25.000000');
    expect(await ledgerRows(`online:${pay.id}`)).toHaveLength(1);
    const p = ok(
      await h.call<Payment>('GET', `/api/clients/billing/online_payment/${pay.id}`, { token: client.token }),
    );
    expect(p).toMatchObject({ status: 'succeed', transaction_id: `pi_${session.id}` });
    // Another event about the same session (a different event id) does not credit again either.
    const again = stripe.event(session.id, {
      id: 'evt_other',
      type: 'checkout.session.async_payment_succeeded',
    });
    ok(await stripeHook(again.raw, again.signature));
    expect(await balanceOf(client.clientId)).toBe('25.000000');
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 1);
    expect(smtp.mails.at(-1)).toMatchObject({
      to: ['ap@payer.test'],
      subject: 'Payment received: 25.00 USD',
    });
  });

  it('marks a payment failed when the paid amount is not what was charged', async () => {
    const p2 = ok(
      await h.call<{ id: number }>('POST', '/api/clients/billing/online_payment', {
        token: client.token,
        body: { provider: 'stripe', amount: '40.00' },
      }),
    );
    const session = [...stripe.sessions.values()].at(-1)!;
    const { raw, signature } = stripe.event(session.id, { amount: 100 });
    ok(await stripeHook(raw, signature));
    const p = ok(
      await h.call<Payment>('GET', `/api/clients/billing/online_payment/${p2.id}`, { token: client.token }),
    );
    expect(p.status).toBe('failed');
    expect(p.error).toMatch(/amount mismatch/);
    expect(await balanceOf(client.clientId)).toBe('25.000000');
  });
});

describe('wallet top-up (PayPal)', () => {
  it('captures on return, credits once, and ignores the later webhook of the same capture', async () => {
    const start = ok(
      await h.call<{ id: number; redirect_url: string; charged: string }>(
        'POST',
        '/api/clients/billing/online_payment',
        {
          token: client.token,
          body: { provider: 'paypal', amount: '30.10' },
        },
      ),
    );
    expect(start.charged).toBe('30.10');
    const order = [...paypal.orders.values()].at(-1)!;
    expect(order).toMatchObject({ value: '30.10', currency: 'USD' });
    expect(start.redirect_url).toBe(`https://www.paypal.test/checkoutnow?token=${order.id}`);
    // Another client cannot complete it.
    notVisible(
      await h.call('POST', '/api/clients/billing/online_payment/paypal/return', {
        token: other.token,
        body: { order_id: order.id },
      }),
    );
    const done = ok(
      await h.call<Payment>('POST', '/api/clients/billing/online_payment/paypal/return', {
        token: client.token,
        body: { order_id: order.id },
      }),
    );
    expect(done).toMatchObject({ status: 'succeed', transaction_id: order.captureId });
    expect(await balanceOf(client.clientId)).toBe('55.100000');
    ok(
      await h.call('POST', '/api/clients/billing/online_payment/paypal/return', {
        token: client.token,
        body: { order_id: order.id },
      }),
    );
    const hook = {
      id: 'WH-EVT-1',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: order.captureId,
        status: 'COMPLETED',
        amount: { value: '30.10', currency_code: 'USD' },
        supplementary_data: { related_ids: { order_id: order.id } },
      },
    };
    const headers = {
      'paypal-transmission-sig': 'sig-1',
      'paypal-transmission-id': 't1',
      'paypal-auth-algo': 'SHA256withRSA',
    };
    fails(await h.call('POST', '/api/payment/webhook/paypal', { body: hook, headers }), 110);
    paypal.signed.add('sig-1');
    for (let i = 0; i < 3; i++)
      ok(await h.call('POST', '/api/payment/webhook/paypal', { body: hook, headers }));
    expect(await balanceOf(client.clientId)).toBe('55.100000');
    expect(await ledgerRows(`online:${done.id}`)).toHaveLength(1);
  });

  it('credits by the verified webhook alone when the payer never comes back', async () => {
    const start = ok(
      await h.call<{ id: number }>('POST', '/api/clients/billing/online_payment', {
        token: client.token,
        body: { provider: 'paypal', amount: '25' },
      }),
    );
    const order = [...paypal.orders.values()].at(-1)!;
    paypal.signed.add('sig-2');
    ok(
      await h.call('POST', '/api/payment/webhook/paypal', {
        headers: { 'paypal-transmission-sig': 'sig-2' },
        body: {
          id: 'WH-EVT-2',
          event_type: 'PAYMENT.CAPTURE.COMPLETED',
          resource: {
            id: 'CAPX',
            status: 'COMPLETED',
            amount: { value: '25.00', currency_code: 'USD' },
            supplementary_data: { related_ids: { order_id: order.id } },
          },
        },
      }),
    );
    const p = ok(
      await h.call<Payment>('GET', `/api/clients/billing/online_payment/${start.id}`, {
        token: client.token,
      }),
    );
    expect(p.status).toBe('succeed');
    expect(await balanceOf(client.clientId)).toBe('80.100000');
  });
});

describe('auto payment log', () => {
  it('lists every top-up for the operator and only its own for a client', async () => {
    await makeCarrierUser(h, admin, 'Quiet');
    const all = ok(
      await h.call<{ items: Payment[]; total: number }>('GET', '/api/log/auto_payment_log', { token: admin }),
    );
    expect(all.total).toBe(4);
    expect(all.items.map((p) => p.status).sort()).toEqual(['failed', 'succeed', 'succeed', 'succeed']);
    const failed = ok(
      await h.call<{ total: number }>('GET', '/api/log/auto_payment_log?status=failed', { token: admin }),
    );
    expect(failed.total).toBe(1);
    const own = ok(
      await h.call<{ total: number }>(`GET`, `/api/log/auto_payment_log?client_id=${client.clientId}`, {
        token: other.token,
      }),
    );
    expect(own.total).toBe(0);
  });
});

describe('a confirmation that arrives before its payment is known', () => {
  it('is not recorded as handled: the redelivery credits it, once', async () => {
    const start = ok(
      await h.call<{ id: number }>('POST', '/api/clients/billing/online_payment', {
        token: client.token,
        body: { provider: 'stripe', amount: '26' },
      }),
    );
    const session = [...stripe.sessions.values()].at(-1)!;
    const db = h.built.services.db;
    const before = await balanceOf(client.clientId);
    // The provider's event comes in before the checkout's id was stored with the top-up.
    await db.updateTable('online_payments').set({ provider_ref: '' }).where('id', '=', start.id).execute();
    const { raw, signature } = stripe.event(session.id, { id: 'evt_early' });
    const early = await stripeHook(raw, signature);
    // Not found: the provider is told so, and delivers it again later.
    expect(early.status).toBe(404);
    expect(await balanceOf(client.clientId)).toBe(before);
    const seen = await db
      .selectFrom('payment_webhook_events')
      .select('event_id')
      .where('event_id', '=', 'evt_early')
      .execute();
    expect(seen).toHaveLength(0);
    // Now the top-up knows its checkout: the same event, delivered again (twice), credits once.
    await db
      .updateTable('online_payments')
      .set({ provider_ref: session.id })
      .where('id', '=', start.id)
      .execute();
    ok(await stripeHook(raw, signature));
    ok(await stripeHook(raw, signature));
    expect(await balanceOf(client.clientId)).toBe(formatMoney(parseMoney(before) + parseMoney('26'), 6));
    expect(await ledgerRows(`online:${start.id}`)).toHaveLength(1);
    const p = ok(
      await h.call<Payment>('GET', `/api/clients/billing/online_payment/${start.id}`, {
        token: client.token,
      }),
    );
    expect(p.status).toBe('succeed');
  });
});
