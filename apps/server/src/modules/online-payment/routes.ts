import { api, ErrorCode } from '@tandem/contract';
import { formatMoney, parseMoney, toCents, topUpCharge } from '@tandem/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { Selectable } from 'kysely';
import { pageOf, withinTime, withIsoTimes } from '../../db/paging';
import type { Db } from '../../db/connection';
import type { OnlinePaymentsTable } from '../../db/schema-mail';
import { actorOf } from '../../http/context';
import { AppError, forbidden, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { checkBalanceAlerts, notifyPaymentReceived } from '../notifications/service';
import {
  paypalCapture,
  paypalCheckout,
  paypalEvent,
  ProviderError,
  stripeCheckout,
  stripeEvent,
  type Confirmation,
  type Gateway,
} from './providers';
import { recordOnlineTopUp } from './record';

const op = api.onlinePayment;
type Provider = api.onlinePayment.Provider;
type PaymentRecord = Selectable<OnlinePaymentsTable>;
const WEBHOOK_PREFIX = '/api/payment/webhook/';
const m2 = (v: string) => formatMoney(parseMoney(v), 2);

async function gatewayOf(s: Services, provider: Provider, db: Db = s.db) {
  const row = await db
    .selectFrom('payment_gateways')
    .selectAll()
    .where('provider', '=', provider)
    .executeTakeFirstOrThrow();
  const g: Gateway = {
    provider,
    apiUrl: row.api_url,
    publicKey: row.public_key,
    secret: await s.secrets.open(row.secret_enc),
    webhookSecret: await s.secrets.open(row.webhook_secret_enc),
    currency: row.currency,
  };
  return { row, g };
}

const rowOf = (r: PaymentRecord & { client_name: string }) => {
  const out = withIsoTimes(r);
  return {
    ...out,
    id: Number(r.id),
    amount: m2(r.amount),
    service_charge: m2(r.service_charge),
    charged: m2(r.charged),
    fee: m2(r.fee),
  };
};

function selectPayments(db: Db) {
  return db
    .selectFrom('online_payments as p')
    .innerJoin('carriers as c', 'c.client_id', 'p.client_id')
    .selectAll('p')
    .select('c.name as client_name');
}

/** Only http(s) origins are used for return links. */
function safeOrigin(u: string | undefined): string | null {
  if (!u) return null;
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Applies a provider's verified confirmation, once, in one transaction: the top-up it names is
 * locked first; a confirmation of a checkout Tandem does not know (yet: the provider may call before
 * the checkout's id is stored) records nothing and answers "not found", so the provider delivers it
 * again. Only then is the provider's event id recorded, in the transaction that moves the top-up
 * from initial to succeed or failed (once) and credits the carrier through recordOnlineTopUp, so a
 * failure anywhere leaves the event unrecorded and a redelivery tries again. A paid amount other
 * than what was charged is refused. A success queues the "payment received" mail.
 */
export async function applyConfirmation(
  s: Services,
  provider: Provider,
  c: Confirmation,
): Promise<PaymentRecord | null> {
  if (c.outcome === 'ignored' || !c.ref || !c.eventId) return null;
  const result = await s.db.transaction().execute(async (trx) => {
    const p = await trx
      .selectFrom('online_payments')
      .selectAll()
      .where('provider', '=', provider)
      .where('provider_ref', '=', c.ref)
      .forUpdate()
      .executeTakeFirst();
    if (!p) throw notFound();
    const fresh = await trx
      .insertInto('payment_webhook_events')
      .values({ provider, event_id: c.eventId, event_type: c.eventType })
      .onConflict((oc) => oc.doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!fresh || p.status !== 'initial') return { p, credited: false };
    const expected = toCents(parseMoney(p.charged));
    let error = '';
    if (c.outcome === 'failed') error = 'canceled or failed at the provider';
    else if (c.cents !== expected || c.currency.toUpperCase() !== p.currency.toUpperCase())
      error = `amount mismatch: the provider reported ${c.cents ?? '?'} ${c.currency} cents, ${expected} ${p.currency} were charged`;
    if (error) {
      const failed = await trx
        .updateTable('online_payments')
        .set({ status: 'failed', error, transaction_id: c.transactionId, completed_at: new Date() })
        .where('id', '=', p.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { p: failed, credited: false };
    }
    const amount = parseMoney(p.amount);
    const rec = await recordOnlineTopUp(trx, {
      onlinePaymentId: Number(p.id),
      clientId: p.client_id,
      amount,
      fee: parseMoney(p.fee),
      provider,
      transactionId: c.transactionId,
    });
    const done = await trx
      .updateTable('online_payments')
      .set({ status: 'succeed', transaction_id: c.transactionId, error: '', completed_at: new Date() })
      .where('id', '=', p.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (rec.balance !== null && rec.created)
      await notifyPaymentReceived(s, trx, {
        clientId: p.client_id,
        ref: rec.ref,
        amount,
        balance: rec.balance,
        method: provider === 'stripe' ? 'Card' : 'PayPal',
        transactionId: c.transactionId,
      });
    return { p: done, credited: true };
  });
  if (result.credited && result.p) {
    s.jobs.runner.wake();
    // The top-up may end a low balance: re-arm its alert now rather than at the next look.
    void checkBalanceAlerts(s, [result.p.client_id]).catch((e: unknown) =>
      s.log.warn({ err: e }, 'balance alerts'),
    );
  }
  return result.p;
}

/** Client portal online payment, Configuration > Payment Setting, webhooks, Log > Auto Payment Log. */
export function registerOnlinePayment(app: FastifyInstance, s: Services): void {
  // Webhook signatures are over the exact bytes sent: keep them (only for the webhook paths).
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (!req.url.startsWith(WEBHOOK_PREFIX)) return payload;
    const chunks: Buffer[] = [];
    for await (const c of payload) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
    const raw = Buffer.concat(chunks);
    (req as FastifyRequest & { rawBody?: Buffer }).rawBody = raw;
    return Readable.from([raw]);
  });

  implement(app, s, op.listGateways, async () => {
    const rows = await s.db.selectFrom('payment_gateways').selectAll().orderBy('provider', 'desc').execute();
    return {
      items: rows.map((r) => ({
        provider: r.provider,
        enabled: r.enabled,
        public_key: r.public_key,
        has_secret: r.secret_enc !== '',
        has_webhook_secret: r.webhook_secret_enc !== '',
        api_url: r.api_url,
        currency: r.currency,
        fee_percent: formatMoney(parseMoney(r.fee_percent), 2),
        fee_fixed: m2(r.fee_fixed),
        service_charge_percent: formatMoney(parseMoney(r.service_charge_percent), 2),
        updated_at: r.updated_at.toISOString(),
        updated_by: r.updated_by,
      })),
    };
  });

  implement(app, s, op.updateGateway, async (ctx) => {
    const b = ctx.body;
    const actor = actorOf(ctx);
    await s.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('payment_gateways')
        .selectAll()
        .where('provider', '=', ctx.params.provider)
        .forUpdate()
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('payment_gateways')
        .set({
          enabled: b.enabled,
          public_key: b.public_key,
          api_url: b.api_url,
          currency: b.currency,
          fee_percent: b.fee_percent,
          fee_fixed: b.fee_fixed,
          service_charge_percent: b.service_charge_percent,
          ...(b.secret ? { secret_enc: await s.secrets.seal(b.secret) } : {}),
          ...(b.webhook_secret ? { webhook_secret_enc: await s.secrets.seal(b.webhook_secret) } : {}),
          updated_at: new Date(),
          updated_by: actor.user.name,
        })
        .where('provider', '=', ctx.params.provider)
        .execute();
      await s.audit.record(trx, actor, 'payment_setting', ctx.params.provider, 'update', before, b);
    });
    return null;
  });

  implement(app, s, op.topUpOptions, async (ctx) => {
    const clientId = actorOf(ctx).clientId ?? -1;
    const c = await s.db
      .selectFrom('carriers')
      .select(['balance', 'currency', 'is_panel_onlinepayment'])
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!c || !c.is_panel_onlinepayment) throw forbidden();
    const gws = await s.db
      .selectFrom('payment_gateways')
      .selectAll()
      .where('enabled', '=', true)
      .orderBy('provider', 'desc')
      .execute();
    return {
      providers: gws.map((g) => ({
        provider: g.provider,
        currency: g.currency,
        service_charge_percent: formatMoney(parseMoney(g.service_charge_percent), 2),
      })),
      min_amount: op.MIN_TOP_UP,
      balance: m2(c.balance),
      currency: c.currency,
    };
  });

  implement(app, s, op.startTopUp, async (ctx) => {
    const actor = actorOf(ctx);
    const clientId = actor.clientId ?? -1;
    const c = await s.db
      .selectFrom('carriers')
      .select(['client_id', 'is_panel_onlinepayment'])
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!c || !c.is_panel_onlinepayment) throw forbidden();
    const { row, g } = await gatewayOf(s, ctx.body.provider);
    if (!row.enabled) throw ruleBroken('paymentProviderDisabled');
    if (g.provider === 'stripe' && !g.publicKey) throw ruleBroken('publishableKeyMissing');
    const amount = parseMoney(ctx.body.amount);
    const t = topUpCharge(
      amount,
      parseMoney(row.service_charge_percent),
      parseMoney(row.fee_percent),
      parseMoney(row.fee_fixed),
    );
    const inserted = await s.db
      .insertInto('online_payments')
      .values({
        client_id: clientId,
        provider: g.provider,
        amount: formatMoney(amount, 6),
        service_charge: formatMoney(t.serviceCharge, 6),
        charged: formatMoney(t.charge, 6),
        fee: formatMoney(t.fee, 6),
        currency: g.currency,
        created_by: actor.user.name,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    const origin = (safeOrigin((await s.settings.system()).base_url) ?? s.config.publicUrl).replace(
      /\/$/,
      '',
    );
    const page = `${origin}/#/clients/billing/online_payment`;
    try {
      const checkout =
        g.provider === 'stripe'
          ? await stripeCheckout(g, {
              id,
              clientId,
              cents: toCents(t.charge),
              successUrl: `${page}?go=done&id=${id}`,
              cancelUrl: `${page}?go=cancel&id=${id}`,
            })
          : await paypalCheckout(g, {
              id,
              cents: toCents(t.charge),
              returnUrl: `${page}?go=paypal&id=${id}`,
              cancelUrl: `${page}?go=cancel&id=${id}`,
            });
      await s.db
        .updateTable('online_payments')
        .set({ provider_ref: checkout.ref })
        .where('id', '=', id)
        .execute();
      return {
        id,
        redirect_url: checkout.redirectUrl,
        charged: formatMoney(t.charge, 2),
        service_charge: formatMoney(t.serviceCharge, 2),
      };
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      s.log.warn({ provider: g.provider, error }, 'online payment not started');
      await s.db
        .updateTable('online_payments')
        .set({ status: 'failed', error, completed_at: new Date() })
        .where('id', '=', id)
        .execute();
      throw ruleBroken('paymentFailed', [error]);
    }
  });

  implement(app, s, op.getTopUp, async (ctx) => {
    const r = await selectPayments(s.db)
      .where('p.id', '=', ctx.params.id)
      .where('p.client_id', '=', actorOf(ctx).clientId ?? -1)
      .executeTakeFirst();
    if (!r) throw notFound();
    return rowOf(r);
  });

  implement(app, s, op.paypalReturn, async (ctx) => {
    const clientId = actorOf(ctx).clientId ?? -1;
    const find = () =>
      selectPayments(s.db)
        .where('p.provider', '=', 'paypal')
        .where('p.provider_ref', '=', ctx.body.order_id)
        .where('p.client_id', '=', clientId)
        .executeTakeFirst();
    const p = await find();
    if (!p) throw notFound();
    if (p.status === 'initial') {
      const { g } = await gatewayOf(s, 'paypal');
      try {
        await applyConfirmation(s, 'paypal', await paypalCapture(g, ctx.body.order_id));
      } catch (e) {
        if (!(e instanceof ProviderError)) throw e;
        throw ruleBroken('paymentFailed', [e.message]);
      }
    }
    return rowOf((await find())!);
  });

  /** A webhook whose signature does not verify: 110 naming the provider's signature header. */
  const signatureRefused = (header: string) =>
    new AppError(ErrorCode.validation, 'webhookSignatureInvalid', [], 400, {
      [header]: { key: 'webhookSignatureInvalid' },
    });

  implement(app, s, op.stripeWebhook, async (ctx) => {
    const raw = (ctx.req as FastifyRequest & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const sig = ctx.req.headers['stripe-signature'];
    const { g } = await gatewayOf(s, 'stripe');
    let c: Confirmation;
    try {
      c = stripeEvent(g, raw, typeof sig === 'string' ? sig : '');
    } catch (e) {
      if (e instanceof ProviderError) {
        s.log.warn({ error: e.message }, 'stripe webhook refused');
        throw signatureRefused('stripe-signature');
      }
      throw e;
    }
    await applyConfirmation(s, 'stripe', c);
    return { received: true };
  });

  implement(app, s, op.paypalWebhook, async (ctx) => {
    const { g } = await gatewayOf(s, 'paypal');
    let c: Confirmation;
    try {
      c = await paypalEvent(g, ctx.req.headers, ctx.body);
    } catch (e) {
      if (e instanceof ProviderError) {
        s.log.warn({ error: e.message }, 'paypal webhook refused');
        throw signatureRefused('paypal-transmission-sig');
      }
      throw e;
    }
    await applyConfirmation(s, 'paypal', c);
    return { received: true };
  });

  const ORDER = {
    id: 'p.id',
    created_at: 'p.created_at',
    client_name: 'c.name',
    amount: 'p.amount',
    status: 'p.status',
  };
  implement(app, s, op.listOnlinePayments, async (ctx) => {
    const q = ctx.query;
    const actor = actorOf(ctx);
    let qb = selectPayments(s.db);
    const clientId = actor.type === 'admin' ? q.client_id : (actor.clientId ?? -1);
    if (clientId !== undefined) qb = qb.where('p.client_id', '=', clientId);
    if (q.provider) qb = qb.where('p.provider', '=', q.provider);
    if (q.status) qb = qb.where('p.status', '=', q.status);
    qb = withinTime(qb, 'p.created_at', q.time_from, q.time_to);
    const page = await pageOf(qb, q.order_by ? q : { ...q, order_dir: 'desc' }, ORDER, 'id', 'p.id');
    return { items: page.items.map(rowOf), total: page.total };
  });
}
