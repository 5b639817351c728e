import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { Spinner } from '../../components/Spinner';
import './i18n';

/** /configuration/trunk_group/new/{type} and edit/{type}/{id}: a name, inbound or outbound, and member trunks of that type. */
export default function TrunkGroupEditPage() {
  const { t } = useTranslation();
  const { id, type } = useParams();
  const direction = type === 'egress' ? 'egress' : 'ingress';
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  const resource = useMemo(
    () =>
      crudFormResource(api.trunks.trunkGroup, {
        key: 'trunk-group',
        titleNew: 'trunks.newGroup',
        titleEdit: 'trunks.editGroup',
        listPath: '/configuration/trunk_group',
        initial: { group_name: '', trunk_type: direction, trunk_ids: [] },
        tabs: [
          {
            key: 'basic',
            title: 'trunks.tabs.basic',
            fields: [
              { name: 'group_name', label: 'trunks.groupName', kind: 'text', required: true },
              {
                name: 'trunk_type',
                label: 'trunks.type',
                kind: 'select',
                options: api.trunks.DIRECTIONS.map((d) => ({ value: d, label: t(`trunks.groupTypes.${d}`) })),
              },
              {
                name: 'trunk_ids',
                label: 'trunks.members',
                kind: 'multiselect',
                options: (lk.data?.trunks ?? []).map((tr) => ({
                  value: tr.id,
                  label: `${tr.name} (${t(`trunks.directions.${tr.direction}`)})`,
                })),
              },
            ],
          },
        ],
      }),
    [t, lk.data, direction],
  );
  if (lk.isLoading) return <Spinner />;
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
