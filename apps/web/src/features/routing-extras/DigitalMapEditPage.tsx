import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { useTrunkOptions } from '../routing/shared';
import './i18n';

/** Routing > Digital Maps > New / Edit: name, note and the ingress and egress trunks using the map. */
export default function DigitalMapEditPage() {
  const { id } = useParams();
  const ingress = useTrunkOptions('ingress');
  const egress = useTrunkOptions('egress');
  const resource = useMemo(
    () =>
      crudFormResource(api.routingExtras.digitalMap, {
        key: 'digital-map',
        titleNew: 'routingx.newMap',
        titleEdit: 'routingx.editMap',
        listPath: '/routing/digital_maps',
        initial: { name: '', note: '', trunk_ids: [] as number[] },
        fromRow: (r) => ({
          name: r.name as string,
          note: r.note as string,
          trunk_ids: (r.trunks as { trunk_id: number }[]).map((x) => x.trunk_id),
        }),
        tabs: [
          {
            key: 'general',
            title: 'routingx.digitalMaps',
            fields: [
              { name: 'name', label: 'routingx.name', kind: 'text', required: true },
              {
                name: 'trunk_ids',
                label: 'routingx.trunks',
                kind: 'multiselect',
                options: [
                  ...ingress.options.map((o) => ({ ...o, label: `${o.label} · ingress` })),
                  ...egress.options.map((o) => ({ ...o, label: `${o.label} · egress` })),
                ],
                help: 'routingx.trunksHelp',
              },
              { name: 'note', label: 'routingx.note', kind: 'textarea' },
            ],
          },
        ],
      }),
    [ingress.options, egress.options],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
