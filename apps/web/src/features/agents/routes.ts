import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const agents = lazy(() => import('./AgentsPage'));
const agentEdit = lazy(() => import('./AgentEditPage'));
const agentClients = lazy(() => import('./AgentClientsPage'));
const report = lazy(() => import('./CommissionReportPage'));
const history = lazy(() => import('./CommissionHistoryPage'));
const payout = lazy(() => import('./PayoutPage'));
const portalClients = lazy(() => import('./PortalClientsPage'));
const portalClientEdit = lazy(() => import('./PortalClientEditPage'));
const billing = (name: 'PortalInvoicesPage' | 'PortalPaymentsPage' | 'PortalTransactionsPage') =>
  lazy(() => import('./PortalBillingPages').then((m) => ({ default: m[name] })));
const portalProducts = lazy(() =>
  import('./PortalProductsPages').then((m) => ({ default: m.PortalProductsPage })),
);
const portalRates = lazy(() => import('./PortalProductsPages').then((m) => ({ default: m.PortalRatesPage })));

/**
 * Agent area (docs/agents.md): the admin's Agent menu and the agent portal's own pages (its traffic
 * report is the summary report, declared with the statistics routes).
 */
export const agentRoutes: RouteDef[] = [
  { path: '/agent/agent_management', title: 'agents.agents', page: agents },
  { path: '/agent/agent_management/new', title: 'agents.newAgent', page: agentEdit },
  { path: '/agent/agent_management/new/one', title: 'agents.newAgent', page: agentEdit },
  { path: '/agent/agent_management/edit/:id', title: 'agents.editAgent', page: agentEdit },
  { path: '/agent/agent_management/:id', title: 'agents.manageClients', page: agentClients },
  { path: '/agent/agent_manage_clients/:name/:id', title: 'agents.manageClients', page: agentClients },
  { path: '/agent/commission_report', title: 'agents.commissionReport', page: report },
  { path: '/agent/commission_history', title: 'agents.commissionHistory', page: history },
  { path: '/agent/commission_history/new_payout_record', title: 'agents.newPayout', page: payout },
  { path: '/agents/client/client_list', title: 'agents.clientList', page: portalClients },
  { path: '/agents/client/edit/:id', title: 'agents.editClient', page: portalClientEdit },
  { path: '/agents/statistics/commission_history', title: 'agents.commissionHistory', page: history },
  {
    path: '/agents/client/client_invoice',
    title: 'agents.clientInvoice',
    page: billing('PortalInvoicesPage'),
  },
  {
    path: '/agents/client/client_payment',
    title: 'agents.clientPayment',
    page: billing('PortalPaymentsPage'),
  },
  {
    path: '/agents/client/client_payment/:client_name/:client_id',
    title: 'agents.clientPayment',
    page: billing('PortalPaymentsPage'),
  },
  {
    path: '/agents/client/client_transaction',
    title: 'agents.clientTransaction',
    page: billing('PortalTransactionsPage'),
  },
  { path: '/agents/management/products', title: 'agents.products', page: portalProducts },
  {
    path: '/agents/management/products/view_rates/:rate_table_name/:rate_table_id',
    title: 'agents.viewRates',
    page: portalRates,
  },
  // the client portal's products (those its carrier may buy) and their rates, by product (spec 02)
  { path: '/clients/management/products', title: 'agents.products', page: portalProducts },
  { path: '/clients/termination/view_rates/:product_id', title: 'agents.viewRates', page: portalRates },
];
