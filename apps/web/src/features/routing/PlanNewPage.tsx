import { api } from '@tandem/contract';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

/** Routing > Routing Plan > New: the name; prefix rows are added on the plan's details page. */
export default function PlanNewPage() {
  const resource = crudFormResource(api.routing.routingPlan, {
    key: 'routing-plan',
    titleNew: 'routing.newPlan',
    titleEdit: 'routing.editPlan',
    listPath: '/routing/routing_plan',
    initial: { name: '' },
    tabs: [
      {
        key: 'general',
        title: 'routing.general',
        fields: [{ name: 'name', label: 'routing.name', kind: 'text', required: true }],
      },
    ],
  });
  return <ResourceForm resource={resource} id={null} />;
}
