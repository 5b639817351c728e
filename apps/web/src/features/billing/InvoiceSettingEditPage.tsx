import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

/** Configuration > Invoice Setting > new / edit, with its tabs; the carriers using it on their own page. */
export default function InvoiceSettingEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const opts = <K extends string>(keys: readonly K[], base: string) =>
    keys.map((k) => ({ value: k, label: t(`${base}.${k}`) }));
  const resource = crudFormResource(api.billing.invoiceSetting, {
    key: 'invoice-setting',
    titleNew: 'billing.newInvoiceSetting',
    titleEdit: 'billing.editInvoiceSetting',
    listPath: '/configuration/invoice_setting',
    initial: {
      name: '',
      logo: '',
      decimal_places: 2,
      invoice_delivery: 'attachment',
      cdr_delivery: 'attachment',
      overlap_protection: true,
      billing_info: '',
      billing_info_position: 'top',
      company_info: '',
      company_info_position: 'top',
      tax_percent: '0',
      link_days: 30,
      is_default: false,
    },
    tabs: [
      {
        key: 'general',
        title: 'billing.general',
        fields: [
          { name: 'name', label: 'billing.name', kind: 'text', required: true },
          { name: 'logo', label: 'billing.logo', kind: 'image' },
          { name: 'decimal_places', label: 'billing.decimalPlaces', kind: 'number' },
          { name: 'tax_percent', label: 'billing.taxPercent', kind: 'text' },
          { name: 'overlap_protection', label: 'billing.overlapProtection', kind: 'switch' },
          { name: 'is_default', label: 'billing.isDefault', kind: 'switch' },
        ],
      },
      {
        key: 'delivery',
        title: 'billing.delivery',
        fields: [
          {
            name: 'invoice_delivery',
            label: 'billing.invoiceDelivery',
            kind: 'select',
            options: opts(['attachment', 'link'], 'billing.deliveries'),
          },
          {
            name: 'cdr_delivery',
            label: 'billing.cdrDelivery',
            kind: 'select',
            options: opts(['attachment', 'link'], 'billing.deliveries'),
          },
          { name: 'link_days', label: 'billing.linkDays', kind: 'number' },
        ],
      },
      {
        key: 'texts',
        title: 'billing.texts',
        fields: [
          { name: 'company_info', label: 'billing.companyInfo', kind: 'textarea' },
          {
            name: 'company_info_position',
            label: 'billing.position',
            kind: 'select',
            options: opts(['top', 'bottom'], 'billing.positions'),
          },
          { name: 'billing_info', label: 'billing.billingInfo', kind: 'textarea' },
          {
            name: 'billing_info_position',
            label: 'billing.position',
            kind: 'select',
            options: opts(['top', 'bottom'], 'billing.positions'),
          },
        ],
      },
    ],
  });
  return (
    <>
      <ResourceForm resource={resource} id={id ? Number(id) : null} />
      {id && (
        <Link to={`/configuration/invoice_setting/${id}/carriers/all`}>{t('billing.assignCarriers')}</Link>
      )}
    </>
  );
}
