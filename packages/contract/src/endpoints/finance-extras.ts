import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, paged } from '../common';
import { amount } from '../crud';
import { endpoint } from '../endpoint';
import { coercedInt4, int4 } from '../input-rules';

/**
 * Finance > Extra Charge (one-off or recurring charges on a carrier, each occurrence one ledger row,
 * shown on the carrier's invoice) and Finance > Vendor Invoice (invoices received from vendors,
 * compared with Tandem's own cost of the vendor for the same period, and their dispute).
 * docs/billing.md "Extra charges" and "Vendor invoices".
 */
const TAG = 'billing';

export const FUNC = {
  extraCharge: '/finance/extra_charge',
  vendorInvoice: '/finance/vendor_invoice',
  deleteInvoice: 'finance:delete_invoice',
} as const;

const positiveAmount = amount.refine((v) => /[1-9]/.test(v), { message: 'positiveDecimal' });
const note = z.string().trim().max(500).default('');
const date = z.iso.date({ message: 'invalidDate' });
const retryKey = z.string().trim().min(8).max(100).optional();

// ---------------------------------------------------------------------------------------------
// Extra charges

export const CHARGE_FREQUENCIES = ['once', 'daily', 'weekly', 'monthly'] as const;
export const CHARGE_STATUSES = ['active', 'stopped', 'finished'] as const;

export const extraChargeRow = z.object({
  extra_charge_id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  currency: z.string(),
  /** customer: a charge to the carrier (its balance goes down, on its invoice); vendor: a charge by the vendor to us (owed to it). */
  side: z.enum(['customer', 'vendor']),
  name: z.string(),
  amount: z.string(),
  frequency: z.enum(CHARGE_FREQUENCIES),
  /** The carrier's local dates. */
  start_date: z.string(),
  end_date: z.string().nullable(),
  status: z.enum(CHARGE_STATUSES),
  charged_count: z.number(),
  /** What its occurrences charged, cancelled ones left out (exact). */
  charged_total: z.string(),
  last_charged_date: z.string().nullable(),
  /** The date of the next occurrence, null when none will come. */
  next_date: z.string().nullable(),
  note: z.string(),
  created_at: z.string(),
  created_by: z.string(),
});
export type ExtraChargeRow = z.output<typeof extraChargeRow>;

export const extraChargeCreate = z
  .object({
    client_id: int4().positive(),
    side: z.enum(['customer', 'vendor']).default('customer'),
    name: z.string().trim().min(1, { message: 'required' }).max(200),
    amount: positiveAmount,
    frequency: z.enum(CHARGE_FREQUENCIES).default('once'),
    /** The first (or only) date, the carrier's local date; default today. */
    start_date: date.optional(),
    /** Recurring: the last date charged (none: until stopped). */
    end_date: date.nullable().default(null),
    note,
    /** A retry with the same key creates nothing new (answers the first charge). */
    idempotency_key: retryKey,
  })
  .strict()
  .refine((b) => !b.end_date || !b.start_date || b.end_date >= b.start_date, {
    message: 'periodEndBeforeStart',
    path: ['end_date'],
  });

export const listExtraCharges = endpoint({
  method: 'GET',
  path: '/finance/extra_charge/list',
  summary: 'Extra charges: one-off and recurring charges on carriers, with what they charged so far',
  tag: TAG,
  access: adminOnly(FUNC.extraCharge, 'read'),
  query: listQuery.extend({
    client_id: coercedInt4().positive().optional(),
    status: z.enum(CHARGE_STATUSES).optional(),
    frequency: z.enum(CHARGE_FREQUENCIES).optional(),
  }),
  payload: paged(extraChargeRow),
});

export const createExtraCharge = endpoint({
  method: 'POST',
  path: '/finance/extra_charge/create',
  summary:
    'Create an extra charge: the occurrences already due (a one-off charge dated today or earlier) are charged at once, each one ledger row; later ones by the hourly run',
  tag: TAG,
  access: adminOnly(FUNC.extraCharge, 'write'),
  body: extraChargeCreate,
  payload: z.object({
    extra_charge_id: z.number(),
    created: z.boolean(),
    /** Occurrences charged by this call. */
    charged: z.number(),
    balance: z.string(),
  }),
});

export const extraChargeRunRow = z.object({
  occurrence: z.number(),
  charge_date: z.string(),
  amount: z.string(),
  status: z.enum(['charged', 'canceled']),
  charged_at: z.string(),
  canceled_at: z.string().nullable(),
  canceled_by: z.string().nullable(),
});
export const listExtraChargeRuns = endpoint({
  method: 'GET',
  path: '/finance/extra_charge/:id/runs',
  summary: 'The occurrences an extra charge has charged, newest first',
  tag: TAG,
  access: adminOnly(FUNC.extraCharge, 'read'),
  params: idParams,
  payload: z.object({ items: z.array(extraChargeRunRow) }),
});

export const stopExtraCharge = endpoint({
  method: 'POST',
  path: '/finance/extra_charge/:id/stop',
  summary: 'Stop a recurring extra charge: no occurrence after today is charged (what was charged stays)',
  tag: TAG,
  access: adminOnly(FUNC.extraCharge, 'write'),
  params: idParams,
  payload: z.null(),
});

export const cancelExtraChargeRun = endpoint({
  method: 'POST',
  path: '/finance/extra_charge/:id/runs/:occurrence/cancel',
  summary: 'Cancel one charged occurrence: a reversing ledger row; the occurrence stays, marked canceled',
  tag: TAG,
  access: adminOnly(FUNC.extraCharge, 'write'),
  params: z.object({ id: coercedInt4().positive(), occurrence: coercedInt4().min(0) }),
  payload: z.object({ balance: z.string() }),
});

// ---------------------------------------------------------------------------------------------
// Vendor invoices received

export const VENDOR_INVOICE_STATUSES = ['received', 'disputed', 'accepted', 'resolved'] as const;

/** A line of the vendor's invoice: a destination (matched with Tandem's by name) or a date YYYY-MM-DD. */
export const vendorLine = z
  .object({
    key: z.string().trim().min(1, { message: 'required' }).max(200),
    minutes: amount.nullable().default(null),
    amount,
  })
  .strict();

export const vendorInvoiceRow = z.object({
  vendor_invoice_id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  invoice_number: z.string(),
  invoice_date: z.string(),
  period_from: z.string(),
  period_to: z.string(),
  time_zone: z.string(),
  currency: z.string(),
  /** The vendor's total. */
  amount: z.string(),
  /** The vendor's minutes (null: not stated). */
  minutes: z.string().nullable(),
  /** Tandem's cost of the vendor for the period, at the last comparison (exact). */
  our_amount: z.string(),
  our_minutes: z.string(),
  our_calls: z.number(),
  /** Vendor − Tandem. */
  difference: z.string(),
  compared_at: z.string(),
  status: z.enum(VENDOR_INVOICE_STATUSES),
  disputed_amount: z.string().nullable(),
  dispute_note: z.string(),
  agreed_amount: z.string().nullable(),
  /** The ledger adjustment its settlement wrote (agreed − Tandem), null until settled. */
  adjustment: z.string().nullable(),
  settle_note: z.string(),
  settled_at: z.string().nullable(),
  settled_by: z.string().nullable(),
  has_pdf: z.boolean(),
  note: z.string(),
  created_at: z.string(),
  created_by: z.string(),
});
export type VendorInvoiceRow = z.output<typeof vendorInvoiceRow>;

export const comparedLine = z.object({
  key: z.string(),
  our_calls: z.number(),
  our_minutes: z.string(),
  our_amount: z.string(),
  their_minutes: z.string().nullable(),
  their_amount: z.string().nullable(),
  amount_difference: z.string(),
  minutes_difference: z.string().nullable(),
});
export const vendorComparison = z.object({
  our_calls: z.number(),
  our_minutes: z.string(),
  our_amount: z.string(),
  their_minutes: z.string().nullable(),
  their_amount: z.string(),
  amount_difference: z.string(),
  minutes_difference: z.string().nullable(),
  /** Percent of Tandem's amount (2 places), null when Tandem has nothing. */
  amount_difference_percent: z.string().nullable(),
  by_destination: z.array(comparedLine),
  by_day: z.array(comparedLine),
});
export type VendorComparison = z.output<typeof vendorComparison>;

export const vendorInvoiceDetail = vendorInvoiceRow.extend({
  lines: z.array(z.object({ key: z.string(), minutes: z.string().nullable(), amount: z.string() })),
  /** Tandem's figures as the CDR summaries give them now. */
  comparison: vendorComparison,
  /** Tandem's daily figures of the period (also when the vendor gave no daily lines). */
  our_days: z.array(
    z.object({ key: z.string(), calls: z.number(), minutes: z.string(), amount: z.string() }),
  ),
});
export type VendorInvoiceDetail = z.output<typeof vendorInvoiceDetail>;

const vendorInvoiceFields = {
  invoice_number: z.string().trim().min(1, { message: 'required' }).max(100),
  invoice_date: date,
  /** The vendor's local dates (its time zone), both included. */
  period_from: date,
  period_to: date,
  amount,
  /** Must be the vendor's currency (default). */
  currency: z.string().trim().toUpperCase().length(3, { message: 'invalidValue' }).optional(),
  minutes: amount.nullable().default(null),
  lines: z.array(vendorLine).max(5000).default([]),
  note,
};
export const vendorInvoiceCreate = z
  .object({ client_id: int4().positive(), ...vendorInvoiceFields })
  .strict()
  .refine((b) => b.period_to >= b.period_from, { message: 'periodEndBeforeStart', path: ['period_to'] });

export const vendorInvoiceUpdate = z
  .object({
    invoice_number: vendorInvoiceFields.invoice_number.optional(),
    invoice_date: date.optional(),
    period_from: date.optional(),
    period_to: date.optional(),
    amount: amount.optional(),
    minutes: amount.nullable().optional(),
    lines: z.array(vendorLine).max(5000).optional(),
    note: z.string().trim().max(500).optional(),
  })
  .strict();

export const listVendorInvoices = endpoint({
  method: 'GET',
  path: '/finance/vendor_invoice/list',
  summary: 'Invoices received from vendors with the difference to Tandem’s figures and their dispute state',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'read'),
  query: listQuery.extend({
    client_id: coercedInt4().positive().optional(),
    status: z.enum(VENDOR_INVOICE_STATUSES).optional(),
    invoice_number: z.string().trim().max(100).optional(),
  }),
  payload: paged(vendorInvoiceRow).extend({
    totals: z.object({ amount: z.string(), our_amount: z.string(), difference: z.string() }),
  }),
});

export const getVendorInvoice = endpoint({
  method: 'GET',
  path: '/finance/vendor_invoice/:id',
  summary:
    'One vendor invoice compared with Tandem’s cost of the vendor for its period now: totals, per destination and per day',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'read'),
  params: idParams,
  payload: vendorInvoiceDetail,
});

export const createVendorInvoice = endpoint({
  method: 'POST',
  path: '/finance/vendor_invoice/create',
  summary:
    'Record a vendor’s invoice (its number once per vendor) and compare it with Tandem’s figures of the period; moves no balance',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'write'),
  body: vendorInvoiceCreate,
  payload: z.object({ vendor_invoice_id: z.number() }),
});

export const updateVendorInvoice = endpoint({
  method: 'PATCH',
  path: '/finance/vendor_invoice/:id',
  summary: 'Correct a vendor invoice that is not settled (compared again)',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'write'),
  params: idParams,
  body: vendorInvoiceUpdate,
  payload: z.null(),
});

export const deleteVendorInvoice = endpoint({
  method: 'DELETE',
  path: '/finance/vendor_invoice/:id',
  summary: 'Delete a vendor invoice that is not settled (needs the finance permission to delete invoices)',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'write'),
  params: idParams,
  payload: z.null(),
});

export const compareVendorInvoice = endpoint({
  method: 'POST',
  path: '/finance/vendor_invoice/:id/compare',
  summary: 'Compare again with the CDR summaries as they are now (after a rerate) and keep the figures',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'write'),
  params: idParams,
  payload: z.null(),
});

export const disputeVendorInvoice = endpoint({
  method: 'POST',
  path: '/finance/vendor_invoice/:id/dispute',
  summary:
    'Dispute a vendor invoice: the amount disputed (default the difference to Tandem’s figures) and why',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'write'),
  params: idParams,
  body: z
    .object({
      amount: amount.optional(),
      note: z.string().trim().min(1, { message: 'required' }).max(2000),
    })
    .strict(),
  payload: z.null(),
});

export const settleVendorInvoice = endpoint({
  method: 'POST',
  path: '/finance/vendor_invoice/:id/settle',
  summary:
    'Accept a vendor invoice (at its amount) or resolve its dispute (at the amount agreed): what the vendor is owed becomes that amount, by one ledger adjustment of agreed − Tandem’s figure; a repeat of the same settlement moves nothing',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'write'),
  params: idParams,
  body: z
    .object({
      /** Default: the vendor's amount (accept). */
      agreed_amount: amount.optional(),
      note,
    })
    .strict(),
  payload: z.object({
    status: z.enum(VENDOR_INVOICE_STATUSES),
    adjustment: z.string(),
    balance: z.string(),
    changed: z.boolean(),
  }),
});

export const uploadVendorInvoicePdf = endpoint({
  method: 'POST',
  path: '/finance/vendor_invoice/:id/pdf',
  summary: 'Attach the vendor’s invoice as PDF (multipart: file; at most 10 MB; replaces an earlier one)',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'write'),
  params: idParams,
  multipart: true,
  payload: z.object({ size: z.number() }),
});

export const vendorInvoicePdf = endpoint({
  method: 'GET',
  path: '/finance/vendor_invoice/:id/pdf',
  summary: 'The vendor’s invoice PDF as uploaded',
  tag: TAG,
  access: adminOnly(FUNC.vendorInvoice, 'read'),
  params: idParams,
  raw: true,
  payload: z.null(),
});

/** The text fields of the PDF upload (none). */
export const pdfUploadFields = z.object({});

/** Largest vendor invoice PDF accepted. */
export const VENDOR_PDF_MAX_MB = 10;
