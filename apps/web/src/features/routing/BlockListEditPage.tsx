import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { z } from 'zod';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { useTrunkOptions } from './shared';
import './i18n';

/** 0 in the trunk select means global. */
const global = (v: unknown) =>
  typeof v === 'object' && v !== null && (v as Record<string, unknown>).trunk_id === 0
    ? { ...v, trunk_id: null }
    : v;

/** Routing > Block List > New / Edit. */
export default function BlockListEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const trunks = useTrunkOptions();
  const resource = useMemo(() => {
    const base = crudFormResource(api.routing.blockList, {
      key: 'block-entry',
      titleNew: 'routing.newBlock',
      titleEdit: 'routing.editBlock',
      listPath: '/routing/block_list',
      initial: { field: 'dnis', match: 'prefix', number: '', trunk_id: 0, note: '' },
      fromRow: (r) => ({
        field: r.field as string,
        match: r.match as string,
        number: r.number as string,
        trunk_id: (r.trunk_id as number | null) ?? 0,
        note: r.note as string,
      }),
      tabs: [
        {
          key: 'general',
          title: 'routing.general',
          fields: [
            {
              name: 'field',
              label: 'routing.blockField',
              kind: 'select',
              options: [
                { value: 'ani', label: 'ANI' },
                { value: 'dnis', label: 'DNIS' },
              ],
            },
            {
              name: 'match',
              label: 'routing.match',
              kind: 'select',
              options: api.routing.BLOCK_MATCHES.map((v) => ({ value: v, label: t(`routing.matches.${v}`) })),
            },
            { name: 'number', label: 'routing.number', kind: 'text', required: true },
            {
              name: 'trunk_id',
              label: 'routing.scope',
              kind: 'select',
              options: [{ value: 0, label: t('routing.globalAll') }, ...trunks.options],
              help: 'routing.scopeHelp',
            },
            { name: 'note', label: 'routing.note', kind: 'text' },
          ],
        },
      ],
    });
    return {
      ...base,
      createSchema: z.preprocess(global, api.routing.blockList.create.body!),
      updateSchema: z.preprocess(global, api.routing.blockList.updateBody),
    };
  }, [t, trunks.options]);
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
