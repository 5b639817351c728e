import { api } from '@tandem/contract';
import { useParams } from 'react-router-dom';
import { TemplatePicker } from '../carriers/TemplatePicker';
import './i18n';

/** /routing/trunks/{type}/new_template: pick an ingress or egress trunk template, then the new-trunk form. */
export default function TrunkFromTemplatePage() {
  const type = useParams().type === 'egress' ? 'egress' : 'ingress';
  return (
    <TemplatePicker
      title="trunks.newFromTemplate"
      list={type === 'egress' ? api.trunks.egressTrunkTemplate.list : api.trunks.ingressTrunkTemplate.list}
      newPath={`/routing/trunks/${type}/new`}
      templatesPath={`/template/${type}_trunk_template`}
    />
  );
}
