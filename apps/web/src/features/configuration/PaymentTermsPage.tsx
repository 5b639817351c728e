import { api } from '@tandem/contract';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.infer<typeof api.configuration.paymentTermRow>;

const resource = crudListResource<Row>(api.configuration.paymentTerm, {
  key: 'payment-terms',
  title: 'configuration.paymentTerms',
  rowKey: 'payment_term_id',
  route: '/configuration/payment_term',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'configuration.name', sortable: true },
    {
      key: 'invoicing_cycle',
      title: 'configuration.invoicingCycle',
      sortable: true,
      render: (r, t) => t(`configuration.cycles.${r.invoicing_cycle}`),
    },
    { key: 'grace_days', title: 'configuration.graceDays' },
    { key: 'notify_days', title: 'configuration.notifyDays' },
    { key: 'usage_count', title: 'configuration.usage', sortable: true },
    {
      key: 'updated_at',
      title: 'configuration.updated',
      sortable: true,
      render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
    },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
});

export default function PaymentTermsPage() {
  return <ResourceList resource={resource} />;
}
