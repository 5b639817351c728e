import { formatMoney, parseMoney, toCents } from '@tandem/domain';
import Stripe from 'stripe';

/**
 * The two payment providers, each behind the same small surface: create a checkout for an amount
 * in cents, read a verified event. Stripe through its Node SDK (`stripe`), PayPal through its REST
 * API (Orders v2, verify-webhook-signature). The API base URL is part of the payment setting, so the
 * tests point it at local fakes of these APIs (apps/server/test/api/payment-fakes.ts).
 */
export interface Gateway {
  provider: 'stripe' | 'paypal';
  apiUrl: string;
  publicKey: string;
  secret: string;
  webhookSecret: string;
  currency: string;
}

export interface Checkout {
  /** The provider's id of the checkout (Stripe checkout session, PayPal order). */
  ref: string;
  /** Where the payer goes to pay. */
  redirectUrl: string;
}

/** A provider's confirmation that a checkout was paid (or failed), after its signature was verified. */
export interface Confirmation {
  eventId: string;
  eventType: string;
  /** The checkout it is about. */
  ref: string;
  outcome: 'paid' | 'failed' | 'ignored';
  /** Paid amount in cents and currency as the provider reports them. */
  cents: bigint | null;
  currency: string;
  transactionId: string;
}

export class ProviderError extends Error {}

// ------------------------------------------------------------------------------------------------
// Stripe (card)
// ------------------------------------------------------------------------------------------------

function stripeClient(g: Gateway): Stripe {
  const u = new URL(g.apiUrl);
  return new Stripe(g.secret || 'sk_unset', {
    host: u.hostname,
    port: u.port || (u.protocol === 'http:' ? 80 : 443),
    protocol: u.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });
}

export async function stripeCheckout(
  g: Gateway,
  p: { id: number; clientId: number; cents: bigint; successUrl: string; cancelUrl: string },
): Promise<Checkout> {
  if (!g.publicKey) throw new ProviderError("The card payment provider's publishable key does not exist");
  const session = await stripeClient(g).checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: g.currency.toLowerCase(),
            unit_amount: Number(p.cents),
            product_data: { name: 'Account top-up' },
          },
        },
      ],
      client_reference_id: String(p.id),
      metadata: { online_payment_id: String(p.id), client_id: String(p.clientId) },
      success_url: p.successUrl,
      cancel_url: p.cancelUrl,
    },
    { idempotencyKey: `tandem-online-payment-${p.id}` },
  );
  if (!session.url) throw new ProviderError('Stripe answered no checkout URL');
  return { ref: session.id, redirectUrl: session.url };
}

/** Verifies the Stripe-Signature of a webhook body (its raw bytes) and reads the checkout outcome. */
export function stripeEvent(g: Gateway, raw: Buffer, signature: string): Confirmation {
  if (!g.webhookSecret) throw new ProviderError('No webhook signing secret is set for Stripe');
  let event: Stripe.Event;
  try {
    event = stripeClient(g).webhooks.constructEvent(raw, signature, g.webhookSecret);
  } catch {
    throw new ProviderError('signature');
  }
  const base = { eventId: event.id, eventType: event.type, transactionId: '' };
  if (
    event.type !== 'checkout.session.completed' &&
    event.type !== 'checkout.session.async_payment_succeeded' &&
    event.type !== 'checkout.session.async_payment_failed' &&
    event.type !== 'checkout.session.expired'
  )
    return { ...base, ref: '', outcome: 'ignored', cents: null, currency: '' };
  const s = event.data.object;
  const paid =
    event.type === 'checkout.session.async_payment_succeeded' ||
    (event.type === 'checkout.session.completed' && s.payment_status === 'paid');
  const failed =
    event.type === 'checkout.session.async_payment_failed' || event.type === 'checkout.session.expired';
  return {
    ...base,
    ref: s.id,
    outcome: paid ? 'paid' : failed ? 'failed' : 'ignored',
    cents: s.amount_total === null ? null : BigInt(s.amount_total),
    currency: (s.currency ?? '').toUpperCase(),
    transactionId: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? s.id),
  };
}

// ------------------------------------------------------------------------------------------------
// PayPal (wallet), REST API
// ------------------------------------------------------------------------------------------------

async function paypalToken(g: Gateway): Promise<string> {
  const r = await fetch(new URL('/v1/oauth2/token', g.apiUrl), {
    method: 'POST',
    headers: {
      authorization: 'Basic ' + Buffer.from(`${g.publicKey}:${g.secret}`).toString('base64'),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
    signal: AbortSignal.timeout(20_000),
  });
  if (!r.ok) throw new ProviderError(`PayPal sign-in failed (${r.status})`);
  const j = (await r.json()) as { access_token?: string };
  if (!j.access_token) throw new ProviderError('PayPal answered no access token');
  return j.access_token;
}

async function paypalCall<T>(g: Gateway, path: string, body: unknown, requestId?: string): Promise<T> {
  const token = await paypalToken(g);
  const r = await fetch(new URL(path, g.apiUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(requestId ? { 'paypal-request-id': requestId } : {}),
    },
    body: JSON.stringify(body ?? {}),
    signal: AbortSignal.timeout(20_000),
  });
  const j = (await r.json().catch(() => ({}))) as T & { message?: string; name?: string };
  if (!r.ok) throw new ProviderError(`PayPal ${path} failed (${r.status}${j.name ? ` ${j.name}` : ''})`);
  return j;
}

/** PayPal's amount text of a whole number of cents ("30.10"). */
const centsText = (cents: bigint) => formatMoney(cents * 10_000n, 2);
/** The cents of PayPal's amount text, or null when it is not a whole number of cents. */
const centsFromText = (v: string | undefined): bigint | null => {
  try {
    return toCents(parseMoney(v ?? ''));
  } catch {
    return null;
  }
};

export async function paypalCheckout(
  g: Gateway,
  p: { id: number; cents: bigint; returnUrl: string; cancelUrl: string },
): Promise<Checkout> {
  const order = await paypalCall<{ id: string; links?: { rel: string; href: string }[] }>(
    g,
    '/v2/checkout/orders',
    {
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: String(p.id),
          custom_id: String(p.id),
          description: 'Account top-up',
          amount: { currency_code: g.currency, value: centsText(p.cents) },
        },
      ],
      application_context: { return_url: p.returnUrl, cancel_url: p.cancelUrl, user_action: 'PAY_NOW' },
    },
    `tandem-order-${p.id}`,
  );
  const approve = order.links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action');
  if (!order.id || !approve) throw new ProviderError('PayPal answered no approval link');
  return { ref: order.id, redirectUrl: approve.href };
}

interface PaypalCapture {
  id: string;
  status: string;
  amount?: { value?: string; currency_code?: string };
  supplementary_data?: { related_ids?: { order_id?: string } };
}

/** Captures an approved order (server to server, authenticated): the payment's confirmation. */
export async function paypalCapture(g: Gateway, orderId: string): Promise<Confirmation> {
  const r = await paypalCall<{
    id: string;
    status: string;
    purchase_units?: { payments?: { captures?: PaypalCapture[] } }[];
  }>(g, `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {}, `tandem-capture-${orderId}`);
  const cap = r.purchase_units?.[0]?.payments?.captures?.[0];
  return {
    eventId: `capture:${cap?.id ?? orderId}`,
    eventType: 'ORDER.CAPTURE',
    ref: orderId,
    outcome: r.status === 'COMPLETED' && cap?.status === 'COMPLETED' ? 'paid' : 'failed',
    cents: centsFromText(cap?.amount?.value),
    currency: cap?.amount?.currency_code ?? '',
    transactionId: cap?.id ?? '',
  };
}

/** Verifies a PayPal webhook with PayPal's verify-webhook-signature and reads the capture outcome. */
export async function paypalEvent(
  g: Gateway,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): Promise<Confirmation> {
  if (!g.webhookSecret) throw new ProviderError('No webhook id is set for PayPal');
  const h = (k: string) => {
    const v = headers[k];
    return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
  };
  const verified = await paypalCall<{ verification_status?: string }>(
    g,
    '/v1/notifications/verify-webhook-signature',
    {
      auth_algo: h('paypal-auth-algo'),
      cert_url: h('paypal-cert-url'),
      transmission_id: h('paypal-transmission-id'),
      transmission_sig: h('paypal-transmission-sig'),
      transmission_time: h('paypal-transmission-time'),
      webhook_id: g.webhookSecret,
      webhook_event: body,
    },
  );
  if (verified.verification_status !== 'SUCCESS') throw new ProviderError('signature');
  const e = body as { id?: string; event_type?: string; resource?: PaypalCapture };
  const base = { eventId: String(e.id ?? ''), eventType: String(e.event_type ?? '') };
  const cap = e.resource;
  const orderId = cap?.supplementary_data?.related_ids?.order_id ?? '';
  if (!base.eventId || !cap || !orderId)
    return { ...base, ref: '', outcome: 'ignored', cents: null, currency: '', transactionId: '' };
  const outcome =
    base.eventType === 'PAYMENT.CAPTURE.COMPLETED'
      ? 'paid'
      : base.eventType === 'PAYMENT.CAPTURE.DENIED' || base.eventType === 'PAYMENT.CAPTURE.DECLINED'
        ? 'failed'
        : 'ignored';
  return {
    ...base,
    ref: orderId,
    outcome,
    cents: centsFromText(cap.amount?.value),
    currency: cap.amount?.currency_code ?? '',
    transactionId: cap.id,
  };
}
