import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

/** Routing > STIOCN Block List > New / Edit. */
export default function OcnEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const resource = useMemo(
    () =>
      crudFormResource(api.routingExtras.ocnBlock, {
        key: 'stiocn',
        titleNew: 'routingx.newOcn',
        titleEdit: 'routingx.editOcn',
        listPath: '/routing/STIOCN_Block_List',
        initial: { kind: 'ocn', value: '', note: '' },
        tabs: [
          {
            key: 'general',
            title: 'routingx.ocnList',
            fields: [
              {
                name: 'kind',
                label: 'routingx.kind',
                kind: 'select',
                options: api.routingExtras.OCN_KINDS.map((k) => ({
                  value: k,
                  label: t(`routingx.kinds.${k}`),
                })),
              },
              {
                name: 'value',
                label: 'routingx.value',
                kind: 'text',
                required: true,
                help: 'routingx.valueHelp',
              },
              { name: 'note', label: 'routingx.note', kind: 'text' },
            ],
          },
        ],
      }),
    [t],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
