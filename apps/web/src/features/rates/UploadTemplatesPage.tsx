import { api } from '@tandem/contract';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.infer<typeof api.rates.uploadTemplateRow>;
const yes = (v: boolean, t: (k: string) => string) => (v ? t('common.yes') : t('common.no'));

const resource = crudListResource<Row>(api.rates.uploadTemplate, {
  key: 'rate-upload-templates',
  title: 'rates.uploadTemplates',
  rowKey: 'id',
  route: '/template/rate_upload_template',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'rates.name', sortable: true },
    {
      key: 'duplicate_mode',
      title: 'rates.duplicateMode',
      render: (r, t) => t(`rates.duplicateModes.${r.duplicate_mode}`),
    },
    { key: 'delete_existing', title: 'rates.deleteExisting', render: (r, t) => yes(r.delete_existing, t) },
    {
      key: 'end_date_option',
      title: 'rates.endDateOption',
      render: (r, t) => t(`rates.endDateOptions.${r.end_date_option}`),
    },
    { key: 'effective_date_format', title: 'rates.effectiveDateFormat' },
    { key: 'has_code_deck', title: 'rates.hasCodeDeck', render: (r, t) => yes(r.has_code_deck, t) },
    { key: 'default_effective_days', title: 'rates.defaultEffectiveDays' },
    { key: 'usage_count', title: 'rates.usageCount' },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
  defaultSort: { by: 'name', dir: 'asc' },
});

/** Template > Rate Upload Template. */
export default function UploadTemplatesPage() {
  return <ResourceList resource={resource} />;
}
