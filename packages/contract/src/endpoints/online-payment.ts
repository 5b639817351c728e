import { z } from 'zod';
import { adminOnly, PUBLIC, type Access } from '../access';
import { coercedInt4, coercedInteger } from '../input-rules';
import { instantFilter, listQuery, paged } from '../common';
import { amount, percent } from '../crud';
import { endpoint } from '../endpoint';

/**
 * Online payment (issue 12 part 4, docs/mail.md "Online payment"): Configuration > Payment Setting
 * for the card provider (Stripe) and the wallet provider (PayPal), the client's top-up at
 * /clients/billing/online_payment, the providers' signed webhooks, Log > Auto Payment Log.
 */
export const FUNC = { setting: '/configuration/payment_setting', log: '/log/auto_payment_log' } as const;
const TAG = 'online payment';
const CLIENT: Access = { kind: 'session', types: ['client'] };

export const PROVIDERS = ['stripe', 'paypal'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const PAYMENT_STATUSES = ['initial', 'failed', 'succeed'] as const;
/** Spec 02 section 5: "minimum credit addition is $25.00". */
export const MIN_TOP_UP = '25.00';

/** Cents of a decimal text with at most 2 places (exact, no floats); null when not such a text. */
export function centsOf(v: string): bigint | null {
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(v.trim());
  return m ? BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0')) : null;
}

// ------------------------------------------------------------------------------------------------
// Configuration > Payment Setting
// ------------------------------------------------------------------------------------------------

export const gatewayRow = z.object({
  provider: z.enum(PROVIDERS),
  enabled: z.boolean(),
  /** Stripe: publishable key; PayPal: client id. */
  public_key: z.string(),
  has_secret: z.boolean(),
  has_webhook_secret: z.boolean(),
  api_url: z.string(),
  currency: z.string(),
  fee_percent: z.string(),
  fee_fixed: z.string(),
  service_charge_percent: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type GatewayRow = z.infer<typeof gatewayRow>;
export const listGateways = endpoint({
  method: 'GET',
  path: '/config/payment_setting',
  summary: 'The card and wallet payment providers (secrets are never answered)',
  tag: TAG,
  access: adminOnly(FUNC.setting, 'read'),
  payload: z.object({ items: z.array(gatewayRow) }),
});
export const gatewayBody = z
  .object({
    enabled: z.boolean(),
    public_key: z.string().trim().max(300),
    /** Stripe: secret key; PayPal: client secret. Write only; empty or missing keeps the stored one. */
    secret: z.string().trim().max(300).optional(),
    /** Stripe: webhook signing secret; PayPal: webhook id. Write only; empty or missing keeps it. */
    webhook_secret: z.string().trim().max(300).optional(),
    api_url: z
      .string()
      .trim()
      .max(300)
      .pipe(z.url({ protocol: /^https?$/, message: 'invalidValue' })),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, { message: 'invalidValue' }),
    fee_percent: percent,
    fee_fixed: amount,
    service_charge_percent: percent,
  })
  .strict();
export const updateGateway = endpoint({
  method: 'PUT',
  path: '/config/payment_setting/:provider',
  summary: 'Change a payment provider',
  tag: TAG,
  access: adminOnly(FUNC.setting, 'write'),
  params: z.object({ provider: z.enum(PROVIDERS) }),
  body: gatewayBody,
  payload: z.null(),
});

// ------------------------------------------------------------------------------------------------
// The client's top-up
// ------------------------------------------------------------------------------------------------

export const topUpOptions = endpoint({
  method: 'GET',
  path: '/clients/billing/online_payment/options',
  summary: "The enabled providers, their service charge, the minimum and the client's balance",
  tag: TAG,
  access: CLIENT,
  payload: z.object({
    providers: z.array(
      z.object({ provider: z.enum(PROVIDERS), currency: z.string(), service_charge_percent: z.string() }),
    ),
    min_amount: z.string(),
    balance: z.string(),
    currency: z.string(),
  }),
});
export const topUpAmount = z
  .union([z.string(), z.number().min(0).max(1e9)])
  .transform((v) => String(v).trim())
  .refine((v) => centsOf(v) !== null, { message: 'positiveDecimal' })
  .refine((v) => (centsOf(v) ?? 0n) >= (centsOf(MIN_TOP_UP) ?? 0n), {
    message: 'minTopUp',
    params: { args: [`$${MIN_TOP_UP}`] },
  });
export const startTopUp = endpoint({
  method: 'POST',
  path: '/clients/billing/online_payment',
  summary: "Starts a top-up of the client's balance with a provider; answers where to pay",
  tag: TAG,
  access: CLIENT,
  body: z.object({ provider: z.enum(PROVIDERS), amount: topUpAmount }).strict(),
  payload: z.object({
    id: z.number(),
    redirect_url: z.string(),
    charged: z.string(),
    service_charge: z.string(),
  }),
});
export const onlinePaymentRow = z.object({
  id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  provider: z.enum(PROVIDERS),
  amount: z.string(),
  service_charge: z.string(),
  charged: z.string(),
  fee: z.string(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  provider_ref: z.string(),
  transaction_id: z.string(),
  error: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type OnlinePaymentRow = z.infer<typeof onlinePaymentRow>;
export const getTopUp = endpoint({
  method: 'GET',
  path: '/clients/billing/online_payment/:id',
  summary: 'One top-up of the client (its state)',
  tag: TAG,
  access: CLIENT,
  params: z.object({ id: coercedInteger({ min: 1 }) }),
  payload: onlinePaymentRow,
});
export const paypalReturn = endpoint({
  method: 'POST',
  path: '/clients/billing/online_payment/paypal/return',
  summary: "The payer came back from PayPal: capture the order (credited once, on PayPal's answer)",
  tag: TAG,
  access: CLIENT,
  body: z
    .object({
      order_id: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9-]+$/),
    })
    .strict(),
  payload: onlinePaymentRow,
});

// ------------------------------------------------------------------------------------------------
// Webhooks and the log
// ------------------------------------------------------------------------------------------------

export const stripeWebhook = endpoint({
  method: 'POST',
  path: '/payment/webhook/stripe',
  summary: "Stripe's signed events (Stripe-Signature); a payment is credited once whatever the deliveries",
  tag: TAG,
  access: PUBLIC,
  body: z.unknown(),
  payload: z.object({ received: z.boolean() }),
});
export const paypalWebhook = endpoint({
  method: 'POST',
  path: '/payment/webhook/paypal',
  summary: "PayPal's events, verified with PayPal's verify-webhook-signature; credited once",
  tag: TAG,
  access: PUBLIC,
  body: z.unknown(),
  payload: z.object({ received: z.boolean() }),
});

export const listOnlinePayments = endpoint({
  method: 'GET',
  path: '/log/auto_payment_log',
  summary: 'Every online top-up with its state (initial, failed, succeed); a client sees its own',
  tag: TAG,
  access: adminOnly(FUNC.log, 'read', ['client']),
  query: listQuery.extend({
    provider: z.enum(PROVIDERS).optional(),
    status: z.enum(PAYMENT_STATUSES).optional(),
    client_id: coercedInt4().positive().optional(),
    time_from: instantFilter.optional(),
    time_to: instantFilter.optional(),
  }),
  payload: paged(onlinePaymentRow),
});
