import { z } from 'zod';
import { adminOnly, SIGNED_IN } from '../access';
import { listQuery, paged, queryBool } from '../common';
import { endpoint } from '../endpoint';

const CLIENT = { kind: 'session', types: ['client', 'vendor'] } as const;

export const clientHome = z.object({
  client_id: z.number(),
  name: z.string(),
  balance: z.string(),
  currency: z.string(),
  credit_limit: z.string(),
  mode: z.string(),
  /** Prepaid: the credit allowed below zero (allowed + test credit), as on the carrier page. */
  allowed_credit: z.string(),
  unlimited_credit: z.boolean(),
  /** What calls may still spend: balance + allowed credit (prepaid) or + credit limit (postpaid). */
  available: z.string(),
  is_show_daily_usage: z.boolean(),
  is_daily_balance_notification: z.boolean(),
  zero_balance_notice: z.boolean(),
});
export const getClientHome = endpoint({
  method: 'GET',
  path: '/home/client',
  summary: "The signed-in carrier's balance and notification flags",
  tag: 'home',
  access: CLIENT,
  payload: clientHome,
});
export const clientMessage = z.object({
  id: z.number(),
  type: z.string(),
  subject: z.string(),
  content: z.string(),
  created_at: z.string(),
  is_read: z.boolean(),
});
export const listClientMessages = endpoint({
  method: 'GET',
  path: '/home/client/message/list',
  summary: "The carrier's messages",
  tag: 'home',
  access: CLIENT,
  query: listQuery.extend({ type: z.string().optional() }),
  payload: paged(clientMessage),
});
export const clientAlert = z.object({
  id: z.number(),
  level: z.string(),
  content: z.string(),
  created_at: z.string(),
  status: z.enum(['new', 'viewed', 'read']),
});
export const listClientAlerts = endpoint({
  method: 'GET',
  path: '/home/client/alert/list',
  summary: "The carrier's alerts",
  tag: 'home',
  access: CLIENT,
  query: listQuery,
  payload: paged(clientAlert),
});
export const invoiceSummary = z.object({
  invoice_id: z.number(),
  invoice_number: z.string(),
  invoice_date: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  amount: z.string(),
  paid_amount: z.string(),
  due_date: z.string(),
  currency: z.string(),
  status: z.string(),
  paid: z.boolean(),
});
export const listClientInvoices = endpoint({
  method: 'GET',
  path: '/home/client/invoice/list',
  summary: "The carrier's invoices (paid=false for unpaid)",
  tag: 'home',
  access: CLIENT,
  query: listQuery.extend({ paid: queryBool.optional() }),
  payload: paged(invoiceSummary),
});
export const agentClientBalance = z.object({
  client_id: z.number(),
  name: z.string(),
  balance: z.string(),
  currency: z.string(),
  is_active: z.boolean(),
  credit_limit: z.string(),
});
export const agentClientBalances = endpoint({
  method: 'GET',
  path: '/home/agent/client_balances',
  summary: "Balances of the agent's clients",
  tag: 'home',
  access: { kind: 'session', types: ['agent'] },
  payload: paged(agentClientBalance),
});
export const adminHome = endpoint({
  method: 'GET',
  path: '/home/admin',
  summary: 'Counts for the admin home',
  tag: 'home',
  access: adminOnly('/statistics/dashboard', 'read'),
  payload: z.object({
    users: z.number(),
    clients: z.number(),
    vendors: z.number(),
    agents: z.number(),
    waiting_tickets: z.number(),
    signins_today: z.number(),
    failed_signins_today: z.number(),
    total_balance: z.string(),
  }),
});
export const signedIn = SIGNED_IN;
