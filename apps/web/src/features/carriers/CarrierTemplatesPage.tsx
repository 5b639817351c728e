import { api } from '@tandem/contract';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = api.carriers.CarrierTemplateRow;
const resource = crudListResource<Row>(api.carriers.carrierTemplate, {
  key: 'carrier-templates',
  title: 'carriers.carrierTemplates',
  rowKey: 'template_id',
  route: '/template/carrier_template',
  nameOf: (r) => r.name,
  defaultSort: { by: 'name', dir: 'asc' },
  columns: [
    { key: 'name', title: 'configuration.name', sortable: true },
    { key: 'mode', title: 'carriers.mode', render: (r, t) => (r.mode ? t(`carriers.modes.${r.mode}`) : '—') },
    { key: 'call_limit', title: 'carriers.callLimit' },
    { key: 'cps_limit', title: 'carriers.cpsLimit' },
    { key: 'min_profitability', title: 'carriers.minProfitability' },
    {
      key: 'updated_at',
      title: 'configuration.updated',
      sortable: true,
      render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
    },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
});

/** Templates > Carrier Template. */
export default function CarrierTemplatesPage() {
  return <ResourceList resource={resource} />;
}
