import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { Spinner } from '../../components/Spinner';
import { carrierTabs } from './carrierForm';
import '../configuration/i18n';
import './i18n';

/** Templates > Carrier Template new and edit: the commercial settings a new carrier starts from. */
export default function CarrierTemplateEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  const resource = useMemo(
    () =>
      crudFormResource(api.carriers.carrierTemplate, {
        key: 'carrier-template',
        titleNew: 'carriers.newCarrierTemplate',
        titleEdit: 'carriers.editCarrierTemplate',
        listPath: '/template/carrier_template',
        initial: { name: '', mode: 'prepaid' },
        tabs: carrierTabs(t, lk.data, { clientType: 'client', template: true }),
      }),
    [t, lk.data],
  );
  if (lk.isLoading) return <Spinner />;
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
