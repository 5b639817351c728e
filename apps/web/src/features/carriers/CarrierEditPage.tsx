import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { ResourceForm, type FormResource } from '../../components/resource/ResourceForm';
import { Spinner } from '../../components/Spinner';
import { carrierDefaults, carrierTabs } from './carrierForm';
import './i18n';

type Values = Record<string, unknown>;
const listOf = (type: unknown) => (type === 'vendor' ? '/termination/vendor' : '/termination/client');

/**
 * /termination/clients/new/{carrier_type} (optionally ?template={id}) and
 * /termination/clients/edit/{id}/{info_type}: every carrier edit section, the tab from the URL.
 */
export default function CarrierEditPage() {
  const { t } = useTranslation();
  const { id, infoType, carrierType } = useParams();
  const [sp] = useSearchParams();
  const carrierId = id ? Number(id) : null;
  const templateId = Number(sp.get('template')) || null;
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  const existing = useApi(
    api.carriers.carrier.get,
    { params: { id: carrierId ?? 0 } },
    { enabled: carrierId !== null },
  );
  const template = useApi(
    api.carriers.carrierTemplate.get,
    { params: { id: templateId ?? 0 } },
    { enabled: templateId !== null },
  );
  const clientType =
    (carrierId ? existing.data?.client_type : carrierType === 'vendor' ? 'vendor' : 'client') ?? 'client';

  const resource = useMemo<FormResource<Values>>(() => {
    const tabs = carrierTabs(t, lk.data, { clientType, editing: carrierId !== null });
    const fields = tabs.flatMap((tb) => tb.fields.map((f) => f.name));
    const initial = {
      ...carrierDefaults(clientType),
      ...(template.data ? api.carriers.carrierFromTemplate(template.data) : {}),
    };
    return {
      key: 'carrier',
      titleNew: clientType === 'vendor' ? 'carriers.newVendor' : 'carriers.newClient',
      titleEdit: 'carriers.editCarrier',
      listPath: listOf(clientType),
      tabs,
      initial,
      createSchema: api.carriers.carrier.create.body!,
      updateSchema: api.carriers.carrier.updateBody,
      load: async (cid) => {
        const row = (await call(api.carriers.carrier.get, { params: { id: cid } })) as unknown as Values;
        return Object.fromEntries(fields.filter((f) => f !== 'passwd').map((f) => [f, row[f]]));
      },
      create: (v) => call(api.carriers.carrier.create, { body: v as never }, { errorMode: 'inline' }),
      update: (cid, v) =>
        call(api.carriers.carrier.update, { params: { id: cid }, body: v as never }, { errorMode: 'inline' }),
    };
  }, [t, lk.data, clientType, carrierId, template.data]);

  if (lk.isLoading || (carrierId && existing.isLoading) || (templateId && template.isLoading))
    return <Spinner />;
  return (
    <ResourceForm
      key={`${clientType}-${templateId ?? ''}`}
      resource={resource}
      id={carrierId}
      initialTab={infoType}
    />
  );
}
