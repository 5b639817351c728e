import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import '../configuration/i18n';
import './i18n';

type Row = api.trunks.TrunkTemplateRow;

/** Templates > Ingress / Egress Trunk Template. */
export default function TrunkTemplatesPage() {
  const egress = useLocation().pathname.startsWith('/template/egress');
  const resource = useMemo(
    () =>
      crudListResource<Row>(egress ? api.trunks.egressTrunkTemplate : api.trunks.ingressTrunkTemplate, {
        key: egress ? 'egress-trunk-templates' : 'ingress-trunk-templates',
        title: egress ? 'trunks.egressTemplates' : 'trunks.ingressTemplates',
        rowKey: 'template_id',
        route: egress ? '/template/egress_trunk_template' : '/template/ingress_trunk_template',
        nameOf: (r) => r.name,
        defaultSort: { by: 'name', dir: 'asc' },
        columns: [
          { key: 'name', title: 'trunks.templateName', sortable: true },
          {
            key: 'media_type',
            title: 'trunks.mediaType',
            render: (r, t) => (r.media_type ? t(`trunks.mediaTypes.${r.media_type}`) : '—'),
          },
          { key: 'codecs', title: 'trunks.codecs', render: (r) => (r.codecs ?? []).join(', ') },
          { key: 'call_limit', title: 'trunks.callLimit' },
          {
            key: 'updated_at',
            title: 'configuration.updated',
            sortable: true,
            render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
          },
        ],
        filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
      }),
    [egress],
  );
  return <ResourceList key={String(egress)} resource={resource} />;
}
