import { api } from '@tandem/contract';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.infer<typeof api.rateDelivery.rateEmailTemplateRow>;

const resource = crudListResource<Row>(api.rateDelivery.rateEmailTemplate, {
  key: 'rate-email-templates',
  title: 'rateDelivery.templates',
  rowKey: 'id',
  route: '/template/rate_email_template',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'rateDelivery.name', sortable: true },
    {
      key: 'download_method',
      title: 'rateDelivery.downloadMethod',
      sortable: true,
      render: (r, t) => t(`rateDelivery.downloadMethods.${r.download_method}`),
    },
    { key: 'from_email', title: 'rateDelivery.from', sortable: true },
    { key: 'cc', title: 'rateDelivery.cc', render: (r) => r.cc.join(', '), csv: (r) => r.cc.join('; ') },
    { key: 'subject', title: 'rateDelivery.subject' },
    { key: 'file_format', title: 'rateDelivery.fileFormat', render: (r) => r.file_format.toUpperCase() },
    { key: 'usage_count', title: 'rateDelivery.usageCount' },
    {
      key: 'updated_at',
      title: 'rateDelivery.updated',
      sortable: true,
      render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
    },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
  defaultSort: { by: 'name', dir: 'asc' },
});

/** Template > Rate Email Template. */
export default function RateEmailTemplatesPage() {
  return <ResourceList resource={resource} />;
}
