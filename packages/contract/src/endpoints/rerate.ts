import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, objectId, paged } from '../common';
import { endpoint } from '../endpoint';
import { int4 } from '../input-rules';
import { instant } from './rates';

/**
 * Tools > Rerate (issue 10 section 3, docs/cdr.md "Rerate"): an admin picks a time range, filters
 * and a rate choice; a background run previews the difference (CDRs, old and new revenue and cost
 * per carrier, a sample of changed CDRs); the apply rewrites the CDRs' rated fields and moves each
 * carrier's balance by the exact difference through the ledger (kind 'rerate', one ref per run and
 * chunk), resumable after a crash and never moving money twice.
 */
export const FUNC = '/tools/rerate';
const TAG = 'rerate';

export const RERATE_STATES = ['previewing', 'previewed', 'applying', 'applied', 'failed'] as const;
export type RerateState = (typeof RERATE_STATES)[number];

/** Most days one run may cover, and most ids per filter list. */
export const RERATE_MAX_DAYS = 366;
const ids = z.array(int4().positive()).max(500).default([]);
const tableId = int4({ message: 'invalidValue' }).positive().nullable().default(null);

export const rerateFilter = z
  .object({
    /** CDRs whose call started in [start_time, end_time). */
    start_time: instant,
    end_time: instant,
    /** Carriers as customer (ingress side) or as vendor (egress side); empty: all. */
    customer_ids: ids,
    vendor_ids: ids,
    ingress_trunk_ids: ids,
    egress_trunk_ids: ids,
    /** Prefix of the number priced (routing DNIS, or the DNIS when unpriced). */
    code: z.string().trim().max(32).regex(/^\d*$/, { message: 'digitsOnly' }).default(''),
    /** Only CDRs that could not be priced. */
    unpriced_only: z.boolean().default(false),
    /** A named rate table for a side instead of the trunks' (null: the rates in force at each call's start). */
    ingress_rate_table_id: tableId,
    egress_rate_table_id: tableId,
  })
  .strict()
  .superRefine((f, ctx) => {
    const from = Date.parse(f.start_time);
    const to = Date.parse(f.end_time);
    if (to <= from) ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'endAfterStart' });
    else if (to - from > RERATE_MAX_DAYS * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['end_time'],
        message: 'rerateRangeTooLong',
        params: { args: [String(RERATE_MAX_DAYS)] },
      });
  });
export type RerateFilter = z.output<typeof rerateFilter>;

export const rerateCarrier = z.object({
  client_id: z.number(),
  name: z.string(),
  customer_cdrs: z.number(),
  vendor_cdrs: z.number(),
  old_revenue: z.string(),
  new_revenue: z.string(),
  old_cost: z.string(),
  new_cost: z.string(),
  /** The carrier's balance correction: (old revenue − new revenue) + (new cost − old cost). */
  difference: z.string(),
});
export type RerateCarrier = z.output<typeof rerateCarrier>;

export const rerateSample = z.object({
  cdr_id: z.number(),
  call_id: z.string(),
  start_time: z.string(),
  customer_id: z.number().nullable(),
  vendor_id: z.number().nullable(),
  old_revenue: z.string(),
  new_revenue: z.string(),
  old_cost: z.string(),
  new_cost: z.string(),
  old_unpriced: z.string().nullable(),
  new_unpriced: z.string().nullable(),
  old_rate: z.string().nullable(),
  new_rate: z.string().nullable(),
});
export type RerateSample = z.output<typeof rerateSample>;

/** What a preview found or an apply did. */
export const rerateFigures = z.object({
  cdrs: z.number(),
  changed: z.number(),
  /** Unpriced before, priced now. */
  priced: z.number(),
  old_revenue: z.string(),
  new_revenue: z.string(),
  old_cost: z.string(),
  new_cost: z.string(),
  carriers: z.array(rerateCarrier),
  sample: z.array(rerateSample),
});
export type RerateFigures = z.output<typeof rerateFigures>;

export const rerateRun = z.object({
  run_id: z.number(),
  created_by: z.string(),
  created_at: z.string(),
  filter: z.object({
    start_time: z.string(),
    end_time: z.string(),
    customer_ids: z.array(z.number()),
    vendor_ids: z.array(z.number()),
    ingress_trunk_ids: z.array(z.number()),
    egress_trunk_ids: z.array(z.number()),
    code: z.string(),
    unpriced_only: z.boolean(),
    ingress_rate_table_id: z.number().nullable(),
    egress_rate_table_id: z.number().nullable(),
  }),
  state: z.enum(RERATE_STATES),
  /** CDRs the filter matched when the phase began, and how many the phase has gone through. */
  matched: z.number(),
  processed: z.number(),
  preview: rerateFigures.nullable(),
  result: rerateFigures.nullable(),
  applied_by: z.string().nullable(),
  apply_started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string(),
});
export type RerateRun = z.output<typeof rerateRun>;

export const create = endpoint({
  method: 'POST',
  path: '/tools/rerate/create',
  summary:
    'Start a rerate: a background preview of the filter at the chosen rates (CDRs, old and new revenue and cost per carrier, a sample of changed CDRs); answers the run id',
  tag: TAG,
  access: adminOnly(FUNC, 'write'),
  body: rerateFilter,
  payload: objectId,
});

export const list = endpoint({
  method: 'GET',
  path: '/tools/rerate/list',
  summary: 'Rerate runs, newest first (state filter), with progress',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  query: listQuery.extend({ state: z.enum(RERATE_STATES).optional() }),
  payload: paged(rerateRun),
});

export const get = endpoint({
  method: 'GET',
  path: '/tools/rerate/:id',
  summary: 'One rerate run: filter, state, progress, preview and result',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  params: idParams,
  payload: rerateRun,
});

export const apply = endpoint({
  method: 'PATCH',
  path: '/tools/rerate/:id/apply',
  summary:
    'Apply a previewed rerate (background, in chunks of 5,000 CDRs, each one transaction with its ledger rows); applying a run again, or one already applied, changes nothing',
  tag: TAG,
  access: adminOnly(FUNC, 'execute'),
  params: idParams,
  payload: rerateRun,
});
