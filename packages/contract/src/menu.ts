/**
 * The admin module menu catalogue of spec 01 section 2. The server seeds `main_menu` and
 * `sys_submenu` from this list (so role privileges can reference rows by id), and returns it through
 * GET /config/sys_submenu/list; the web app builds the header menu from the server's answer and
 * applies the display renames below. The web_url of an item is also its permission key (func_name).
 */
export interface MenuItemDef {
  display_name: string;
  web_url: string;
  /** Statistics items: which column of the split dropdown. */
  sub?: 'termination' | 'origination';
}
export interface MenuModuleDef {
  id: number;
  group_name: string;
  items: MenuItemDef[];
}

const i = (display_name: string, web_url: string, sub?: MenuItemDef['sub']): MenuItemDef =>
  sub ? { display_name, web_url, sub } : { display_name, web_url };

export const MENU_MODULES: MenuModuleDef[] = [
  {
    id: 1,
    group_name: 'Configuration',
    items: [
      i('Archive Setting', '/configuration/archive_setting'),
      i('Payment Setting', '/configuration/payment_setting'),
      i('Carrier Portal CDR Fields', '/configuration/carrier_portal_cdr_fields'),
      i('Payment Term', '/configuration/payment_term'),
      i('Code Deck', '/configuration/code_deck'),
      i('Random ANI Group', '/configuration/random_ani_group'),
      i('DB Cleansing', '/configuration/auto_rotation_and_cleaning'),
      i('Roles', '/configuration/roles'),
      i('Default Failover Rule', '/configuration/default_failover_rule'),
      i('STIR/SHAKEN', '/configuration/stir_shaken'),
      i('System Setting', '/configuration/system_setting'),
      i('Global Route Error', '/configuration/default_error_response'),
      i('Time Profile', '/configuration/time_profile'),
      i('Invoice Setting', '/configuration/invoice_setting'),
      i('Trunk Group', '/configuration/trunk_group'),
      i('Login Pages Content', '/configuration/login_content'),
      i('US Jurisdiction', '/configuration/us_jurisdiction'),
      i('Mail Sender', '/configuration/email_sender'),
      i('Users', '/configuration/users'),
      i('Mail Template', '/configuration/mail_template'),
      i('Wizard Setting', '/configuration/wizard_setting'),
    ],
  },
  {
    id: 2,
    group_name: 'Finance',
    items: [
      i('Actual Transaction', '/finance/actual_transaction'),
      i('Auto Invoice Management', '/finance/auto_invoice_management'),
      i('Invoice', '/finance/invoice'),
      i('Payment', '/finance/payment'),
      i('Regenerate Balance', '/finance/regenerate_balance'),
      i('Extra Charge', '/finance/extra_charge'),
      i('Vendor Invoice', '/finance/vendor_invoice'),
      i('Carrier Invoice History', '/finance/carrier_invoice_history'),
      i('Mutual Transaction', '/finance/mutual_transaction'),
      i('Overall Mutual Balance', '/finance/overall_mutual_balance'),
    ],
  },
  {
    id: 3,
    group_name: 'Log',
    items: [
      i('Auto Payment Log', '/log/auto_payment_log'),
      i('Email Log', '/log/email_log'),
      i('Rate Delivery Log', '/log/rate_delivery_log'),
      i('Import Log', '/log/import_log'),
      i('DID Import Log', '/log/DID_import_log'),
      i('Block Import Log', '/log/block_import_log'),
      i('Modification Log', '/log/modification_log'),
      i('Rate Import Log', '/log/rate_import_log'),
      i('Rate Mass Edit Log', '/log/rate_mass_edit_log'),
      i('Retrieve Password Log', '/log/retrieve_password_log'),
      i('SIP Register', '/log/sip_register'),
      i('STIR/SHAKEN ANI Import', '/log/stir_Shaken_ANI_import'),
      i('User Sign-in History', '/log/user_signin_history'),
      i('Auto LERG Update Log', '/log/auto_LERG_update_log'),
      i('Reset Balance Log', '/log/reset_balance_log'),
      i('Export Log', '/log/export_log'),
      i('Invoice Log', '/log/invoice_log'),
      i('Scheduled Report Log', '/log/scheduled_report_log'),
      i('Scheduler Log', '/log/scheduler_log'),
    ],
  },
  {
    id: 4,
    group_name: 'Termination',
    items: [
      i('Client', '/termination/client'),
      i('Vendor', '/termination/vendor'),
      i('Credit Management', '/termination/credit_management'),
      i('Products', '/termination/products'),
      i('Wizard', '/termination/wizard'),
      i('Registration', '/termination/registration'),
      i('Unclaimed Trunks', '/termination/unclaimed_trunks'),
      i('Client Rate Summary', '/termination/client_rate_summary'),
      i('Rate Report', '/termination/rate_report'),
      i('Clients Export', '/termination/clients/export'),
    ],
  },
  {
    id: 5,
    group_name: 'Monitoring',
    items: [
      i('Fraud Detection', '/monitoring/fraud_detection'),
      i('Loop Detection', '/monitoring/loop_detection'),
      i('Media IP Blocking', '/monitoring/media_ip_blocking'),
      i('Rule', '/monitoring/rule'),
      i('Live Event', '/monitoring/live_event'),
    ],
  },
  {
    id: 6,
    group_name: 'DID',
    items: [
      i('Billing Rule', '/origination/billing_rule'),
      i('DID Product', '/origination/did_product'),
      i('Clients', '/origination/clients'),
      i('DID Repository', '/origination/did_repository'),
      i('DID Upload', '/origination/did_repository_upload'),
      i('DID Invoice', '/origination/did_invoice'),
      i('Vendors', '/origination/vendors'),
      i('Wizard', '/origination/wizard'),
      i('Actual Transaction', '/origination/actual_transaction'),
      i('Dashboard', '/origination/dashboard'),
      i('Profitability Report', '/origination/profitability_report'),
      i('DID Report', '/origination/did_report'),
      i('DID Usage Report', '/origination/did_usage_report'),
      i('CDRs List', '/origination/cdrs_list'),
      i('DID Cost Report', '/origination/did_cost_report'),
      i('Daily Archive Report', '/origination/daily_archive_report'),
      i('DID Routing', '/origination/did_routing'),
      i('Regenerate Balance', '/origination/regenerate_balance'),
      i('Tickets', '/origination/tickets'),
      i('Port Requests', '/origination/port_requests'),
    ],
  },
  {
    id: 7,
    group_name: 'Routing',
    items: [
      i('Block List', '/routing/block_list'),
      i('Rate Table', '/routing/rate_table'),
      i('Dynamic Routing', '/routing/dynamic_routing'),
      i('Routing Plan', '/routing/routing_plan'),
      i('Static Routing', '/routing/static_routing'),
      i('Trunks', '/routing/trunks'),
      i('Digital Maps', '/routing/digital_maps'),
      i('Inbound Media IP Blocking', '/routing/inbound_media_ip_blocking'),
      i('Wizard', '/routing/wizard'),
      i('STIOCN Block List', '/routing/STIOCN_Block_List'),
    ],
  },
  {
    id: 8,
    group_name: 'Statistics',
    items: [
      i('Dashboard', '/statistics/dashboard', 'termination'),
      i('Active Call Report', '/statistics/active_call_report', 'termination'),
      i('CDRs List', '/statistics/cdrs_list', 'termination'),
      i('Daily Channel Usage Report', '/statistics/daily_channel_usage_report', 'termination'),
      i('Daily Usage Detail Report', '/statistics/daily_usage_detail_report', 'termination'),
      i('Disconnect Causes', '/statistics/disconnect_causes', 'termination'),
      i('Host Based Report', '/statistics/host_based_report', 'termination'),
      i('Inbound/Outbound Report', '/statistics/inbound_outbound_report', 'termination'),
      i('Profitability Analysis', '/statistics/profitability_analysis', 'termination'),
      i('QoS Summary', '/statistics/qos_summary', 'termination'),
      i('Summary Report', '/statistics/summary_report', 'termination'),
      i('Usage Report', '/statistics/usage_report', 'termination'),
      i('Code Based Report', '/statistics/code_based_report', 'termination'),
      i('Fraud Report', '/statistics/fraud_report', 'termination'),
      i('Traffic Analytic', '/tools/traffic_analytic', 'termination'),
      i('Daily Archive Report', '/statistics/daily_archive_report', 'origination'),
      i('DID Report', '/origination/did_report', 'origination'),
      i('DID Usage Report', '/origination/did_usage_report', 'origination'),
      i('Profitability Report', '/origination/profitability_report', 'origination'),
    ],
  },
  {
    id: 9,
    group_name: 'Template',
    items: [
      i('Carrier Template', '/template/carrier_template'),
      i('Egress Trunk Template', '/template/egress_trunk_template'),
      i('Ingress Trunk Template', '/template/ingress_trunk_template'),
      i('Rate Email Template', '/template/rate_email_template'),
      i('Rate Upload Template', '/template/rate_upload_template'),
    ],
  },
  {
    id: 10,
    group_name: 'Agent',
    items: [
      i('Agent Management', '/agent/agent_management'),
      i('Commission Report', '/agent/commission_report'),
      i('Commission History', '/agent/commission_history'),
      i('Setting', '/agent/setting'),
    ],
  },
  {
    id: 11,
    group_name: 'Tools',
    items: [
      i('Call Simulation', '/tools/call_simulation'),
      i('Rate Generation', '/tools/rate_generation'),
      i('SIP Packet Search', '/tools/sip_packet_search'),
      i('Live Call', '/tools/live_call'),
      i('PCAP Archival', '/tools/pcap_archival'),
      i('CDR Archival', '/tools/cdr_archival'),
      i('Lawful Intercept', '/tools/lawful_intercept'),
      i('Auto Rate Import Rules', '/tools/auto_rate_import_rules'),
      i('Rerate', '/tools/rerate'),
      i('Auto Call Testing', '/tools/auto_call_testing'),
      i('Routing Analysis', '/tools/routing_analysis'),
      i('Number Analytic', '/tools/number_analytic'),
      i('STIR/SHAKEN Test', '/tools/stir_shaken_test'),
    ],
  },
];

/**
 * Backend function permissions that are not pages (spec 02 section 6, e.g. the Finance permission
 * "view cost and rate in reports"): granted in the role editor beside the pages, keyed by func_name.
 */
export interface FunctionPermissionDef {
  func_name: string;
  /** The main-menu group it is listed under in the role editor. */
  group_id: number;
  display_name: string;
}
export const FUNCTION_PERMISSIONS: readonly FunctionPermissionDef[] = [
  { func_name: 'finance:view_cost_and_rate', group_id: 2, display_name: 'View Cost and Rate in Reports' },
  // issue 12 (docs/billing.md): the finance rights of spec 02 section 6
  { func_name: 'finance:delete_invoice', group_id: 2, display_name: 'Delete Invoice' },
  { func_name: 'finance:delete_payment', group_id: 2, display_name: 'Delete Payment' },
  { func_name: 'finance:delete_note', group_id: 2, display_name: 'Delete Credit or Debit Note' },
  { func_name: 'finance:reset_balance', group_id: 2, display_name: 'Reset Balance' },
  // issue 11 (docs/statistics.md): without it, statistics show the carriers of the user's list only
  { func_name: 'statistics:view_all_carriers', group_id: 8, display_name: 'View All Carriers' },
];

/** Display renames the header applies to server names (spec 01 section 2). */
export function menuDisplayName(groupName: string, displayName: string): string {
  if (groupName === 'Termination' && displayName === 'Client') return 'Customer';
  if (groupName === 'DID' && displayName === 'Clients') return 'Customer';
  if (groupName === 'Monitoring' && displayName === 'Live Event') return 'Live Monitoring';
  if (displayName === 'Login Pages Content') return 'Login Page Content';
  return displayName;
}

/** Always hidden from the menu whatever the role says. */
export const ALWAYS_HIDDEN_URLS: readonly string[] = ['/tools/lawful_intercept'];

/** Groups with more entries than this are shown in columns. */
export const MENU_COLUMN_THRESHOLD = 14;

/** Paths an admin with a restricted role may always open (spec 01 section 4). */
export const ROLE_FREE_PATHS: readonly string[] = [
  '/logout',
  '/first_time_wizard',
  '/origination/tickets',
  '/my_profile',
  '/switch/capacity',
  '/switch/voip_gateway',
  '/license',
  '/server_admin',
];

const PAGE_ALIASES: readonly [string, string][] = [
  ['/termination/clients', '/termination/client'],
  ['/termination/vendors', '/termination/vendor'],
  ['/routing/egress_trunk', '/routing/trunks'],
  ['/routing/add_trunk', '/routing/trunks'],
];

/**
 * The permission key (func_name) that governs a portal path: the catalogue item whose web_url is
 * the longest prefix of the path. User and send-rate pages count as their parents.
 */
export function permissionKeyForPath(path: string): string | null {
  let p = path.split('?')[0] ?? path;
  if (
    p.startsWith('/configuration/user_management') ||
    p.startsWith('/configuration/carrier_user_management') ||
    p.startsWith('/configuration/system_user_management')
  ) {
    p = '/configuration/users';
  }
  if (p.startsWith('/template/send_rate') || p.startsWith('/send_rate')) p = '/routing/rate_table';
  const best = longestItemOf(p);
  if (best) return best;
  // Carrier and trunk pages outside their list's path (spec 02 section 2) count as the list.
  const alias = PAGE_ALIASES.find(([from]) => p === from || p.startsWith(from + '/'));
  return alias ? longestItemOf(alias[1]) : null;
}

function longestItemOf(p: string): string | null {
  let best: string | null = null;
  for (const m of MENU_MODULES) {
    for (const it of m.items) {
      if ((p === it.web_url || p.startsWith(it.web_url + '/')) && (!best || it.web_url.length > best.length))
        best = it.web_url;
    }
  }
  return best;
}

export function moduleOfUrl(url: string): MenuModuleDef | undefined {
  return MENU_MODULES.find((m) => m.items.some((it) => it.web_url === url));
}
