import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * Local fakes of the two payment providers' HTTP APIs (tests only, no network): the calls Tandem
 * makes, answered as the providers document them, and helpers to sign webhooks as they would.
 */
async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface FakeStripe {
  url: string;
  sessions: Map<
    string,
    { id: string; amount_total: number; currency: string; metadata: Record<string, string>; url: string }
  >;
  /** A signed webhook body and header for a session's event, as Stripe sends them. */
  event(
    sessionId: string,
    opts?: { type?: string; amount?: number; id?: string },
  ): { raw: string; signature: string };
  close(): Promise<void>;
}

/** Stripe: POST /v1/checkout/sessions (form-encoded, Bearer secret key). */
export async function startFakeStripe(secretKey: string, webhookSecret: string): Promise<FakeStripe> {
  const sessions: FakeStripe['sessions'] = new Map();
  let n = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const text = await body(req);
      const send = (status: number, j: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(j));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`)
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const f = new URLSearchParams(text);
        const id = `cs_test_${++n}`;
        const s = {
          id,
          object: 'checkout.session',
          amount_total:
            Number(f.get('line_items[0][price_data][unit_amount]')) *
            Number(f.get('line_items[0][quantity]')),
          currency: f.get('line_items[0][price_data][currency]') ?? '',
          metadata: { online_payment_id: f.get('metadata[online_payment_id]') ?? '' },
          client_reference_id: f.get('client_reference_id'),
          success_url: f.get('success_url'),
          url: `https://checkout.stripe.test/pay/${id}`,
          payment_status: 'unpaid',
        };
        sessions.set(id, s);
        return send(200, s);
      }
      send(404, { error: { message: 'Unrecognized request URL' } });
    })();
  });
  const url = await listen(server);
  const stripe = new Stripe(secretKey);
  return {
    url,
    sessions,
    event(sessionId, opts = {}) {
      const s = sessions.get(sessionId)!;
      const payload = {
        id: opts.id ?? `evt_${sessionId}`,
        object: 'event',
        type: opts.type ?? 'checkout.session.completed',
        data: {
          object: {
            ...s,
            amount_total: opts.amount ?? s.amount_total,
            payment_status: 'paid',
            payment_intent: `pi_${sessionId}`,
          },
        },
      };
      const raw = JSON.stringify(payload);
      return {
        raw,
        signature: stripe.webhooks.generateTestHeaderString({ payload: raw, secret: webhookSecret }),
      };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface FakePaypal {
  url: string;
  orders: Map<string, { id: string; value: string; currency: string; status: string; captureId: string }>;
  /** Webhook deliveries the fake "signed" (their transmission sig is accepted by verify). */
  signed: Set<string>;
  close(): Promise<void>;
}

/** PayPal: OAuth token, Orders v2 create and capture, verify-webhook-signature. */
export async function startFakePaypal(
  clientId: string,
  secret: string,
  webhookId: string,
): Promise<FakePaypal> {
  const orders: FakePaypal['orders'] = new Map();
  const signed = new Set<string>();
  const tokens = new Set<string>();
  let n = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const text = await body(req);
      const send = (status: number, j: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(j));
      };
      if (req.method === 'POST' && req.url === '/v1/oauth2/token') {
        if (req.headers.authorization !== 'Basic ' + Buffer.from(`${clientId}:${secret}`).toString('base64'))
          return send(401, { error: 'invalid_client' });
        const t = `A21.${++n}`;
        tokens.add(t);
        return send(200, { access_token: t, token_type: 'Bearer', expires_in: 32400 });
      }
      if (!tokens.has((req.headers.authorization ?? '').replace('Bearer ', '')))
        return send(401, { name: 'AUTHENTICATION_FAILURE' });
      const j = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (req.method === 'POST' && req.url === '/v2/checkout/orders') {
        const unit = (j.purchase_units as { amount: { value: string; currency_code: string } }[])[0]!;
        const id = `ORDER${++n}`;
        orders.set(id, {
          id,
          value: unit.amount.value,
          currency: unit.amount.currency_code,
          status: 'CREATED',
          captureId: `CAP${n}`,
        });
        return send(201, {
          id,
          status: 'CREATED',
          links: [{ rel: 'approve', href: `https://www.paypal.test/checkoutnow?token=${id}`, method: 'GET' }],
        });
      }
      const cap = /^\/v2\/checkout\/orders\/([A-Z0-9]+)\/capture$/.exec(req.url ?? '');
      if (req.method === 'POST' && cap) {
        const o = orders.get(cap[1]!);
        if (!o) return send(404, { name: 'RESOURCE_NOT_FOUND' });
        o.status = 'COMPLETED';
        return send(201, {
          id: o.id,
          status: 'COMPLETED',
          purchase_units: [
            {
              payments: {
                captures: [
                  {
                    id: o.captureId,
                    status: 'COMPLETED',
                    amount: { value: o.value, currency_code: o.currency },
                  },
                ],
              },
            },
          ],
        });
      }
      if (req.method === 'POST' && req.url === '/v1/notifications/verify-webhook-signature') {
        const ok = j.webhook_id === webhookId && signed.has(String(j.transmission_sig));
        return send(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
      }
      send(404, { name: 'NOT_FOUND' });
    })();
  });
  const url = await listen(server);
  return { url, orders, signed, close: () => new Promise<void>((r) => server.close(() => r())) };
}
