import { api, type PayloadOf } from '@tandem/contract';
import type { FieldSpec, FormTab } from '../../components/resource/ResourceForm';

export type Lookups = PayloadOf<typeof api.trunks.lookups>;
type T = (k: string) => string;
const { NOTIFICATIONS, CLIENT_PANELS, TIME_ZONES, timeZoneLabel } = api.carriers;

const opts = (t: T, prefix: string, values: readonly string[]) =>
  values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
const sw = (name: string, label: string): FieldSpec => ({ name, label, kind: 'switch' });

/**
 * The carrier edit sections of spec 02 as form tabs. `template`: only the commercial settings (a
 * carrier template presets them); `clientType` picks client or vendor portal permissions.
 */
export function carrierTabs(
  t: T,
  lk: Lookups | undefined,
  o: { clientType: 'client' | 'vendor'; template?: boolean; editing?: boolean },
): FormTab[] {
  const terms = (lk?.payment_terms ?? []).map((p) => ({ value: p.id, label: p.name }));
  const agents = (lk?.agents ?? []).map((a) => ({ value: a.id, label: a.name }));
  const basic: FormTab = {
    key: 'basic',
    title: 'carriers.tabs.basic',
    fields: [
      { name: 'name', label: 'carriers.name', kind: 'text', required: true },
      { name: 'company', label: 'carriers.company', kind: 'text', required: true },
      {
        name: 'client_type',
        label: 'carriers.clientType',
        kind: 'select',
        options: opts(t, 'carriers.types', ['client', 'vendor']),
      },
      {
        name: 'company_type',
        label: 'carriers.companyType',
        kind: 'select',
        options: opts(t, 'carriers.companyTypes', ['termination', 'origination']),
      },
      { name: 'agent_id', label: 'carriers.agent', kind: 'select', options: agents },
      sw('is_active', 'common.active'),
    ],
  };
  const contact: FormTab = {
    key: 'contact',
    title: 'carriers.tabs.contact',
    fields: [
      { name: 'main_email', label: 'carriers.mainEmail', kind: 'email', required: true },
      { name: 'noc_email', label: 'carriers.nocEmail', kind: 'email' },
      { name: 'billing_email', label: 'carriers.billingEmail', kind: 'email' },
      { name: 'rates_email', label: 'carriers.ratesEmail', kind: 'email' },
      { name: 'address', label: 'carriers.address', kind: 'textarea' },
      { name: 'tax_id', label: 'carriers.taxId', kind: 'text' },
    ],
  };
  const billing: FormTab = {
    key: 'billing',
    title: 'carriers.tabs.billing',
    fields: [
      {
        name: 'mode',
        label: 'carriers.mode',
        kind: 'select',
        options: opts(t, 'carriers.modes', ['prepaid', 'postpaid']),
      },
      {
        name: 'credit_limit',
        label: 'carriers.creditLimit',
        kind: 'text',
        visible: (v) => v.mode === 'postpaid',
      },
      {
        name: 'allowed_credit',
        label: 'carriers.allowedCredit',
        kind: 'text',
        visible: (v) => v.mode !== 'postpaid',
      },
      { name: 'test_credit', label: 'carriers.testCredit', kind: 'text' },
      sw('unlimited_credit', 'carriers.unlimitedCredit'),
      { name: 'currency', label: 'carriers.currency', kind: 'text' },
      { name: 'payment_term_id', label: 'carriers.paymentTerm', kind: 'select', options: terms },
      { name: 'min_profitability', label: 'carriers.minProfitability', kind: 'text' },
      { name: 'short_call_charge', label: 'carriers.shortCallCharge', kind: 'text' },
      {
        name: 'time_zone',
        label: 'carriers.timeZone',
        kind: 'select',
        options: TIME_ZONES.map((z) => ({ value: z, label: timeZoneLabel(z) })),
      },
    ],
  };
  const limits: FormTab = {
    key: 'limits',
    title: 'carriers.tabs.limits',
    fields: [
      { name: 'call_limit', label: 'carriers.callLimit', kind: 'number' },
      { name: 'cps_limit', label: 'carriers.cpsLimit', kind: 'number' },
      { name: 'port_limit', label: 'carriers.portLimit', kind: 'number' },
      sw('enable_origination', 'carriers.enableOrigination'),
    ],
  };
  const notifications: FormTab = {
    key: 'notifications',
    title: 'carriers.tabs.notifications',
    fields: [
      ...NOTIFICATIONS.map((n) => sw(`notify_${n}`, `carriers.notify.${n}`)),
      {
        name: 'low_balance_threshold',
        label: 'carriers.lowBalanceThreshold',
        kind: 'text',
        visible: (v) => Boolean(v.notify_low_balance),
      },
    ],
  };
  const invoice: FormTab = {
    key: 'invoice',
    title: 'carriers.tabs.invoice',
    fields: [
      sw('automatic_report', 'carriers.automaticReport'),
      sw('auto_invoice', 'carriers.autoInvoice'),
      {
        name: 'invoice_format',
        label: 'carriers.invoiceFormat',
        kind: 'select',
        options: opts(t, 'carriers.formats', ['pdf', 'excel', 'html']),
      },
      { name: 'rate_decimal_places', label: 'carriers.rateDecimalPlaces', kind: 'number' },
      { name: 'generate_at', label: 'carriers.generateAt', kind: 'number' },
      sw('non_zero_invoices_only', 'carriers.nonZeroOnly'),
      sw('invoice_include_tax', 'carriers.includeTax'),
      sw('invoice_attach_cdr', 'carriers.attachCdr'),
      sw('invoice_include_summary', 'carriers.includeSummary'),
    ],
  };
  const permissions: FormTab = {
    key: 'permissions',
    title: 'carriers.tabs.permissions',
    fields:
      o.clientType === 'vendor'
        ? [
            {
              name: 'vendor_trunk_access',
              label: 'carriers.vendorTrunkAccess',
              kind: 'select',
              options: opts(t, 'carriers.access', ['none', 'read', 'edit']),
            },
            sw('vendor_block_list', 'carriers.vendorBlockList'),
            sw('vendor_cdrs', 'carriers.vendorCdrs'),
            sw('vendor_summary_report', 'carriers.vendorSummaryReport'),
          ]
        : CLIENT_PANELS.map((p) => sw(p, `carriers.panels.${p}`)),
  };
  if (o.template)
    return [
      {
        ...billing,
        fields: [
          { name: 'name', label: 'configuration.name', kind: 'text', required: true },
          ...billing.fields,
        ],
      },
      limits,
      notifications,
      invoice,
      permissions,
    ];
  const portal: FormTab = {
    key: 'portal',
    title: 'carriers.tabs.portal',
    fields: [
      { name: 'login_name', label: 'carriers.loginName', kind: 'text' },
      {
        name: 'passwd',
        label: 'carriers.password',
        kind: 'password',
        help: o.editing ? 'carriers.passwordKeep' : undefined,
      },
      { name: 'allowed_ips', label: 'carriers.allowedIps', kind: 'tags', help: 'carriers.allowedIpsHelp' },
    ],
  };
  return [basic, contact, billing, limits, notifications, invoice, portal, permissions];
}

/** The start of a new carrier's form: the contract's defaults. */
export const carrierDefaults = (clientType: 'client' | 'vendor') => {
  const d = api.carriers.carrierCreate
    .omit({ name: true, company: true, main_email: true, passwd: true })
    .parse({ client_type: clientType }) as Record<string, unknown>;
  return { ...d, name: '', company: '', main_email: '' };
};
