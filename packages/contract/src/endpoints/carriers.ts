import { int4, coercedInt4 } from '../input-rules';
import { z } from 'zod';
import { adminOnly, type Access } from '../access';
import { idParams, ipOrCidr, listQuery, paged, portalPassword, queryBool, singleEmail } from '../common';
import { amount, crudEndpoints, entityName, patchOf, requiredText } from '../crud';
import { endpoint } from '../endpoint';
import { count, percentText, techPrefix } from './trunk-settings';
import { trunkCreate } from './trunks';
import { userNameField } from './user';

/** Termination > Client / Vendor: carriers with every carrier edit section of spec 02. */
export const CLIENTS_FUNC = '/termination/client';
export const VENDORS_FUNC = '/termination/vendor';
/** Changing a credit limit needs write on Credit Management (the finance "modify credit limit" right). */
export const CREDIT_FUNC = '/termination/credit_management';
export const REGISTRATION_FUNC = '/termination/registration';

/** GMT -12 .. +12 as stored: '-1200' .. '+1200'. */
export const TIME_ZONES = Array.from({ length: 25 }, (_, i) => {
  const h = i - 12;
  return `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}00`;
});
export const timeZoneLabel = (tz: string) => `GMT ${tz.slice(0, 1)}${Number(tz.slice(1, 3))}`;

const optionalEmail = z
  .string()
  .trim()
  .max(254)
  .refine((v) => v === '' || singleEmail.safeParse(v).success, { message: 'invalidEmail' });
const limit = count.nullable().default(null);

/** Notification switches (carriers.notifications jsonb). */
export const NOTIFICATIONS = [
  'low_balance',
  'trunk_update',
  'payment_received',
  'zero_balance',
  'sign_in',
  'daily_usage',
  'daily_balance',
  'daily_cdr',
] as const;
/** Client portal permissions (carriers.is_panel_* columns). */
export const CLIENT_PANELS = [
  'is_panel_accountsummary',
  'is_panel_paymenthistory',
  'is_panel_invoices',
  'is_panel_balance',
  'is_panel_onlinepayment',
  'is_panel_trunks',
  'enable_trunk_view',
  'is_panel_didrequest',
  'is_panel_mydid',
  'is_panel_products',
  'is_panel_cdrslist',
  'is_panel_summaryreport',
  'is_panel_block_list',
] as const;

const flags = <K extends string>(keys: readonly K[], def: boolean) =>
  Object.fromEntries(keys.map((k) => [k, z.boolean().default(def)])) as Record<K, z.ZodDefault<z.ZodBoolean>>;

/**
 * The commercial settings of a carrier: what a carrier template may preset. Notifications and
 * vendor permissions travel as flat fields and are stored in the carrier's jsonb columns.
 */
export const carrierSettingsFields = {
  mode: z.enum(['prepaid', 'postpaid']).default('prepaid'),
  credit_limit: amount.default('0'),
  test_credit: amount.default('0'),
  allowed_credit: amount.default('0'),
  unlimited_credit: z.boolean().default(false),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, { message: 'invalidValue' })
    .default('USD'),
  payment_term_id: int4().positive().nullable().default(null),
  call_limit: limit,
  cps_limit: limit,
  port_limit: limit,
  min_profitability: percentText.nullable().default(null),
  short_call_charge: amount.default('0'),
  time_zone: z.enum(TIME_ZONES as [string, ...string[]]).default('+0000'),
  enable_origination: z.boolean().default(false),
  // notifications
  ...flags(
    NOTIFICATIONS.map((n) => `notify_${n}` as const),
    false,
  ),
  low_balance_threshold: amount.nullable().default(null),
  // invoice and reports
  automatic_report: z.boolean().default(false),
  auto_invoice: z.boolean().default(false),
  invoice_format: z.enum(['pdf', 'excel', 'html']).default('pdf'),
  rate_decimal_places: z
    .number()
    .int()
    .min(0, { message: 'invalidValue' })
    .max(6, { message: 'invalidValue' })
    .default(4),
  generate_at: z
    .number()
    .int()
    .min(0, { message: 'invalidValue' })
    .max(23, { message: 'invalidValue' })
    .default(0),
  non_zero_invoices_only: z.boolean().default(true),
  invoice_include_tax: z.boolean().default(false),
  invoice_attach_cdr: z.boolean().default(false),
  invoice_include_summary: z.boolean().default(true),
  // portal permissions
  ...flags(CLIENT_PANELS, true),
  vendor_trunk_access: z.enum(['none', 'read', 'edit']).default('read'),
  vendor_block_list: z.boolean().default(true),
  vendor_cdrs: z.boolean().default(true),
  vendor_summary_report: z.boolean().default(true),
};

export const carrierCreate = z
  .object({
    name: entityName(100),
    company: requiredText(200),
    client_type: z.enum(['client', 'vendor']).default('client'),
    company_type: z.enum(['termination', 'origination']).default('termination'),
    is_active: z.boolean().default(true),
    main_email: z.string().trim().min(1, { message: 'required' }).pipe(singleEmail),
    noc_email: optionalEmail.default(''),
    billing_email: optionalEmail.default(''),
    rates_email: optionalEmail.default(''),
    address: z.string().trim().max(500).default(''),
    tax_id: z.string().trim().max(64).default(''),
    agent_id: int4().positive().nullable().default(null),
    ...carrierSettingsFields,
    allowed_ips: z.array(ipOrCidr).max(100).default([]),
    /** Portal credentials: the carrier's portal user (users.user_type client). */
    login_name: z.preprocess((v) => (v === '' ? null : v), userNameField.nullable()).default(null),
    /** Required with a new login; on update empty or missing keeps the password. */
    passwd: z.preprocess((v) => (v === '' ? undefined : v), portalPassword.optional()),
  })
  .strict();
export type CarrierCreate = z.input<typeof carrierCreate>;

export const carrierRow = carrierCreate.omit({ passwd: true }).extend({
  client_id: z.number(),
  balance: z.string(),
  mutual_balance: z.string(),
  registration_status: z.enum(['pending', 'approved', 'rejected']),
  payment_term_name: z.string().nullable(),
  trunk_count: z.number(),
  ingress_count: z.number(),
  egress_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CarrierRow = z.output<typeof carrierRow>;

export const carrierFilters = {
  name: z.string().max(100).optional(),
  client_type: z.enum(['client', 'vendor']).optional(),
  company_type: z.enum(['termination', 'origination']).optional(),
  is_active: queryBool.optional(),
  payment_term_id: coercedInt4().positive().optional(),
  mode: z.enum(['prepaid', 'postpaid']).optional(),
  registration_status: z.enum(['pending', 'approved', 'rejected']).optional(),
  agent_id: coercedInt4().positive().optional(),
};

export const carrier = crudEndpoints({
  base: '/carrier',
  tag: 'carrier',
  func: CLIENTS_FUNC,
  name: 'carrier',
  row: carrierRow,
  create: carrierCreate,
  filters: carrierFilters,
  activation: true,
  portal: ['client', 'vendor'],
});

/** Termination > Clients Export: the carriers that match, as CSV (cells escaped for spreadsheets). */
export const EXPORT_COLUMNS = [
  'client_id',
  'name',
  'company',
  'client_type',
  'company_type',
  'is_active',
  'mode',
  'balance',
  'credit_limit',
  'allowed_credit',
  'currency',
  'main_email',
  'noc_email',
  'billing_email',
  'rates_email',
  'address',
  'tax_id',
  'payment_term_name',
  'call_limit',
  'cps_limit',
  'time_zone',
  'login_name',
  'trunk_count',
  'created_at',
] as const;
export const exportCarriers = endpoint({
  method: 'GET',
  path: '/carrier/export',
  summary: 'Carriers as CSV (the list filters apply; columns optional, comma separated)',
  tag: 'carrier',
  access: adminOnly('/termination/clients/export', 'read'),
  query: z.object({ ...carrierFilters, columns: z.string().max(2000).optional() }),
  raw: true,
  payload: z.unknown(),
});

/** Termination > Credit Management. */
export const creditRow = z.object({
  client_id: z.number(),
  name: z.string(),
  client_type: z.enum(['client', 'vendor']),
  is_active: z.boolean(),
  mode: z.enum(['prepaid', 'postpaid']),
  currency: z.string(),
  balance: z.string(),
  credit_limit: z.string(),
  allowed_credit: z.string(),
  test_credit: z.string(),
  unlimited_credit: z.boolean(),
  /** What the carrier may still spend: prepaid balance + allowed and test credit, postpaid balance + credit limit. */
  available: z.string(),
});
export const creditList = endpoint({
  method: 'GET',
  path: '/carrier/credit/list',
  summary: 'Balances and credit of carriers',
  tag: 'carrier',
  access: adminOnly(CREDIT_FUNC, 'read'),
  query: listQuery.extend({
    name: z.string().max(100).optional(),
    client_type: z.enum(['client', 'vendor']).optional(),
    mode: z.enum(['prepaid', 'postpaid']).optional(),
  }),
  payload: paged(creditRow),
});
export const creditUpdate = z
  .object({
    credit_limit: amount.optional(),
    allowed_credit: amount.optional(),
    test_credit: amount.optional(),
    unlimited_credit: z.boolean().optional(),
  })
  .strict();
export const updateCredit = endpoint({
  method: 'PATCH',
  path: '/carrier/:id/credit',
  summary: "Change a carrier's credit limit, allowed or test credit",
  tag: 'carrier',
  access: adminOnly(CREDIT_FUNC, 'write'),
  params: idParams,
  body: creditUpdate,
  payload: z.null(),
});

/** Termination > Registration: self sign-ups waiting for review. */
export const registrationDetail = z.object({
  client_id: z.number(),
  name: z.string(),
  company: z.string(),
  client_type: z.enum(['client', 'vendor']),
  company_type: z.enum(['termination', 'origination']),
  main_email: z.string(),
  registration_status: z.enum(['pending', 'approved', 'rejected']),
  created_at: z.string(),
  agent_name: z.string().nullable(),
  login_name: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  user_email: z.string(),
});
export const getRegistration = endpoint({
  method: 'GET',
  path: '/carrier/registration/:id',
  summary: 'What a carrier entered when signing up',
  tag: 'carrier',
  access: adminOnly(REGISTRATION_FUNC, 'read'),
  params: idParams,
  payload: registrationDetail,
});
export const listRegistrations = endpoint({
  method: 'GET',
  path: '/carrier/registration/list',
  summary: 'Sign-ups by status (default pending)',
  tag: 'carrier',
  access: adminOnly(REGISTRATION_FUNC, 'read'),
  query: listQuery.extend({
    status: z.enum(['pending', 'approved', 'rejected']).default('pending'),
    company_type: z.enum(['termination', 'origination']).optional(),
    client_type: z.enum(['client', 'vendor']).optional(),
  }),
  payload: paged(registrationDetail),
});
export const approveRegistration = endpoint({
  method: 'PATCH',
  path: '/carrier/:id/approve',
  summary: 'Approve a pending sign-up: the carrier and its portal user become active',
  tag: 'carrier',
  access: adminOnly(REGISTRATION_FUNC, 'write'),
  params: idParams,
  payload: z.null(),
});
export const rejectRegistration = endpoint({
  method: 'PATCH',
  path: '/carrier/:id/reject',
  summary: 'Reject a pending sign-up: the carrier and its portal user stay inactive',
  tag: 'carrier',
  access: adminOnly(REGISTRATION_FUNC, 'write'),
  params: idParams,
  payload: z.null(),
});

/** Termination > Products: a routing plan and rate table sold under a tech prefix. */
export const productCreate = z
  .object({
    name: entityName(100),
    routing_plan_id: int4({ message: 'required' }).positive(),
    rate_table_id: int4({ message: 'required' }).positive(),
    tech_prefix: techPrefix.default(''),
    description: z.string().trim().max(1000).default(''),
    scope: z.enum(['public', 'private']).default('public'),
    carrier_ids: z.array(int4().positive()).max(10000).default([]),
    agent_ids: z.array(int4().positive()).max(10000).default([]),
  })
  .strict();
export const productRow = productCreate.extend({
  id: z.number(),
  routing_plan_name: z.string().nullable(),
  rate_table_name: z.string().nullable(),
  trunk_count: z.number(),
  updated_at: z.string(),
});
export const product = crudEndpoints({
  base: '/product',
  tag: 'carrier',
  func: '/termination/products',
  name: 'product',
  row: productRow,
  create: productCreate,
  filters: {
    name: z.string().max(100).optional(),
    scope: z.enum(['public', 'private']).optional(),
    carrier_id: coercedInt4().positive().optional(),
  },
  /** Portal users read the public products and those assigned to them: a client to its carrier, an agent to itself (agent portal > Products). */
  portal: ['client', 'agent'],
});

/** Templates > Carrier Template: a name and any commercial settings (all optional). */
export const carrierTemplateSettings = patchOf(z.object(carrierSettingsFields));
export const carrierTemplateCreate = z
  .object({ name: entityName(100), ...carrierTemplateSettings.shape })
  .strict();
export const carrierTemplateRow = carrierTemplateCreate.extend({
  template_id: z.number(),
  updated_at: z.string(),
});
export type CarrierTemplateRow = z.output<typeof carrierTemplateRow>;
export const carrierTemplate = crudEndpoints({
  base: '/template/carrier',
  tag: 'template',
  func: '/template/carrier_template',
  name: 'carrier template',
  row: carrierTemplateRow,
  create: carrierTemplateCreate,
  filters: { name: z.string().max(100).optional() },
});
/** The settings of a carrier template as the start of a new carrier's form. */
export function carrierFromTemplate(t: Partial<CarrierTemplateRow>): Partial<CarrierCreate> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(carrierSettingsFields)) {
    const v = t[k as keyof CarrierTemplateRow];
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out as Partial<CarrierCreate>;
}

/**
 * Termination > Wizard: vendor, vendor trunk, customer, customer trunk; created together in one
 * transaction. Each step is checked on its own (`checkWizardStep`) with the same schemas and rules.
 */
export const wizardTrunk = trunkCreate.omit({ carrier_id: true, direction: true });
export const wizardBody = z
  .object({
    vendor: carrierCreate,
    vendor_trunk: wizardTrunk,
    customer: carrierCreate,
    customer_trunk: wizardTrunk,
  })
  .strict();
export const WIZARD_STEPS = ['vendor', 'vendor_trunk', 'customer', 'customer_trunk'] as const;
const wizardAccess: Access = adminOnly('/termination/wizard', 'write');
export const runWizard = endpoint({
  method: 'POST',
  path: '/termination/wizard',
  summary: 'Create a vendor with its egress trunk and a customer with its ingress trunk in one transaction',
  tag: 'carrier',
  access: wizardAccess,
  body: wizardBody,
  payload: z.object({
    vendor_id: z.number(),
    vendor_trunk_id: z.number(),
    customer_id: z.number(),
    customer_trunk_id: z.number(),
  }),
});
export const checkWizardStep = endpoint({
  method: 'POST',
  path: '/termination/wizard/check',
  summary: 'Check one wizard step (duplicates, hosts in use) without writing',
  tag: 'carrier',
  access: wizardAccess,
  body: z.discriminatedUnion('step', [
    z.object({ step: z.literal('vendor'), data: carrierCreate }).strict(),
    z.object({ step: z.literal('vendor_trunk'), data: wizardTrunk }).strict(),
    z.object({ step: z.literal('customer'), data: carrierCreate }).strict(),
    z.object({ step: z.literal('customer_trunk'), data: wizardTrunk }).strict(),
  ]),
  payload: z.null(),
});
