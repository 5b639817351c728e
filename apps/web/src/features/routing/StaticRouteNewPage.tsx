import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

/** Routing > Static Routing > New: name, defined by code / code name / country, routed by DNIS or LRN. */
export default function StaticRouteNewPage() {
  const { t } = useTranslation();
  const resource = crudFormResource(api.routing.staticRoute, {
    key: 'static-route',
    titleNew: 'routing.newStatic',
    titleEdit: 'routing.editStatic',
    listPath: '/routing/static_routing',
    initial: { name: '', defined_by: 'code', route_by: 'dnis' },
    tabs: [
      {
        key: 'general',
        title: 'routing.general',
        fields: [
          { name: 'name', label: 'routing.name', kind: 'text', required: true },
          {
            name: 'defined_by',
            label: 'routing.definedBy',
            kind: 'select',
            options: api.routing.DEFINED_BY.map((v) => ({
              value: v,
              label: t(`routing.definedByValues.${v}`),
            })),
          },
          {
            name: 'route_by',
            label: 'routing.routeBy',
            kind: 'select',
            options: api.routing.ROUTE_BY.map((v) => ({ value: v, label: v.toUpperCase() })),
          },
        ],
      },
    ],
  });
  return <ResourceForm resource={resource} id={null} />;
}
