import type { ClientPanel } from '@tandem/contract';
import type { TopEntry } from './TopMenu';

type T = (key: string) => string;

/**
 * The client and vendor top bar (spec 01 section 2): billing only for clients, gated by the panel
 * flags; a company-type menu; rate export log only when the export log has rows; reports.
 */
export function clientMenuEntries(client: ClientPanel, exportLogCount: number, t: T): TopEntry[] {
  const vendor = client.client_type === 'vendor';
  const termination = client.company_type === 'termination';
  const when = <X>(cond: boolean, x: X): X[] => (cond ? [x] : []);
  return [
    { key: 'dashboard', label: t('menu.dashboard'), to: '/clients/management/analytics_dashboard' },
    ...when(!vendor, {
      key: 'billing',
      label: t('menu.billing'),
      children: [
        ...when(client.is_panel_accountsummary, {
          key: 'account_summary',
          label: t('menu.accountSummary'),
          to: '/clients/billing/account_summary',
        }),
        ...when(client.is_panel_paymenthistory, {
          key: 'payment',
          label: t('menu.payment'),
          to: '/clients/billing/payment',
        }),
        ...when(client.is_panel_invoices, {
          key: 'invoices',
          label: t('menu.invoices'),
          to: '/clients/billing/invoices',
        }),
        ...when(client.is_panel_paymenthistory, {
          key: 'transaction',
          label: t('menu.transaction'),
          to: '/clients/billing/transaction',
        }),
        ...when(client.is_panel_onlinepayment, {
          key: 'online_payment',
          label: t('menu.onlinePayment'),
          to: '/clients/billing/online_payment',
        }),
      ],
    }),
    {
      key: 'company',
      label: termination ? t('menu.termination') : t('menu.origination'),
      children: [
        ...when(client.is_panel_trunks, {
          key: 'my_ip_address',
          label: termination ? t('menu.trunks') : t('menu.myIpAddress'),
          to: '/clients/termination/my_ip_address',
        }),
        ...when(!termination && client.is_panel_didrequest, {
          key: 'buy_did',
          label: t('menu.buyDid'),
          to: '/clients/origination/buy_did',
        }),
        ...when(!termination && client.is_panel_mydid, {
          key: 'my_did',
          label: t('menu.myDid'),
          to: '/clients/origination/my_did',
        }),
        ...when(!termination && !vendor && client.is_panel_didrequest, {
          key: 'port_did',
          label: t('menu.portDid'),
          to: '/clients/origination/port_did',
        }),
        ...when(!termination && client.is_panel_trunks, {
          key: 'did_trunks',
          label: t('menu.didTrunks'),
          to: '/clients/origination/trunks',
        }),
        ...when(!termination && client.is_panel_cdrslist, {
          key: 'did_cdr',
          label: t('menu.didCdr'),
          to: '/clients/origination/cdr',
        }),
        ...when(!termination && client.is_panel_summaryreport, {
          key: 'did_report',
          label: t('menu.didReport'),
          to: '/clients/origination/report',
        }),
        ...when(termination && client.is_panel_block_list, {
          key: 'block_list',
          label: t('menu.blockList'),
          to: '/clients/termination/block_list',
        }),
        ...when(exportLogCount > 0, {
          key: 'rate_export_log',
          label: t('menu.rateExportLog'),
          to: '/clients/termination/rate_export_log',
        }),
      ],
    },
    ...when(!vendor && client.is_panel_products, {
      key: 'products',
      label: t('menu.products'),
      to: '/clients/management/products',
    }),
    {
      key: 'reports',
      label: t('menu.reports'),
      children: [
        ...when(termination, {
          key: 'disconnection_cause_report',
          label: t('menu.disconnectionCause'),
          to: '/clients/termination/disconnection_cause_report',
        }),
        ...when(client.is_panel_cdrslist, {
          key: 'cdr_termination',
          label: t('menu.cdrTermination'),
          to: '/clients/termination/cdr_termination',
        }),
        ...when(client.is_panel_summaryreport, {
          key: 'report',
          label: t('menu.report'),
          to: '/clients/termination/report',
        }),
      ],
    },
  ];
}

/** The agent's fixed top bar. */
export function agentMenuEntries(t: T): TopEntry[] {
  return [
    { key: 'dashboard', label: t('menu.dashboard'), to: '/agents/management/agent_dashboard' },
    {
      key: 'clients',
      label: t('menu.clients'),
      children: [
        { key: 'client_list', label: t('menu.clientList'), to: '/agents/client/client_list' },
        { key: 'client_invoice', label: t('menu.clientInvoice'), to: '/agents/client/client_invoice' },
        { key: 'client_payment', label: t('menu.clientPayment'), to: '/agents/client/client_payment' },
      ],
    },
    { key: 'products', label: t('menu.products'), to: '/agents/management/products' },
    {
      key: 'statistics',
      label: t('menu.statistics'),
      children: [
        { key: 'traffic_report', label: t('menu.summaryReport'), to: '/agents/statistics/traffic_report' },
        { key: 'cdrs_search', label: t('menu.cdrsSearch'), to: '/agents/statistics/cdrs_search' },
        {
          key: 'commission_history',
          label: t('menu.commissionHistory'),
          to: '/agents/statistics/commission_history',
        },
      ],
    },
  ];
}

/** The referral link: origin + /#/signup/index/{key}; only the first 10 characters of the key are displayed. */
export function referralLink(origin: string, key: string): { href: string; display: string } {
  return { href: `${origin}/#/signup/index/${key}`, display: `${origin}/#/signup/index/${key.slice(0, 10)}` };
}

const FULL_PANEL = (company_type: ClientPanel['company_type']): ClientPanel => ({
  client_id: 0,
  name: '',
  client_type: 'client',
  company_type,
  is_panel_accountsummary: true,
  is_panel_paymenthistory: true,
  is_panel_invoices: true,
  is_panel_balance: true,
  is_panel_onlinepayment: true,
  is_panel_trunks: true,
  enable_trunk_view: true,
  is_panel_didrequest: true,
  is_panel_mydid: true,
  is_panel_products: true,
  is_panel_cdrslist: true,
  is_panel_summaryreport: true,
  is_panel_block_list: true,
  ticket_menu: 'true',
});

/**
 * The i18n key of a portal page's menu entry (client, vendor or agent), from the menus above, or
 * null when no portal menu names the path.
 */
export function portalPageLabelKey(path: string): string | null {
  const key = (k: string) => k;
  const all = [
    ...clientMenuEntries(FULL_PANEL('termination'), 1, key),
    ...clientMenuEntries(FULL_PANEL('origination'), 1, key),
    ...agentMenuEntries(key),
  ].flatMap((e) => [e, ...(e.children ?? [])]);
  return all.find((e) => e.to === path)?.label ?? null;
}
