import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, instantFilter, listQuery, paged, singleEmail, portalPassword } from '../common';
import { crudEndpoints, entityName } from '../crud';
import { endpoint } from '../endpoint';
import { coercedInt4, DECIMAL_MAX, int4 } from '../input-rules';
import { rateFilters, rateRow } from './rates';
import { userNameField } from './user';

/**
 * Agents (issue 15, docs/agents.md): Agent > Agent Management (agents, their portal user and their
 * clients), Commission Report (each closed period's commission as computed from the traffic
 * summaries), Commission History (the agent ledger: accruals, corrections, payouts) with New Payout
 * Record; and the agent portal (dashboard, clients, commission) where an agent sees only its own
 * clients and commission, whatever ids it sends.
 */
const TAG = 'agent';
export const FUNC = {
  agents: '/agent/agent_management',
  report: '/agent/commission_report',
  history: '/agent/commission_history',
} as const;
const AGENT_PORTAL = ['agent'] as const;

export const COMMISSION_METHODS = ['profit', 'revenue'] as const;
export const COMMISSION_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const AGENT_LEDGER_KINDS = ['commission', 'payout', 'adjustment'] as const;

/** A calendar day, YYYY-MM-DD. */
export const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'invalidValue' })
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: 'invalidValue',
    },
  );

/** Commission percent: 0 to 100 with up to 4 decimals, as text (exact). */
export const commissionPercent = z
  .union([z.string(), z.number().min(0).max(100)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,3}(\.\d{1,4})?$/.test(v) && Number(v) <= 100, { message: 'percentRange' });

/** An amount above zero with up to 2 decimals (a payout in currency cents). */
export const payoutAmount = z
  .union([z.string(), z.number().min(0).max(DECIMAL_MAX)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,12}(\.\d{1,2})?$/.test(v) && /[1-9]/.test(v), { message: 'positiveDecimal' });

export const agentRow = z.object({
  agent_id: z.number(),
  agent_name: z.string(),
  status: z.enum(['active', 'inactive']),
  email: z.string(),
  commission_method: z.enum(COMMISSION_METHODS),
  commission_percent: z.string(),
  frequency: z.enum(COMMISSION_FREQUENCIES),
  referral_key: z.string(),
  portal_edit: z.boolean(),
  own_invoice_setting: z.boolean(),
  commission_since: z.string(),
  /** Commission owed (the agent ledger's sum). */
  balance: z.string(),
  clients: z.number(),
  /** The agent's portal login. */
  name: z.string().nullable(),
  created_at: z.string(),
});
export type AgentRow = z.output<typeof agentRow>;

export const agentBody = z
  .object({
    agent_name: entityName(100),
    status: z.enum(['active', 'inactive']).default('active'),
    email: singleEmail,
    commission_method: z.enum(COMMISSION_METHODS).default('profit'),
    commission_percent: commissionPercent.default('0'),
    frequency: z.enum(COMMISSION_FREQUENCIES).default('monthly'),
    portal_edit: z.boolean().default(false),
    own_invoice_setting: z.boolean().default(false),
    /** First day whose traffic earns commission (default: today, UTC). */
    commission_since: z.union([z.literal('').transform(() => undefined), day]).optional(),
    /** The agent's portal login and password (required to create; optional to change). */
    name: userNameField,
    passwd: portalPassword,
  })
  .strict();

export const agents = crudEndpoints({
  base: '/agents',
  tag: TAG,
  func: FUNC.agents,
  name: 'agent',
  row: agentRow,
  create: agentBody,
  filters: {
    search: z.string().trim().max(100).optional(),
    status: z.enum(['active', 'inactive']).optional(),
  },
});

export const agentClient = z.object({
  client_id: z.number(),
  name: z.string(),
  company: z.string(),
  is_active: z.boolean(),
  mode: z.enum(['prepaid', 'postpaid']),
  balance: z.string(),
  credit_limit: z.string(),
  currency: z.string(),
  main_email: z.string(),
  registration_status: z.string(),
  /** Traffic of the last 30 days as customer (from the summaries). */
  revenue_30d: z.string(),
  minutes_30d: z.string(),
  calls_30d: z.number(),
});
export type AgentClient = z.output<typeof agentClient>;

const clientListQuery = listQuery.extend({ search: z.string().trim().max(100).optional() });

export const listAgentClients = endpoint({
  method: 'GET',
  path: '/agents/:id/clients',
  summary: "An agent's clients (Agent Management > Manage Clients)",
  tag: TAG,
  access: adminOnly(FUNC.agents, 'read'),
  params: idParams,
  query: clientListQuery,
  payload: paged(agentClient),
});

const clientIds = z
  .object({ client_ids: z.array(int4().positive()).min(1, { message: 'required' }).max(1000) })
  .strict();

export const assignClients = endpoint({
  method: 'POST',
  path: '/agents/:id/clients/assign',
  summary: 'Assign carriers to an agent (a carrier of another agent moves to this one)',
  tag: TAG,
  access: adminOnly(FUNC.agents, 'write'),
  params: idParams,
  body: clientIds,
  payload: z.object({ assigned: z.number() }),
});

export const unassignClients = endpoint({
  method: 'POST',
  path: '/agents/:id/clients/unassign',
  summary: 'Take carriers away from an agent',
  tag: TAG,
  access: adminOnly(FUNC.agents, 'write'),
  params: idParams,
  body: clientIds,
  payload: z.object({ unassigned: z.number() }),
});

export const renewReferralKey = endpoint({
  method: 'PATCH',
  path: '/agents/:id/referral_key',
  summary: 'A new referral key for an agent (the old referral link stops working)',
  tag: TAG,
  access: adminOnly(FUNC.agents, 'write'),
  params: idParams,
  payload: z.object({ referral_key: z.string() }),
});

export const commissionPeriod = z.object({
  agent_id: z.number(),
  agent_name: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  frequency: z.enum(COMMISSION_FREQUENCIES),
  method: z.enum(COMMISSION_METHODS),
  percent: z.string(),
  clients: z.number(),
  revenue: z.string(),
  cost: z.string(),
  base: z.string(),
  /** The period's commission as computed now. */
  amount: z.string(),
  /** What the agent ledger holds for the period (equal to amount after the job ran). */
  accrued: z.string(),
  revision: z.number(),
  computed_at: z.string(),
});
export type CommissionPeriodRow = z.output<typeof commissionPeriod>;

const periodFilter = {
  /** Admins: one agent (default all); ignored for an agent (always itself). */
  agent_id: coercedInt4().positive().optional(),
  /** Periods starting at or after / before. */
  from: instantFilter.optional(),
  to: instantFilter.optional(),
};

export const commissionReport = endpoint({
  method: 'GET',
  path: '/agents/commission/report',
  summary: 'Closed commission periods with the traffic, base and commission of each (an agent: its own)',
  tag: TAG,
  access: adminOnly(FUNC.report, 'read', AGENT_PORTAL),
  query: listQuery.extend(periodFilter),
  payload: paged(commissionPeriod).extend({
    totals: z.object({ revenue: z.string(), cost: z.string(), base: z.string(), amount: z.string() }),
  }),
});

export const commissionPeriodClient = z.object({
  client_id: z.number(),
  name: z.string(),
  revenue: z.string(),
  cost: z.string(),
});

export const commissionPeriodClients = endpoint({
  method: 'GET',
  path: '/agents/commission/report/:agent_id/:period_start',
  summary: 'The clients of one commission period with their traffic (an agent: only its own periods)',
  tag: TAG,
  access: adminOnly(FUNC.report, 'read', AGENT_PORTAL),
  params: z.object({ agent_id: coercedInt4().positive(), period_start: day }),
  payload: z.object({ items: z.array(commissionPeriodClient) }),
});

export const agentLedgerRow = z.object({
  ledger_id: z.number(),
  agent_id: z.number(),
  agent_name: z.string(),
  created_at: z.string(),
  kind: z.enum(AGENT_LEDGER_KINDS),
  ref: z.string(),
  period_start: z.string().nullable(),
  amount: z.string(),
  balance_before: z.string(),
  balance_after: z.string(),
  note: z.string(),
  created_by: z.string(),
});
export type AgentLedgerRow = z.output<typeof agentLedgerRow>;

export const commissionHistory = endpoint({
  method: 'GET',
  path: '/agents/commission/history',
  summary: 'The agent ledger (commission accrued, corrections, payouts), newest first (an agent: its own)',
  tag: TAG,
  access: adminOnly(FUNC.history, 'read', AGENT_PORTAL),
  query: listQuery.extend({ ...periodFilter, kind: z.enum(AGENT_LEDGER_KINDS).optional() }),
  payload: paged(agentLedgerRow).extend({
    totals: z.object({ commission: z.string(), payout: z.string(), adjustment: z.string(), net: z.string() }),
    /** Owed now (the selected agent's balance, or all agents' together). */
    owed: z.string(),
  }),
});

export const payoutBody = z
  .object({
    agent_id: int4().positive(),
    amount: payoutAmount,
    paid_on: day,
    method: z.string().trim().max(50).default(''),
    reference: z.string().trim().max(100).default(''),
    note: z.string().trim().max(500).default(''),
    /** Sent again with the same key (a double click, a retry), the payout is recorded once. */
    request_key: z.string().trim().min(8).max(64).optional(),
  })
  .strict();

export const createPayout = endpoint({
  method: 'POST',
  path: '/agents/commission/payout',
  summary: 'Record a payout to an agent (New Payout Record): lowers what is owed, one ledger row',
  tag: TAG,
  access: adminOnly(FUNC.history, 'write'),
  body: payoutBody,
  payload: z.object({
    payout_id: z.number(),
    ledger_id: z.number(),
    balance: z.string(),
    created: z.boolean(),
  }),
});

export const calculateCommission = endpoint({
  method: 'POST',
  path: '/agents/commission/calculate',
  summary: 'Compute the closed commission periods now (a durable job; also runs every hour)',
  tag: TAG,
  access: adminOnly(FUNC.report, 'execute'),
  body: z.object({ agent_id: int4().positive().optional() }).strict(),
  payload: z.object({ job_id: z.number() }),
});

// ---- agent portal -------------------------------------------------------------------------------

export const dashboard = endpoint({
  method: 'GET',
  path: '/agent_portal/dashboard',
  summary:
    "The agent's home: its clients, their traffic and balances, commission owed and earned this period",
  tag: TAG,
  access: { kind: 'session', types: AGENT_PORTAL },
  payload: z.object({
    agent_name: z.string(),
    frequency: z.enum(COMMISSION_FREQUENCIES),
    method: z.enum(COMMISSION_METHODS),
    percent: z.string(),
    clients: z.number(),
    active_clients: z.number(),
    clients_balance: z.string(),
    owed: z.string(),
    /** The open period so far: its traffic and the commission it would earn if it closed now. */
    period: z.object({
      start: z.string(),
      end: z.string(),
      revenue: z.string(),
      cost: z.string(),
      calls: z.number(),
      minutes: z.string(),
      commission: z.string(),
    }),
    /** The last 30 UTC days, oldest first. */
    daily: z.array(
      z.object({ day: z.string(), revenue: z.string(), calls: z.number(), minutes: z.string() }),
    ),
  }),
});

export const portalClients = endpoint({
  method: 'GET',
  path: '/agent_portal/clients',
  summary: "The agent's clients with balance and last 30 days' traffic",
  tag: TAG,
  access: { kind: 'session', types: AGENT_PORTAL },
  query: clientListQuery,
  payload: paged(agentClient).extend({ portal_edit: z.boolean() }),
});

export const portalClient = endpoint({
  method: 'GET',
  path: '/agent_portal/clients/:id',
  summary: "One of the agent's clients (not found for any other carrier)",
  tag: TAG,
  access: { kind: 'session', types: AGENT_PORTAL },
  params: idParams,
  payload: agentClient.extend({
    noc_email: z.string(),
    billing_email: z.string(),
    rates_email: z.string(),
    address: z.string(),
    portal_edit: z.boolean(),
  }),
});

export const portalClientBody = z
  .object({
    company: z.string().trim().min(1, { message: 'required' }).max(200),
    main_email: singleEmail,
    noc_email: z.union([z.literal(''), singleEmail]),
    billing_email: z.union([z.literal(''), singleEmail]),
    rates_email: z.union([z.literal(''), singleEmail]),
    address: z.string().trim().max(500),
  })
  .partial()
  .strict();

export const portalUpdateClient = endpoint({
  method: 'PATCH',
  path: '/agent_portal/clients/:id',
  summary: "Edit a client's company and contact data (only with the agent's portal edit permission)",
  tag: TAG,
  access: { kind: 'session', types: AGENT_PORTAL },
  params: idParams,
  body: portalClientBody,
  payload: z.null(),
});

export const portalRates = endpoint({
  method: 'GET',
  path: '/portal/rate_tables/:id/rates',
  summary:
    "The rates of a product's rate table the caller may see (agent portal and client portal > Products > View Rates): a public product's, or one assigned to the agent or to the client's carrier; not found for any other table",
  tag: TAG,
  access: { kind: 'session', types: ['agent', 'client'] },
  params: idParams,
  query: listQuery.extend(rateFilters.shape),
  payload: paged(rateRow).extend({ decimal_places: z.number(), name: z.string() }),
});
