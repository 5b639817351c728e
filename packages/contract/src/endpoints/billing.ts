import { z } from 'zod';
import { adminOnly, PUBLIC } from '../access';
import { idParams, instantFilter, listQuery, paged } from '../common';
import { amount, crudEndpoints, entityName, percent } from '../crud';
import { endpoint } from '../endpoint';
import { coercedInt4, int4 } from '../input-rules';

/**
 * The Finance module (issue 12, docs/billing.md): payments received and sent, credit and debit
 * notes, invoices (manual and automatic) with their settings, PDF and public link, the invoice log,
 * carrier statements and the mutual balance. A client user reads its own invoices, payments and
 * statement (the portal's Billing pages); vendors see none of it.
 */
const TAG = 'billing';
/** Portal users who read these lists: a client its own carrier's rows, an agent its clients' (the agent portal). */
const CLIENT_OR_AGENT = ['client', 'agent'] as const;

/** Permission keys (menu items) and the finance function permissions of spec 02 section 6. */
export const FUNC = {
  payment: '/finance/payment',
  invoice: '/finance/invoice',
  autoInvoice: '/finance/auto_invoice_management',
  invoiceHistory: '/finance/carrier_invoice_history',
  mutual: '/finance/mutual_transaction',
  overallMutual: '/finance/overall_mutual_balance',
  invoiceSetting: '/configuration/invoice_setting',
  invoiceLog: '/log/invoice_log',
  deleteInvoice: 'finance:delete_invoice',
  deletePayment: 'finance:delete_payment',
  deleteNote: 'finance:delete_note',
  resetBalance: 'finance:reset_balance',
} as const;

/** A positive amount as decimal text, up to 6 places. */
const positiveAmount = amount.refine((v) => /[1-9]/.test(v), { message: 'positiveDecimal' });
const note = z.string().trim().max(500).default('');

// ---------------------------------------------------------------------------------------------
// Payments

export const PAYMENT_DIRECTIONS = ['received', 'sent'] as const;
export const PAYMENT_METHODS = ['manual', 'bank', 'cash', 'card', 'wallet', 'other'] as const;

export const paymentRow = z.object({
  payment_id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  direction: z.enum(PAYMENT_DIRECTIONS),
  amount: z.string(),
  fee: z.string(),
  paid_at: z.string(),
  method: z.string(),
  transaction_id: z.string(),
  note: z.string(),
  status: z.enum(['completed', 'canceled']),
  created_at: z.string(),
  created_by: z.string(),
  canceled_at: z.string().nullable(),
  canceled_by: z.string().nullable(),
  cancel_note: z.string(),
  /** Allocated to invoices: "INV000012 (10.00)". */
  allocations: z.array(z.object({ invoice_id: z.number(), invoice_number: z.string(), amount: z.string() })),
});
export type PaymentRow = z.output<typeof paymentRow>;

export const paymentCreate = z
  .object({
    client_id: int4().positive(),
    direction: z.enum(PAYMENT_DIRECTIONS).default('received'),
    amount: positiveAmount,
    fee: amount.default('0'),
    paid_at: instantFilter.optional(),
    method: z.enum(PAYMENT_METHODS).default('manual'),
    transaction_id: z.string().trim().max(200).default(''),
    note,
    /** A retry with the same key records nothing new (answers the first payment). */
    idempotency_key: z.string().trim().min(8).max(100).optional(),
    allocations: z
      .array(z.object({ invoice_id: int4().positive(), amount: positiveAmount }).strict())
      .max(100)
      .default([]),
  })
  .strict();

export const listPayments = endpoint({
  method: 'GET',
  path: '/finance/payment/list',
  summary:
    "Payments received from clients and sent to vendors (a client user: its own received payments; an agent: its clients')",
  tag: TAG,
  access: adminOnly(FUNC.payment, 'read', CLIENT_OR_AGENT),
  query: listQuery.extend({
    client_id: coercedInt4().positive().optional(),
    direction: z.enum(PAYMENT_DIRECTIONS).optional(),
    status: z.enum(['completed', 'canceled']).optional(),
    invoice_id: coercedInt4().positive().optional(),
    time_from: instantFilter.optional(),
    time_to: instantFilter.optional(),
  }),
  payload: paged(paymentRow).extend({ totals: z.object({ amount: z.string(), fee: z.string() }) }),
});

export const createPayment = endpoint({
  method: 'POST',
  path: '/finance/payment/create',
  summary:
    "Record a payment: one ledger row moving the carrier's balance once, allocated to invoices if given",
  tag: TAG,
  access: adminOnly(FUNC.payment, 'write'),
  body: paymentCreate,
  payload: z.object({ payment_id: z.number(), created: z.boolean(), balance: z.string() }),
});

export const cancelPayment = endpoint({
  method: 'POST',
  path: '/finance/payment/:id/cancel',
  summary:
    'Cancel (delete) a payment: a reversing ledger row, allocations released; needs the finance permission to delete payments',
  tag: TAG,
  access: adminOnly(FUNC.payment, 'write'),
  params: idParams,
  body: z.object({ note }).strict(),
  payload: z.object({ balance: z.string() }),
});

// ---------------------------------------------------------------------------------------------
// Credit and debit notes

export const noteRow = z.object({
  note_id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  kind: z.enum(['credit', 'debit']),
  invoice_id: z.number().nullable(),
  invoice_number: z.string().nullable(),
  amount: z.string(),
  note: z.string(),
  status: z.enum(['normal', 'canceled']),
  created_at: z.string(),
  created_by: z.string(),
  canceled_at: z.string().nullable(),
  canceled_by: z.string().nullable(),
});
export type NoteRow = z.output<typeof noteRow>;

export const noteCreate = z
  .object({
    client_id: int4().positive(),
    kind: z.enum(['credit', 'debit']),
    invoice_id: int4().positive().nullable().default(null),
    amount: positiveAmount,
    note,
    /** A retry with the same key records nothing new (answers the first note). */
    idempotency_key: z.string().trim().min(8).max(100).optional(),
  })
  .strict();

export const listNotes = endpoint({
  method: 'GET',
  path: '/finance/note/list',
  summary: 'Credit and debit notes (a client user: its own)',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'read', ['client']),
  query: listQuery.extend({
    client_id: coercedInt4().positive().optional(),
    invoice_id: coercedInt4().positive().optional(),
    kind: z.enum(['credit', 'debit']).optional(),
  }),
  payload: paged(noteRow),
});

export const createNote = endpoint({
  method: 'POST',
  path: '/finance/note/create',
  summary:
    'A credit note (in the carrier’s favour) or debit note: one ledger row, on an invoice or free-standing',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  body: noteCreate,
  payload: z.object({ note_id: z.number(), created: z.boolean(), balance: z.string() }),
});

export const cancelNote = endpoint({
  method: 'POST',
  path: '/finance/note/:id/cancel',
  summary: 'Cancel (delete) a credit or debit note: a reversing ledger row; needs the finance permission',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  params: idParams,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Statement and mutual balance

export const statementRow = z.object({
  ledger_id: z.number(),
  created_at: z.string(),
  kind: z.string(),
  side: z.string(),
  ref: z.string(),
  amount: z.string(),
  balance_after: z.string(),
  note: z.string(),
});

/** What moved a balance over a period, by what moved it (exact, 6 places). */
export const mutualFigures = z.object({
  /** Calls the carrier bought from us (negative: it owes). */
  customer_usage: z.string(),
  /** Calls the carrier carried for us (positive: we owe). */
  vendor_usage: z.string(),
  payments_received: z.string(),
  payments_sent: z.string(),
  credit_notes: z.string(),
  debit_notes: z.string(),
  other: z.string(),
});

export const statement = endpoint({
  method: 'GET',
  path: '/finance/mutual_transaction/:id',
  summary:
    "A carrier's statement over a period: opening balance, every ledger row, closing balance and the mutual figures (a client user: its own, whatever id it sends)",
  tag: TAG,
  access: adminOnly(FUNC.mutual, 'read', ['client']),
  params: idParams,
  query: z.object({
    time_from: instantFilter.optional(),
    time_to: instantFilter.optional(),
    page: coercedInt4().min(0).default(0),
    per_page: coercedInt4().min(1).max(1000).default(100),
  }),
  payload: z.object({
    client_id: z.number(),
    name: z.string(),
    currency: z.string(),
    opening: z.string(),
    closing: z.string(),
    figures: mutualFigures,
    /** What the carrier owes us (> 0) or we owe it (< 0) at the end: −closing. */
    net_owed_by_carrier: z.string(),
    items: z.array(statementRow),
    total: z.number(),
  }),
});

export const overallMutual = endpoint({
  method: 'GET',
  path: '/finance/overall_mutual_balance/list',
  summary:
    'Every carrier’s mutual figures over a period and its balance: what each owes the other and the net',
  tag: TAG,
  access: adminOnly(FUNC.overallMutual, 'read'),
  query: listQuery.extend({
    time_from: instantFilter.optional(),
    time_to: instantFilter.optional(),
    client_id: coercedInt4().positive().optional(),
  }),
  payload: paged(
    mutualFigures.extend({
      client_id: z.number(),
      name: z.string(),
      opening: z.string(),
      closing: z.string(),
      net_owed_by_carrier: z.string(),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// Invoice settings (Configuration > Invoice Setting)

export const invoiceSettingRow = z.object({
  invoice_setting_id: z.number(),
  name: z.string(),
  logo: z.string(),
  decimal_places: z.number(),
  invoice_delivery: z.enum(['attachment', 'link']),
  cdr_delivery: z.enum(['attachment', 'link']),
  overlap_protection: z.boolean(),
  billing_info: z.string(),
  billing_info_position: z.enum(['top', 'bottom']),
  company_info: z.string(),
  company_info_position: z.enum(['top', 'bottom']),
  tax_percent: z.string(),
  link_days: z.number(),
  is_default: z.boolean(),
  carrier_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type InvoiceSettingRow = z.output<typeof invoiceSettingRow>;

/** A logo as a data URL (PNG or JPEG, under 5 MB as base64). */
const logo = z
  .string()
  .max(7_000_000)
  .refine((v) => v === '' || /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/.test(v), {
    message: 'fileTypeNotAllowed',
  })
  .default('');

export const invoiceSetting = crudEndpoints({
  base: '/config/invoice_setting',
  tag: TAG,
  func: FUNC.invoiceSetting,
  name: 'invoice setting',
  row: invoiceSettingRow,
  create: z
    .object({
      name: entityName(),
      logo,
      decimal_places: z
        .number()
        .int()
        .min(0, { message: 'invalidValue' })
        .max(6, { message: 'invalidValue' })
        .default(2),
      invoice_delivery: z.enum(['attachment', 'link']).default('attachment'),
      cdr_delivery: z.enum(['attachment', 'link']).default('attachment'),
      overlap_protection: z.boolean().default(true),
      billing_info: z.string().trim().max(2000).default(''),
      billing_info_position: z.enum(['top', 'bottom']).default('top'),
      company_info: z.string().trim().max(2000).default(''),
      company_info_position: z.enum(['top', 'bottom']).default('top'),
      tax_percent: percent.default('0'),
      link_days: z
        .number()
        .int()
        .min(0, { message: 'invalidValue' })
        .max(3650, { message: 'invalidValue' })
        .default(30),
      is_default: z.boolean().default(false),
    })
    .strict(),
  filters: { name: z.string().max(100).optional() },
});

export const settingCarriers = endpoint({
  method: 'GET',
  path: '/config/invoice_setting/:id/carriers',
  summary: 'The carriers and whether each uses this invoice setting',
  tag: TAG,
  access: adminOnly(FUNC.invoiceSetting, 'read'),
  params: idParams,
  payload: z.object({
    items: z.array(
      z.object({
        client_id: z.number(),
        name: z.string(),
        client_type: z.string(),
        invoice_setting_id: z.number().nullable(),
      }),
    ),
  }),
});

export const assignSetting = endpoint({
  method: 'POST',
  path: '/config/invoice_setting/:id/carriers',
  summary: 'Assign this invoice setting to exactly these carriers (those it leaves go back to the default)',
  tag: TAG,
  access: adminOnly(FUNC.invoiceSetting, 'write'),
  params: idParams,
  body: z.object({ client_ids: z.array(int4().positive()).max(10_000) }).strict(),
  payload: z.object({ assigned: z.number() }),
});

// ---------------------------------------------------------------------------------------------
// Invoices

export const INVOICE_SIDES = ['customer', 'vendor'] as const;
export const PAY_STATUSES = ['unpaid', 'partially_paid', 'paid'] as const;

export const invoiceLine = z.object({
  key: z.string(),
  calls: z.number(),
  billed_seconds: z.number(),
  amount: z.string(),
});

export const invoiceRow = z.object({
  invoice_id: z.number(),
  invoice_number: z.string(),
  client_id: z.number(),
  client_name: z.string(),
  side: z.enum(INVOICE_SIDES),
  origin: z.enum(['manual', 'auto']),
  invoice_date: z.string(),
  due_date: z.string(),
  /** Local dates of the carrier's zone, both included. */
  period_from: z.string(),
  period_to: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  time_zone: z.string(),
  currency: z.string(),
  decimal_places: z.number(),
  calls: z.number(),
  billed_seconds: z.number(),
  subtotal: z.string(),
  tax: z.string(),
  /** The total, at the invoice's decimal places. */
  amount: z.string(),
  paid_amount: z.string(),
  credited: z.string(),
  debited: z.string(),
  /** What is left to pay (never below 0). */
  due: z.string(),
  status: z.enum(['normal', 'voided']),
  pay_status: z.enum(PAY_STATUSES),
  created_by: z.string(),
  created_at: z.string(),
});
export type InvoiceRow = z.output<typeof invoiceRow>;

export const invoiceDetail = invoiceRow.extend({
  usage_exact: z.string(),
  tax_percent: z.string(),
  opening_balance: z.string(),
  closing_balance: z.string(),
  /** The extra charges on the invoice (at its decimal places); the subtotal rounds usage + charges once. */
  extra_charges: z.string(),
  lines: z.object({
    destination: z.array(invoiceLine),
    trunk: z.array(invoiceLine),
    day: z.array(invoiceLine),
    /** Recurring charges of the period (the DID setup, monthly, channel fees and refunds); older invoices have none. */
    recurring: z.array(invoiceLine).default([]),
    charges: z.array(
      z.object({
        extra_charge_id: z.number(),
        occurrence: z.number(),
        date: z.string(),
        name: z.string(),
        amount: z.string(),
      }),
    ),
  }),
  options: z.object({ include_tax: z.boolean(), attach_cdr: z.boolean(), include_summary: z.boolean() }),
  note: z.string(),
  voided_at: z.string().nullable(),
  voided_by: z.string().nullable(),
});
export type InvoiceDetail = z.output<typeof invoiceDetail>;

export const invoiceQuery = listQuery.extend({
  client_id: coercedInt4().positive().optional(),
  side: z.enum(INVOICE_SIDES).optional(),
  status: z.enum(['normal', 'voided']).optional(),
  pay_status: z.enum(PAY_STATUSES).optional(),
  origin: z.enum(['manual', 'auto']).optional(),
  invoice_number: z.string().trim().max(50).optional(),
  date_from: z.iso.date({ message: 'invalidDate' }).optional(),
  date_to: z.iso.date({ message: 'invalidDate' }).optional(),
});

export const invoicePage = paged(invoiceRow).extend({
  totals: z.object({ amount: z.string(), due: z.string() }),
});

export const listInvoices = endpoint({
  method: 'GET',
  path: '/finance/invoice/list',
  summary:
    "Invoices (filters: carrier, side, state, paid state, number, invoice date); a client user: its own, an agent: its clients'",
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'read', CLIENT_OR_AGENT),
  query: invoiceQuery,
  payload: invoicePage,
});

export const getInvoice = endpoint({
  method: 'GET',
  path: '/finance/invoice/:id',
  summary: "One invoice with its summaries (a client user: only its own; an agent: its clients')",
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'read', CLIENT_OR_AGENT),
  params: idParams,
  payload: invoiceDetail,
});

export const invoiceCreate = z
  .object({
    client_id: int4().positive(),
    side: z.enum(INVOICE_SIDES).default('customer'),
    /** Local dates of the carrier's zone, both included: 2026-10-01 .. 2026-10-31. */
    date_from: z.iso.date({ message: 'invalidDate' }),
    date_to: z.iso.date({ message: 'invalidDate' }),
    include_tax: z.boolean().optional(),
    attach_cdr: z.boolean().optional(),
    include_summary: z.boolean().optional(),
    note,
  })
  .strict()
  .refine((b) => b.date_to >= b.date_from, { message: 'periodEndBeforeStart', path: ['date_to'] });

export const invoiceMade = z.object({ invoice_id: z.number(), invoice_number: z.string() });

export const createInvoice = endpoint({
  method: 'POST',
  path: '/finance/invoice/create',
  summary:
    'A manual invoice for a carrier and period (its local dates); refused when it overlaps another and the setting protects overlaps',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  body: invoiceCreate,
  payload: invoiceMade,
});

export const voidInvoice = endpoint({
  method: 'POST',
  path: '/finance/invoice/:id/void',
  summary: 'Void an invoice (its payment allocations are released; payments stay)',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  params: idParams,
  payload: z.null(),
});

export const reverseInvoice = endpoint({
  method: 'POST',
  path: '/finance/invoice/:id/reverse',
  summary: 'Reverse a voided invoice back to normal',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  params: idParams,
  payload: z.null(),
});

export const deleteInvoice = endpoint({
  method: 'DELETE',
  path: '/finance/invoice/:id',
  summary:
    'Delete a voided invoice (needs the finance permission to delete invoices; the invoice log keeps it)',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  params: idParams,
  payload: z.null(),
});

export const invoicePdf = endpoint({
  method: 'GET',
  path: '/finance/invoice/:id/pdf',
  summary: "The invoice as PDF (a client user: only its own; an agent: its clients')",
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'read', CLIENT_OR_AGENT),
  params: idParams,
  raw: true,
  payload: z.null(),
});

export const invoiceCdr = endpoint({
  method: 'GET',
  path: '/finance/invoice/:id/cdr',
  summary: "The CDRs of the invoice as CSV (a client user: only its own; an agent: its clients')",
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'read', CLIENT_OR_AGENT),
  params: idParams,
  raw: true,
  payload: z.null(),
});

export const invoiceLink = endpoint({
  method: 'POST',
  path: '/finance/invoice/:id/link',
  summary:
    'A new public download link for the invoice (the previous one stops working), expiring as the setting says',
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  params: idParams,
  payload: z.object({ url: z.string(), expires_at: z.string().nullable() }),
});

export const sendInvoice = endpoint({
  method: 'POST',
  path: '/finance/invoice/:id/send',
  summary:
    "Send the invoice to the carrier's billing e-mail (PDF attached or linked, CDRs as the setting says)",
  tag: TAG,
  access: adminOnly(FUNC.invoice, 'write'),
  params: idParams,
  body: z.object({ to: z.string().trim().max(254).optional() }).strict(),
  payload: z.object({ sent: z.boolean(), error: z.string() }),
});

const tokenParams = z.object({ token: z.string().max(200) });
export const publicInvoicePdf = endpoint({
  method: 'GET',
  path: '/invoice/download/:token',
  summary: 'The invoice PDF of a public link (no sign-in; the token is unguessable and may expire)',
  tag: TAG,
  access: PUBLIC,
  params: tokenParams,
  raw: true,
  payload: z.null(),
});
export const publicInvoiceCdr = endpoint({
  method: 'GET',
  path: '/invoice/download/:token/cdr',
  summary: 'The CDR CSV of a public invoice link',
  tag: TAG,
  access: PUBLIC,
  params: tokenParams,
  raw: true,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Automatic invoices

export const autoInvoiceRow = z.object({
  client_id: z.number(),
  name: z.string(),
  client_type: z.string(),
  payment_term: z.string().nullable(),
  invoicing_cycle: z.string().nullable(),
  time_zone: z.string(),
  generate_at: z.number(),
  non_zero_invoices_only: z.boolean(),
  started: z.boolean(),
  side: z.enum(INVOICE_SIDES),
  first_period_from: z.string().nullable(),
  last_period_end: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_error: z.string(),
  invoices: z.number(),
});
export type AutoInvoiceRow = z.output<typeof autoInvoiceRow>;

export const listAutoInvoices = endpoint({
  method: 'GET',
  path: '/finance/auto_invoice_management/list',
  summary: 'Each carrier’s automatic invoicing: started or stopped, payment term cycle, how far it got',
  tag: TAG,
  access: adminOnly(FUNC.autoInvoice, 'read'),
  query: listQuery.extend({
    name: z.string().max(100).optional(),
    started: z.enum(['true', 'false']).optional(),
  }),
  payload: paged(autoInvoiceRow),
});

export const startAutoInvoice = endpoint({
  method: 'POST',
  path: '/finance/auto_invoice_management/:id/start',
  summary:
    'Start automatic invoicing of a carrier (needs a payment term); the first period is the one containing first_date (default today, local date)',
  tag: TAG,
  access: adminOnly(FUNC.autoInvoice, 'write'),
  params: idParams,
  body: z
    .object({
      side: z.enum(INVOICE_SIDES).default('customer'),
      first_date: z.iso.date({ message: 'invalidDate' }).optional(),
      generate_at: z
        .number()
        .int()
        .min(0, { message: 'invalidValue' })
        .max(23, { message: 'invalidValue' })
        .optional(),
      non_zero_invoices_only: z.boolean().optional(),
    })
    .strict(),
  payload: z.null(),
});

export const stopAutoInvoice = endpoint({
  method: 'POST',
  path: '/finance/auto_invoice_management/:id/stop',
  summary: 'Stop automatic invoicing of a carrier',
  tag: TAG,
  access: adminOnly(FUNC.autoInvoice, 'write'),
  params: idParams,
  payload: z.null(),
});

export const runAutoInvoices = endpoint({
  method: 'POST',
  path: '/finance/auto_invoice_management/run',
  summary:
    'Run the automatic invoicing now (a durable job; the hourly run does the same): every period due is invoiced once',
  tag: TAG,
  access: adminOnly(FUNC.autoInvoice, 'execute'),
  payload: z.object({ job_id: z.number() }),
});

// ---------------------------------------------------------------------------------------------
// Invoice log

export const invoiceLogRow = z.object({
  log_id: z.number(),
  created_at: z.string(),
  invoice_id: z.number().nullable(),
  invoice_number: z.string(),
  client_id: z.number().nullable(),
  client_name: z.string().nullable(),
  action: z.string(),
  status: z.enum(['success', 'failed', 'skipped']),
  message: z.string(),
  created_by: z.string(),
});
export const listInvoiceLog = endpoint({
  method: 'GET',
  path: '/log/invoice_log/list',
  summary:
    'Log > Invoice Log: invoices created, skipped, sent, failed, voided, reversed, deleted, downloaded',
  tag: TAG,
  access: adminOnly(FUNC.invoiceLog, 'read'),
  query: listQuery.extend({
    client_id: coercedInt4().positive().optional(),
    status: z.enum(['success', 'failed', 'skipped']).optional(),
    action: z.string().max(40).optional(),
  }),
  payload: paged(invoiceLogRow),
});
