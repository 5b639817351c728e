import { api } from '@tandem/contract';
import { useLocation } from 'react-router-dom';
import { TemplatePicker } from './TemplatePicker';

/** /termination/clients/new_template and /termination/vendors/new_template. */
export default function CarrierFromTemplatePage() {
  const vendor = useLocation().pathname.startsWith('/termination/vendors');
  return (
    <TemplatePicker
      title="carriers.newFromTemplate"
      list={api.carriers.carrierTemplate.list}
      newPath={`/termination/clients/new/${vendor ? 'vendor' : 'client'}`}
      templatesPath="/template/carrier_template"
    />
  );
}
