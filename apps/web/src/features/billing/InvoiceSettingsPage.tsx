import { api, type InvoiceSettingRow } from '@tandem/contract';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

const resource = crudListResource<InvoiceSettingRow>(api.billing.invoiceSetting, {
  key: 'invoice-settings',
  title: 'billing.invoiceSettings',
  rowKey: 'invoice_setting_id',
  route: '/configuration/invoice_setting',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'billing.name', sortable: true },
    { key: 'decimal_places', title: 'billing.decimalPlaces' },
    {
      key: 'invoice_delivery',
      title: 'billing.invoiceDelivery',
      render: (r, t) => t(`billing.deliveries.${r.invoice_delivery}`),
    },
    {
      key: 'cdr_delivery',
      title: 'billing.cdrDelivery',
      render: (r, t) => t(`billing.deliveries.${r.cdr_delivery}`),
    },
    { key: 'tax_percent', title: 'billing.taxPercent' },
    {
      key: 'overlap_protection',
      title: 'billing.overlapProtection',
      render: (r, t) => (r.overlap_protection ? '✓' : t('billing.stopped')),
    },
    { key: 'is_default', title: 'billing.isDefault', render: (r) => (r.is_default ? '✓' : '') },
    { key: 'carrier_count', title: 'billing.carrierCount' },
    {
      key: 'updated_at',
      title: 'billing.updated',
      sortable: true,
      render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
    },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
});

/** Configuration > Invoice Setting: how invoices look and travel; one is the default. */
export default function InvoiceSettingsPage() {
  return <ResourceList resource={resource} />;
}
