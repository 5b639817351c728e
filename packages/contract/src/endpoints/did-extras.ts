import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, isoTime, listQuery, paged } from '../common';
import { endpoint } from '../endpoint';
import { coercedInt4 } from '../input-rules';
import { invoiceCreate, invoiceMade, invoicePage, invoiceQuery } from './billing';
import { chartPoint } from './dashboard';
import { DID_LIST_MAX } from './did';
import {
  balanceCheck,
  balanceQuery,
  regenerateBody,
  regenerated,
  transactionPage,
  transactionQuery,
} from './finance';
import { coverage, dashboardQuery, figures, summaryRow } from './stats';

/**
 * The rest of origination (issue 14, docs/did.md "Dashboard, ledger and invoices" and "Port-in
 * requests"): the DID dashboard; the finance ledger, regenerate balance and invoices over DID
 * carriers only (the finance calls' mechanism, with their own permissions); port-in requests
 * (portal and operator); the portal's DID trunks.
 */
const TAG = 'did';
export const DID_EXTRA_FUNC = {
  dashboard: '/origination/dashboard',
  transactions: '/origination/actual_transaction',
  regenerate: '/origination/regenerate_balance',
  invoice: '/origination/did_invoice',
  portRequests: '/origination/port_requests',
} as const;

// ------------------------------------------------------------------------------------------------
// Dashboard
// ------------------------------------------------------------------------------------------------

export const didDashboard = z.object({
  coverage,
  /** The DID calls of the range (the traffic summaries, DID traffic only). */
  totals: figures,
  /** Per 15 minutes up to 2 days, per hour up to 15 days, else per day (in `tz`). */
  step_minutes: z.number(),
  series: z.array(chartPoint),
  /** Numbers in the repository now, by state; suspended: assigned numbers refused for want of credit. */
  numbers: z.object({
    total: z.number(),
    assigned: z.number(),
    unassigned: z.number(),
    reserved: z.number(),
    released: z.number(),
    suspended: z.number(),
  }),
  /**
   * Money of the range, exact: the calls (summaries) and the recurring DID charges (the ledger's
   * 'did_charge' rows: what clients were charged net of refunds, what vendors charged). Cost and
   * profit are null without "view cost and rate in reports".
   */
  money: z.object({
    usage_revenue: z.string(),
    usage_cost: z.string().nullable(),
    charges_revenue: z.string(),
    charges_cost: z.string().nullable(),
    revenue: z.string(),
    cost: z.string().nullable(),
    profit: z.string().nullable(),
  }),
  /** Top DID clients and vendors of the range by attempts (with their figures). */
  top_clients: z.array(summaryRow),
  top_vendors: z.array(summaryRow),
});
export type DidDashboard = z.output<typeof didDashboard>;

export const getDashboard = endpoint({
  method: 'GET',
  path: '/did/dashboard',
  summary:
    'Origination dashboard: numbers by state, DID calls, minutes, revenue, cost and profit (calls and recurring charges) of a range over time, top DID clients and vendors',
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.dashboard, 'read'),
  query: dashboardQuery,
  payload: didDashboard,
});

// ------------------------------------------------------------------------------------------------
// Ledger, regenerate balance and invoices of DID carriers (the finance calls over DID carriers)
// ------------------------------------------------------------------------------------------------

export const listTransactions = endpoint({
  method: 'GET',
  path: '/did/actual_transaction/list',
  summary:
    "Origination > Actual Transaction: Finance > Actual Transaction's ledger restricted to DID clients and vendors",
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.transactions, 'read'),
  query: transactionQuery,
  payload: transactionPage,
});

export const checkBalances = endpoint({
  method: 'GET',
  path: '/did/regenerate_balance/list',
  summary:
    "Origination > Regenerate Balance: each DID client's and vendor's stored balance against its ledger sum",
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.regenerate, 'read'),
  query: balanceQuery,
  payload: paged(balanceCheck),
});

export const regenerate = endpoint({
  method: 'POST',
  path: '/did/regenerate_balance/regenerate',
  summary:
    "Set DID carriers' balances to their ledger sums (none listed: every DID carrier; carriers that are not DID carriers are left alone)",
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.regenerate, 'write'),
  body: regenerateBody,
  payload: regenerated,
});

export const listInvoices = endpoint({
  method: 'GET',
  path: '/did/invoice/list',
  summary: "Origination > DID Invoice: Finance > Invoice's list restricted to DID clients and vendors",
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.invoice, 'read'),
  query: invoiceQuery,
  payload: invoicePage,
});

export const createInvoice = endpoint({
  method: 'POST',
  path: '/did/invoice/create',
  summary:
    "A manual invoice of a DID client (or vendor) for a period of its local dates: the period's DID calls and its recurring DID charges (setup, monthly, channels, refunds)",
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.invoice, 'write'),
  body: invoiceCreate,
  payload: invoiceMade,
});

export const invoicePdf = endpoint({
  method: 'GET',
  path: '/did/invoice/:id/pdf',
  summary: 'The PDF of a DID carrier invoice',
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.invoice, 'read'),
  params: idParams,
  raw: true,
  payload: z.null(),
});

// ------------------------------------------------------------------------------------------------
// Port-in requests
// ------------------------------------------------------------------------------------------------

export const PORT_STATUSES = ['requested', 'in_progress', 'completed', 'rejected'] as const;
export type PortStatus = (typeof PORT_STATUSES)[number];
/** Where a request may go from each status (completed and rejected are final). */
export const PORT_MOVES: Record<PortStatus, readonly PortStatus[]> = {
  requested: ['in_progress', 'completed', 'rejected'],
  in_progress: ['completed', 'rejected'],
  completed: [],
  rejected: [],
};

export const portRequestRow = z.object({
  id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  numbers: z.array(z.string()),
  current_provider: z.string(),
  /** YYYY-MM-DD. */
  requested_date: z.string(),
  note: z.string(),
  status: z.enum(PORT_STATUSES),
  /** The operator's word to the client (why rejected, what happens next). */
  operator_note: z.string(),
  created_by: z.string(),
  created_at: isoTime,
  updated_at: isoTime,
  updated_by: z.string(),
});
export type PortRequestRow = z.output<typeof portRequestRow>;
export const portHistoryRow = z.object({
  id: z.number(),
  at: isoTime,
  status: z.enum(PORT_STATUSES),
  note: z.string(),
  user_name: z.string(),
});

export const portRequestBody = z
  .object({
    /** One number per line (as the DID import), at most 1000. */
    numbers: z
      .string()
      .max(DID_LIST_MAX * 20)
      .default(''),
    current_provider: z.string().trim().min(1).max(100),
    /** The date the client wants the numbers moved: today or later (its time zone). */
    requested_date: z.iso.date({ message: 'invalidDate' }),
    note: z.string().trim().max(1000).default(''),
  })
  .strict();

const portQuery = listQuery.extend({ status: z.enum(PORT_STATUSES).optional() });

export const portalPortRequests = endpoint({
  method: 'GET',
  path: '/did/portal/port_request/list',
  summary: "The client's own port-in requests, newest first",
  tag: TAG,
  access: { kind: 'session', types: ['client'] },
  query: portQuery,
  payload: paged(portRequestRow),
});
export const portalPortRequest = endpoint({
  method: 'GET',
  path: '/did/portal/port_request/:id',
  summary: 'One of its own port-in requests with its history (another client’s: not found)',
  tag: TAG,
  access: { kind: 'session', types: ['client'] },
  params: idParams,
  payload: z.object({ request: portRequestRow, history: z.array(portHistoryRow) }),
});
export const portalCreatePortRequest = endpoint({
  method: 'POST',
  path: '/did/portal/port_request/create',
  summary: 'Ask to port numbers in: the numbers, the current provider, the requested date and a note',
  tag: TAG,
  access: { kind: 'session', types: ['client'] },
  body: portRequestBody,
  payload: z.object({ id: z.number() }),
});

export const listPortRequests = endpoint({
  method: 'GET',
  path: '/did/port_request/list',
  summary: 'Port-in requests of every DID client (filters: status, client)',
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.portRequests, 'read'),
  query: portQuery.extend({ client_id: coercedInt4().positive().optional() }),
  payload: paged(portRequestRow),
});
export const getPortRequest = endpoint({
  method: 'GET',
  path: '/did/port_request/:id',
  summary: 'One port-in request with its history',
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.portRequests, 'read'),
  params: idParams,
  payload: z.object({ request: portRequestRow, history: z.array(portHistoryRow) }),
});
export const movePortRequest = endpoint({
  method: 'POST',
  path: '/did/port_request/:id/status',
  summary:
    'Move a port-in request: requested → in progress → completed or rejected (completed and rejected are final), with a note to the client',
  tag: TAG,
  access: adminOnly(DID_EXTRA_FUNC.portRequests, 'write'),
  params: idParams,
  body: z
    .object({
      status: z.enum(PORT_STATUSES),
      note: z.string().trim().max(1000).default(''),
    })
    .strict(),
  payload: z.null(),
});

// ------------------------------------------------------------------------------------------------
// Portal: the DID carrier's own trunks
// ------------------------------------------------------------------------------------------------

export const portalTrunkRow = z.object({
  trunk_id: z.number(),
  name: z.string(),
  /** egress: where the client's numbers ring; ingress: where a DID vendor sends calls from. */
  direction: z.enum(['ingress', 'egress']),
  auth_type: z.string(),
  hosts: z.array(z.string()),
  media_type: z.string(),
  t38: z.boolean(),
  tech_prefix: z.string(),
  call_limit: z.number().nullable(),
  is_active: z.boolean(),
  /** Assigned numbers that ring on it (a client's trunk), numbers it sends (a vendor's). */
  did_count: z.number(),
});
export type PortalTrunkRow = z.output<typeof portalTrunkRow>;
export const portalTrunks = endpoint({
  method: 'GET',
  path: '/did/portal/trunks',
  summary: "The DID carrier's own DID trunks and their authorization (IPs or SIP registration), read only",
  tag: TAG,
  access: { kind: 'session', types: ['client', 'vendor'] },
  payload: z.object({ items: z.array(portalTrunkRow) }),
});
