import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

export default function PaymentTermEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const resource = crudFormResource(api.configuration.paymentTerm, {
    key: 'payment-term',
    titleNew: 'configuration.newPaymentTerm',
    titleEdit: 'configuration.editPaymentTerm',
    listPath: '/configuration/payment_term',
    initial: { name: '', invoicing_cycle: 'monthly', grace_days: 0, notify_days: 0 },
    tabs: [
      {
        key: 'general',
        title: 'configuration.general',
        fields: [
          { name: 'name', label: 'configuration.name', kind: 'text', required: true },
          {
            name: 'invoicing_cycle',
            label: 'configuration.invoicingCycle',
            kind: 'select',
            options: (['daily', 'weekly', 'monthly', 'yearly'] as const).map((c) => ({
              value: c,
              label: t(`configuration.cycles.${c}`),
            })),
          },
          { name: 'grace_days', label: 'configuration.graceDays', kind: 'number' },
          { name: 'notify_days', label: 'configuration.notifyDays', kind: 'number' },
        ],
      },
    ],
  });
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
