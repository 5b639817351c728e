import { coercedInt4, int4, INT4_MAX } from '../input-rules';
import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, paged } from '../common';
import { amount, crudEndpoints, entityName, seconds } from '../crud';
import { endpoint } from '../endpoint';
import { RATE_COLUMNS, RATE_TYPES, decimalPlaces, instant, interval } from './rates';

/**
 * Tools > Rate Generation: templates (vendor egress trunks, LCR basis, margin per rate range, default
 * rate, decimal places, code deck, interval, min time), generation runs as background jobs with their
 * history and generated rates, and the apply of a result to a rate table (through the rate import's
 * apply: one transaction, end dates, the routing engine rebuilds).
 */
export const FUNC = '/tools/rate_generation';
const TAG = 'rate generation';

/** lcr1..3: the lowest, 2nd or 3rd lowest vendor cost; average: the mean of the N lowest. */
export const LCR_BASES = ['lcr1', 'lcr2', 'lcr3', 'average'] as const;
export const MARKUP_TYPES = ['percentage', 'fixed'] as const;
export const GENERATION_STATUS = ['Initial', 'Finished', 'Failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUS)[number];

const id = int4({ message: 'required' }).positive();

/** One margin rule: costs in [rate_from, rate_to) get the markup (a percentage of the cost or an amount). */
export const marginRange = z
  .object({
    rate_from: amount,
    /** null = no upper bound. */
    rate_to: amount.nullable().default(null),
    markup_type: z.enum(MARKUP_TYPES).default('percentage'),
    markup: amount,
  })
  .strict();
export type MarginRange = z.output<typeof marginRange>;

const micros = (v: string): bigint => {
  const [whole = '0', frac = ''] = v.split('.');
  return BigInt(whole) * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
};

/**
 * The rules of a list of margin ranges: each ends after it starts ('{0} cannot be larger than {1}',
 * '{0} should be greater than {1}'), and no two overlap (one open-ended range at most, last).
 */
export function marginIssues(
  margins: readonly MarginRange[],
): { path: (string | number)[]; message: string; args: string[] }[] {
  const issues: { path: (string | number)[]; message: string; args: string[] }[] = [];
  margins.forEach((m, i) => {
    if (m.rate_to === null) return;
    const from = micros(m.rate_from);
    const to = micros(m.rate_to);
    if (from > to)
      issues.push({ path: [i, 'rate_from'], message: 'cannotBeLarger', args: ['rate_from', 'rate_to'] });
    else if (from === to)
      issues.push({ path: [i, 'rate_to'], message: 'shouldBeGreater', args: ['rate_to', 'rate_from'] });
  });
  if (issues.length) return issues;
  const order = margins.map((m, i) => ({
    i,
    from: micros(m.rate_from),
    to: m.rate_to === null ? null : micros(m.rate_to),
  }));
  order.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  for (let k = 1; k < order.length; k++) {
    const before = order[k - 1]!;
    const here = order[k]!;
    if (before.to === null || here.from < before.to) {
      const a = margins[before.i]!;
      const b = margins[here.i]!;
      issues.push({
        path: [here.i, 'rate_from'],
        message: 'rangesOverlap',
        args: [a.rate_from, a.rate_to ?? '∞', b.rate_from, b.rate_to ?? '∞'],
      });
    }
  }
  return issues;
}

const margins = z
  .array(marginRange)
  .max(50)
  .superRefine((list, ctx) => {
    for (const issue of marginIssues(list))
      ctx.addIssue({
        code: 'custom',
        path: issue.path,
        message: issue.message,
        params: { args: issue.args },
      });
  });

export const templateFields = z.object({
  name: entityName(),
  rate_table_type: z.enum(RATE_TYPES).default('a_z'),
  lcr_basis: z.enum(LCR_BASES).default('lcr1'),
  /** N of the 'average' basis. */
  average_count: z
    .number({ message: 'positiveInteger' })
    .int({ message: 'positiveInteger' })
    .min(1, { message: 'positiveInteger' })
    .max(10, { message: 'invalidValue' })
    .default(3),
  /** Rate of codes no vendor prices; null = leave them out. */
  default_rate: amount.nullable().default(null),
  decimal_places: decimalPlaces.default(4),
  /** The codes to price; null = every code the vendors have. */
  code_deck_id: id.nullable().default(null),
  /** Egress trunks whose rate tables are the costs (order breaks ties). */
  egress_trunks: z.array(id, { message: 'atLeastOneTrunk' }).min(1, { message: 'atLeastOneTrunk' }).max(50),
  margins: margins.default([]),
  interval: interval.default(1),
  min_time: seconds.default(1),
});
export type TemplateFields = z.output<typeof templateFields>;

export const templateRow = templateFields.extend({
  id: z.number(),
  code_deck_name: z.string().nullable(),
  egress_trunk_names: z.array(z.string()),
  usage_count: z.number(),
  last_generated_at: z.string().nullable(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type TemplateRow = z.output<typeof templateRow>;

export const template = crudEndpoints({
  base: '/tools/rate_generation/template',
  tag: TAG,
  func: FUNC,
  name: 'rate generation template',
  row: templateRow,
  create: templateFields.strict(),
  filters: {
    name: z.string().max(100).optional(),
    rate_table_type: z.enum(RATE_TYPES).optional(),
  },
});

export const generate = endpoint({
  method: 'POST',
  path: '/tools/rate_generation/template/:id/generate',
  summary:
    'Generate rates with a template (background job); answers the history id. rate_date: the instant whose vendor rates are used (default now)',
  tag: TAG,
  access: adminOnly(FUNC, 'write'),
  params: idParams,
  body: z.object({ rate_date: instant.optional() }).strict(),
  payload: z.object({ object_id: z.number() }),
});

// ------------------------------------------------------------------------------------------------
// History and generated rates
// ------------------------------------------------------------------------------------------------

export const historyRow = z.object({
  id: z.number(),
  template_id: z.number().nullable(),
  template_name: z.string(),
  rate_table_type: z.enum(RATE_TYPES),
  decimal_places: z.number(),
  status: z.enum(GENERATION_STATUS),
  created_by: z.string(),
  start_time: z.string(),
  finish_time: z.string().nullable(),
  rate_date: z.string(),
  rate_count: z.number(),
  applied: z.boolean(),
  applied_at: z.string().nullable(),
  rate_table_id: z.number().nullable(),
  rate_table_name: z.string().nullable(),
  /** Why a run failed, in the caller's language; '' otherwise. */
  message: z.string(),
});
export type HistoryRow = z.output<typeof historyRow>;

export const listHistory = endpoint({
  method: 'GET',
  path: '/tools/rate_generation/history/list',
  summary: 'Rate generation history (filters: template, status, applied)',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  query: listQuery.extend({
    template_id: coercedInt4().positive().optional(),
    status: z.enum(GENERATION_STATUS).optional(),
  }),
  payload: paged(historyRow),
});
export const getHistory = endpoint({
  method: 'GET',
  path: '/tools/rate_generation/history/:id',
  summary: 'One rate generation: status, counts, where it was applied',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  params: idParams,
  payload: historyRow,
});

export const generatedRateRow = z.object({
  code: z.string(),
  code_name: z.string(),
  country: z.string(),
  rate: z.string(),
  intra_rate: z.string().nullable(),
  inter_rate: z.string().nullable(),
  ij_rate: z.string().nullable(),
  local_rate: z.string().nullable(),
  /** The vendor cost the rate was built on (null: the default rate). */
  cost: z.string().nullable(),
  vendor_trunk_id: z.number().nullable(),
  vendor_trunk_name: z.string().nullable(),
  /** The margin rule applied (null: default rate, or a cost outside every range). */
  markup_type: z.enum(MARKUP_TYPES).nullable(),
  markup: z.string().nullable(),
  source: z.enum(['vendor', 'default']),
  vendor_count: z.number(),
});
export type GeneratedRateRow = z.output<typeof generatedRateRow>;
export const listGeneratedRates = endpoint({
  method: 'GET',
  path: '/tools/rate_generation/history/:id/rates',
  summary:
    'The rates a generation produced, with the cost, vendor trunk and margin of each (code prefix filter)',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  params: idParams,
  query: listQuery.extend({ code: z.string().trim().max(32).optional() }),
  payload: paged(generatedRateRow),
});
export const exportGeneratedRates = endpoint({
  method: 'GET',
  path: '/tools/rate_generation/history/:id/export',
  summary: 'Download the generated rates as CSV (rate file columns, then cost, vendor trunk and margin)',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  params: idParams,
  raw: true,
  payload: z.null(),
});

// ------------------------------------------------------------------------------------------------
// Apply to a rate table
// ------------------------------------------------------------------------------------------------

export const applyBody = z
  .object({
    rate_table_id: id,
    effective_date: instant,
    /** Default: the template's. */
    interval: interval.optional(),
    min_time: seconds.optional(),
    /** Fills code names and countries the generated rows lack; default: the rate table's deck. */
    code_deck_id: id.nullable().default(null),
    /** Codes of the table absent from the generated set end at this instant; null = they stay. */
    end_date_of_existing_codes: instant.nullable().default(null),
    /**
     * A rate e-mail template: once applied, the table is sent with it to every carrier whose trunks
     * use the table (as Send Rate does), with download links valid until `download_deadline`
     * (default: 7 days on). Null: nothing is sent.
     */
    email_template_id: id.nullable().default(null),
    download_deadline: instant.nullable().default(null),
  })
  .strict();
export const apply = endpoint({
  method: 'POST',
  path: '/tools/rate_generation/history/:id/apply',
  summary:
    'Apply a finished generation to a rate table of the same type (one transaction: new rates, ended rates, overwrite of the same code and date)',
  tag: TAG,
  access: adminOnly(FUNC, 'write'),
  params: idParams,
  body: applyBody,
  payload: z.object({
    task_id: z.number(),
    inserted: z.number(),
    updated: z.number(),
    ended: z.number(),
    /** The send of the e-mail template (null: no template, or no carrier uses the table). */
    send_id: z.number().nullable(),
    recipients: z.number(),
  }),
});

// ------------------------------------------------------------------------------------------------
// Analysis of a run against a rate table (history/analysis)
// ------------------------------------------------------------------------------------------------

/**
 * How a code of the analysis changes if the run is applied to the table:
 * - new: the table has no rate of this code in effect (the run adds it);
 * - increase / decrease / unchanged: the run's rate (at the table's decimal places, as the apply
 *   writes it) against the table's rate of the code in effect;
 * - ended: the table has the code in effect and the run lacks it (the apply ends it when given an
 *   end date for existing codes).
 */
export const RATE_CHANGES = ['new', 'increase', 'decrease', 'unchanged', 'ended'] as const;
export type RateChange = (typeof RATE_CHANGES)[number];

const analysisFilters = {
  rate_table_id: z.coerce
    .number({ message: 'required' })
    .int({ message: 'required' })
    .positive({ message: 'required' })
    .max(INT4_MAX, { message: 'required' }),
  /** The table's rates in effect at this instant are the current ones (default now). */
  at: instant.optional(),
  /**
   * The rate column compared (default rate). US jurisdictional runs only for the others: intra,
   * inter, IJ and local, each with the engine's fallbacks when a row leaves it empty (local ->
   * intra -> rate, the others -> rate), on both sides.
   */
  column: z.enum(RATE_COLUMNS).optional(),
  change: z.enum(RATE_CHANGES).optional(),
  /** Code prefix. */
  code: z.string().trim().max(32).optional(),
  code_name: z.string().trim().max(100).optional(),
  country: z.string().trim().max(100).optional(),
};
export const analysisQuery = listQuery.extend(analysisFilters);
export type AnalysisQuery = z.output<typeof analysisQuery>;

export const analysisRow = z.object({
  code: z.string(),
  code_name: z.string(),
  country: z.string(),
  change: z.enum(RATE_CHANGES),
  /** The table's rate of this code in effect, in the compared column (null: new). */
  current_rate: z.string().nullable(),
  current_effective_date: z.string().nullable(),
  /** The run's rate at the table's decimal places (null: ended). */
  new_rate: z.string().nullable(),
  /** new_rate - current_rate, and that as a percentage of current_rate (null: new, ended, or a current rate of 0). */
  difference: z.string().nullable(),
  change_percent: z.string().nullable(),
  /**
   * New codes: what calls to the code cost now, by the table's longest code that prefixes it and
   * is in effect (the engine's rule, domain rate-compare); null when no code of the table does.
   */
  prefix_code: z.string().nullable(),
  prefix_rate: z.string().nullable(),
});
export type AnalysisRow = z.output<typeof analysisRow>;
export const analysisSummary = z.object({
  new: z.number(),
  increase: z.number(),
  decrease: z.number(),
  unchanged: z.number(),
  ended: z.number(),
  total: z.number(),
});
export const analyse = endpoint({
  method: 'GET',
  path: '/tools/rate_generation/history/:id/analysis',
  summary:
    'A finished generation against a rate table: per code the current and the generated rate and the change (new, increase, decrease, unchanged, ended), with a summary of the whole comparison',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  params: idParams,
  query: analysisQuery,
  payload: z.object({
    rate_table: z.object({ rate_table_id: z.number(), name: z.string(), decimal_places: z.number() }),
    at: z.string(),
    column: z.enum(RATE_COLUMNS),
    summary: analysisSummary,
    items: z.array(analysisRow),
    total: z.number(),
  }),
});
export const exportAnalysis = endpoint({
  method: 'GET',
  path: '/tools/rate_generation/history/:id/analysis/export',
  summary: 'Download the analysis (with its filters and order, every page) as CSV',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  params: idParams,
  query: analysisQuery,
  raw: true,
  payload: z.null(),
});
