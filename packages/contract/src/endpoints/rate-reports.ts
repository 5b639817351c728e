import { int4, coercedInt4 } from '../input-rules';
import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, paged, queryBool } from '../common';
import { endpoint } from '../endpoint';
import { instant, FUNC as RATES_FUNC } from './rates';

/**
 * Rate reports (docs/rate-reports.md): Termination > Client Rate Summary (every client's ingress
 * trunks with their rate tables and pending changes), Termination > Rate Report (what clients pay
 * and vendors charge for chosen codes, side by side), and Routing > Rate Table > assign rate deck
 * (one rate table onto many trunks at once).
 */
export const FUNC = {
  clientRateSummary: '/termination/client_rate_summary',
  rateReport: '/termination/rate_report',
  rateTable: RATES_FUNC.rateTable,
} as const;
const TAG = 'rate reports';
const optionalId = coercedInt4().positive().optional();

// ------------------------------------------------------------------------------------------------
// Client rate summary
// ------------------------------------------------------------------------------------------------

/**
 * One rate table as an ingress trunk uses it: the trunk's own table (billing tab) or a product's
 * (routing row, told apart by tech prefix), exactly as the routing engine prices the trunk's calls.
 * rate_table_id null: the trunk has no rate table, its calls cannot be rated.
 */
export const clientRateSummaryRow = z.object({
  /** `{trunk_id}-{routing row id or 'own'}`. */
  key: z.string(),
  carrier_id: z.number(),
  carrier_name: z.string(),
  carrier_is_active: z.boolean(),
  trunk_id: z.number(),
  trunk_name: z.string(),
  trunk_is_active: z.boolean(),
  tech_prefix: z.string(),
  product_name: z.string().nullable(),
  rate_table_id: z.number().nullable(),
  rate_table_name: z.string().nullable(),
  currency: z.string().nullable(),
  /** Rate rows of the table (all states). */
  rate_count: z.number(),
  /** Codes with a row in effect now. */
  current_codes: z.number(),
  /** The latest effective date at or before now (when the table's current prices took effect). */
  last_effective_date: z.string().nullable(),
  /** When the table's rates were last written. */
  updated_at: z.string().nullable(),
  /** Codes whose next pending row raises, lowers or newly adds a price (compared with the same code's row in effect now). */
  pending_increases: z.number(),
  pending_decreases: z.number(),
  pending_new: z.number(),
  /** The earliest pending effective date. */
  next_change_date: z.string().nullable(),
});
export type ClientRateSummaryRow = z.output<typeof clientRateSummaryRow>;

export const clientRateSummaryQuery = listQuery.extend({
  carrier_id: optionalId,
  trunk_id: optionalId,
  rate_table_id: optionalId,
  is_active: queryBool.optional(),
});
export type ClientRateSummaryQuery = z.output<typeof clientRateSummaryQuery>;

export const clientRateSummary = endpoint({
  method: 'GET',
  path: '/termination/client_rate_summary/list',
  summary:
    "Every client's ingress trunks with their rate tables, rate counts, effective dates and pending changes",
  tag: TAG,
  access: adminOnly(FUNC.clientRateSummary, 'read'),
  query: clientRateSummaryQuery,
  payload: paged(clientRateSummaryRow),
});

// ------------------------------------------------------------------------------------------------
// Rate report
// ------------------------------------------------------------------------------------------------

/** A comma or space separated list of codes (digits), at most 200. */
export const codeList = z
  .string()
  .max(4000)
  .transform((v) => [...new Set(v.split(/[\s,;]+/).filter(Boolean))])
  .refine((codes) => codes.every((c) => /^\d{1,32}$/.test(c)), { message: 'digitsOnly' })
  .refine((codes) => codes.length <= 200, { message: 'invalidValue' });

export const RATE_REPORT_SIDES = ['client', 'vendor'] as const;
export type RateReportSide = (typeof RATE_REPORT_SIDES)[number];

export const rateReportQuery = listQuery.extend({
  /** Codes (prefixes): every code of the compared tables that starts with one, and each code itself. */
  codes: codeList.optional(),
  code_name: z.string().trim().max(100).optional(),
  country: z.string().trim().max(100).optional(),
  /** The instant the rates are in effect at (default now); without a zone it is UTC. */
  at: instant.optional(),
  /** The report compares one currency (default USD); tables of other currencies are left out. */
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { message: 'invalidValue' })
    .default('USD'),
  /** Only these carriers' tables (clients and vendors); default all with trunks. */
  carrier_id: optionalId,
  side: z.enum(RATE_REPORT_SIDES).optional(),
  /** Include tables of inactive trunks (default: active trunks only). */
  include_inactive: queryBool.optional(),
});

export type RateReportQuery = z.output<typeof rateReportQuery>;

/** One compared column: a carrier's rate table (with the trunks of that carrier using it). */
export const rateReportColumn = z.object({
  side: z.enum(RATE_REPORT_SIDES),
  carrier_id: z.number(),
  carrier_name: z.string(),
  rate_table_id: z.number(),
  rate_table_name: z.string(),
  trunk_names: z.array(z.string()),
  decimal_places: z.number(),
});
/** The rate of one code in one column: the longest-prefix row in effect (null: the table has none). */
export const rateReportCell = z
  .object({ rate: z.string(), code: z.string(), effective_date: z.string() })
  .nullable();
export const rateReportRow = z.object({
  code: z.string(),
  code_name: z.string(),
  country: z.string(),
  /** Aligned with `columns`. */
  rates: z.array(rateReportCell),
  client_min: z.string().nullable(),
  client_max: z.string().nullable(),
  vendor_min: z.string().nullable(),
  vendor_max: z.string().nullable(),
});
export type RateReportRow = z.output<typeof rateReportRow>;
export type RateReportColumn = z.output<typeof rateReportColumn>;

export const rateReport = endpoint({
  method: 'GET',
  path: '/termination/rate_report',
  summary:
    'What each client pays (ingress rate tables) and each vendor charges (egress rate tables) for the chosen codes, with min and max',
  tag: TAG,
  access: adminOnly(FUNC.rateReport, 'read'),
  query: rateReportQuery,
  payload: paged(rateReportRow).extend({
    columns: z.array(rateReportColumn),
    at: z.string(),
    currency: z.string(),
  }),
});

// ------------------------------------------------------------------------------------------------
// Assign a rate table to many trunks
// ------------------------------------------------------------------------------------------------

export const assignCandidate = z.object({
  trunk_id: z.number(),
  name: z.string(),
  direction: z.enum(['ingress', 'egress']),
  carrier_id: z.number(),
  carrier_name: z.string(),
  is_active: z.boolean(),
  bill_by: z.enum(['dnis', 'lrn']),
  rate_table_id: z.number().nullable(),
  rate_table_name: z.string().nullable(),
  /** The trunk's own rate table is this one. */
  uses_this: z.boolean(),
  /** Ingress: product routing rows that price with another table (they keep it). */
  other_product_tables: z.number(),
});
export type AssignCandidate = z.output<typeof assignCandidate>;

export const assignCandidatesQuery = listQuery.extend({
  direction: z.enum(['ingress', 'egress']).default('ingress'),
  carrier_id: optionalId,
  name: z.string().trim().max(100).optional(),
  uses_this: queryBool.optional(),
});
export type AssignCandidatesQuery = z.output<typeof assignCandidatesQuery>;

export const assignCandidates = endpoint({
  method: 'GET',
  path: '/rate/rate_table/:id/assign_rate_deck',
  summary: 'Trunks a rate table can be assigned to (by direction and carrier), and which already use it',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'read'),
  params: idParams,
  query: assignCandidatesQuery,
  payload: paged(assignCandidate).extend({
    rate_table_name: z.string(),
    billing_method: z.enum(['dnis', 'lrn']),
  }),
});

export const assignRateDeck = endpoint({
  method: 'POST',
  path: '/rate/rate_table/:id/assign_rate_deck',
  summary: 'Make a rate table the own rate table of many trunks (one transaction)',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: idParams,
  body: z
    .object({
      trunk_ids: z
        .array(int4().positive())
        .min(1, { message: 'atLeastOneTrunk' })
        .max(1000, { message: 'invalidValue' }),
    })
    .strict(),
  payload: z.object({ assigned: z.number(), unchanged: z.number() }),
});
