import { z } from 'zod';
import { adminOnly } from '../access';
import { instantFilter, listQuery, paged } from '../common';
import { signedAmount } from '../crud';
import { endpoint } from '../endpoint';
import { coercedInt4, int4 } from '../input-rules';

/**
 * Finance > Actual Transaction (the ledger: every change of a carrier's balance with the balance
 * before and after) and Finance > Regenerate Balance (each carrier's balance against its ledger's
 * sum; a fix sets the balance to the sum and records it). docs/cdr.md "Ledger and balances".
 */
const TAG = 'finance';
export const LEDGER_KINDS = [
  'opening',
  'usage',
  'payment',
  'adjustment',
  'rerate',
  'credit_note',
  'debit_note',
  'reset',
  'regenerate',
  'did_charge',
  'extra_charge',
] as const;
export const LEDGER_SIDES = ['customer', 'vendor'] as const;

export const ledgerRow = z.object({
  ledger_id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  created_at: z.string(),
  kind: z.enum(LEDGER_KINDS),
  side: z.string(),
  ref: z.string(),
  amount: z.string(),
  balance_before: z.string(),
  balance_after: z.string(),
  cdr_count: z.number(),
  note: z.string(),
  created_by: z.string(),
});
export type LedgerRow = z.output<typeof ledgerRow>;

export const transactionQuery = listQuery.extend({
  client_id: coercedInt4().positive().optional(),
  kind: z.enum(LEDGER_KINDS).optional(),
  side: z.enum(LEDGER_SIDES).optional(),
  /** Reference (CDR batch, rerate run...) prefix. */
  ref: z.string().trim().max(200).optional(),
  time_from: instantFilter.optional(),
  time_to: instantFilter.optional(),
});

export const transactionPage = paged(ledgerRow).extend({
  /** Over every row of the filter: sum of amounts, of credits (> 0) and debits (< 0). */
  totals: z.object({ amount: z.string(), credit: z.string(), debit: z.string() }),
});

export const listTransactions = endpoint({
  method: 'GET',
  path: '/finance/actual_transaction/list',
  summary:
    'The ledger, newest first by default (filters: carrier, kind, side, reference, time); a client user sees only its own carrier, an agent its clients',
  tag: TAG,
  access: adminOnly('/finance/actual_transaction', 'read', ['client', 'agent']),
  query: transactionQuery,
  payload: transactionPage,
});

export const balanceCheck = z.object({
  client_id: z.number(),
  name: z.string(),
  /** The balance on the carrier. */
  stored: z.string(),
  /** The sum of its ledger. */
  ledger: z.string(),
  /** ledger − stored. */
  difference: z.string(),
  ledger_rows: z.number(),
});
export type BalanceCheckRow = z.output<typeof balanceCheck>;

export const balanceQuery = listQuery.extend({
  client_id: coercedInt4().positive().optional(),
  mismatched_only: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
});

export const checkBalances = endpoint({
  method: 'GET',
  path: '/finance/regenerate_balance/list',
  summary: "Each carrier's stored balance against the sum of its ledger (mismatched only by default)",
  tag: TAG,
  access: adminOnly('/finance/regenerate_balance', 'read'),
  query: balanceQuery,
  payload: paged(balanceCheck),
});

export const regenerateBody = z
  .object({ client_ids: z.array(int4().positive()).max(10_000).default([]) })
  .strict();
export const regenerated = z.object({ regenerated: z.array(balanceCheck) });

export const regenerate = endpoint({
  method: 'POST',
  path: '/finance/regenerate_balance/regenerate',
  summary:
    "Set each listed carrier's balance (none listed: every carrier) to its ledger's sum, with a 'regenerate' ledger row naming the old balance; carriers already in agreement are left alone",
  tag: TAG,
  access: adminOnly('/finance/regenerate_balance', 'write'),
  body: regenerateBody,
  payload: regenerated,
});

// ---------------------------------------------------------------------------------------------
// Balance resets (Log > Reset Balance Log; the finance right "reset balance"; docs/billing.md)

export const RESET_STATES = ['pending', 'finished', 'cancelled'] as const;
export type ResetState = (typeof RESET_STATES)[number];

export const resetRow = z.object({
  reset_id: z.number(),
  client_id: z.number(),
  client_name: z.string(),
  /** The balance the carrier is set to. */
  balance: z.string(),
  /** When it is (or was) applied. */
  run_at: z.string(),
  state: z.enum(RESET_STATES),
  note: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  /** Set when applied: the balance before, the ledger row's amount (balance - before), its time. */
  balance_before: z.string().nullable(),
  amount: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Who cancelled it (cancelled only). */
  cancelled_by: z.string().nullable(),
});
export type ResetRow = z.output<typeof resetRow>;

export const resetQuery = listQuery.extend({
  client_id: coercedInt4().positive().optional(),
  state: z.enum(RESET_STATES).optional(),
});

export const listResets = endpoint({
  method: 'GET',
  path: '/log/reset_balance_log/list',
  summary:
    'Balance resets, newest first: pending (to be applied at their time), finished (with the balance before and the ledger amount) or cancelled',
  tag: TAG,
  access: adminOnly('/log/reset_balance_log', 'read'),
  query: resetQuery,
  payload: paged(resetRow),
});

export const resetBody = z
  .object({
    client_id: int4().positive(),
    /** The balance to set (may be negative: a postpaid customer that owes). */
    balance: signedAmount,
    /** When to apply it (UTC); absent or null: now. At most one year ahead. */
    run_at: instantFilter.nullable().optional(),
    note: z.string().trim().max(500).default(''),
  })
  .strict();

export const createReset = endpoint({
  method: 'POST',
  path: '/finance/reset_balance',
  summary:
    "Set a carrier's balance to a value, now or at a chosen time, by a durable job: one 'reset' ledger row of the difference (balance before to the value), applied once whatever retries (needs the finance right 'reset balance')",
  tag: TAG,
  access: adminOnly('/log/reset_balance_log', 'write'),
  body: resetBody,
  payload: resetRow,
});

export const cancelReset = endpoint({
  method: 'POST',
  path: '/finance/reset_balance/:id/cancel',
  summary: 'Cancel a pending balance reset (a finished one is history: a new reset corrects it)',
  tag: TAG,
  access: adminOnly('/log/reset_balance_log', 'write'),
  params: z.object({ id: coercedInt4().positive() }),
  payload: resetRow,
});
