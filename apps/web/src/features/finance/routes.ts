import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const transactions = lazy(() => import('./ActualTransactionPage'));
const regenerate = lazy(() => import('./RegenerateBalancePage'));
const resets = lazy(() => import('./ResetBalanceLogPage'));

/** Finance: the ledger (also the client portal's Billing > Transaction), regenerate and reset balance. */
export const financeRoutes: RouteDef[] = [
  { path: '/finance/actual_transaction', title: 'finance.actualTransaction', page: transactions },
  { path: '/clients/billing/transaction', title: 'finance.transaction', page: transactions },
  { path: '/finance/regenerate_balance', title: 'finance.regenerateBalance', page: regenerate },
  { path: '/log/reset_balance_log', title: 'finance.resetBalanceLog', page: resets },
  // Origination's: the same pages over the DID clients and vendors (docs/did.md)
  { path: '/origination/actual_transaction', title: 'didx.transactions', page: transactions },
  { path: '/origination/regenerate_balance', title: 'didx.regenerate', page: regenerate },
];
