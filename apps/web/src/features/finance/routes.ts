import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const transactions = lazy(() => import('./ActualTransactionPage'));
const regenerate = lazy(() => import('./RegenerateBalancePage'));

/** Finance: the ledger (also the client portal's Billing > Transaction) and regenerate balance. */
export const financeRoutes: RouteDef[] = [
  { path: '/finance/actual_transaction', title: 'finance.actualTransaction', page: transactions },
  { path: '/clients/billing/transaction', title: 'finance.transaction', page: transactions },
  { path: '/finance/regenerate_balance', title: 'finance.regenerateBalance', page: regenerate },
];
