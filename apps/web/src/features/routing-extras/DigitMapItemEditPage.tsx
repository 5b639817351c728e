import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { z } from 'zod';
import { call } from '../../api/client';
import { ResourceForm, type FormResource } from '../../components/resource/ResourceForm';
import './i18n';

type Values = {
  field: string;
  match: string;
  pattern: string;
  action: string;
  strip_count: number | null;
  digits: string;
  position: number | null;
  note: string;
};
const x = api.routingExtras;

/** Only the inputs of the chosen action are sent (a hidden strip count or digits stays out). */
const forAction = (v: unknown) => {
  if (typeof v !== 'object' || v === null) return v;
  const r = v as Values;
  return {
    ...r,
    strip_count: r.action === 'strip' ? r.strip_count : null,
    digits: r.action === 'strip' ? '' : r.digits,
  };
};

/** Routing > Digital Maps > edit/{id}/{it}: one digit-mapping item of map {id} ({it} = 'new' for a new one). */
export default function DigitMapItemEditPage() {
  const { t } = useTranslation();
  const params = useParams();
  const mapId = Number(params.id);
  const itemId = params.it && params.it !== 'new' ? Number(params.it) : null;
  const resource = useMemo((): FormResource<Values> => {
    const schema = z.preprocess(forAction, x.digitMapItemBody);
    return {
      key: 'digit-map-item',
      titleNew: 'routingx.newItem',
      titleEdit: 'routingx.editItem',
      listPath: `/routing/digital_maps/digit_mapping_detail/${mapId}`,
      initial: {
        field: 'dnis',
        match: 'prefix',
        pattern: '',
        action: 'replace_prefix',
        strip_count: null,
        digits: '',
        position: null,
        note: '',
      },
      createSchema: schema,
      updateSchema: schema,
      load: async (id) => {
        const r = await call(x.getDigitMapItem, { params: { id: mapId, item_id: id } });
        return r as Values;
      },
      create: (v) =>
        call(x.createDigitMapItem, { params: { id: mapId }, body: v as never }, { errorMode: 'inline' }),
      update: (id, v) =>
        call(
          x.updateDigitMapItem,
          { params: { id: mapId, item_id: id }, body: v as never },
          { errorMode: 'inline' },
        ),
      tabs: [
        {
          key: 'general',
          title: 'routingx.items',
          fields: [
            {
              name: 'field',
              label: 'routingx.field',
              kind: 'select',
              options: x.DIGIT_MAP_FIELDS.map((f) => ({ value: f, label: f.toUpperCase() })),
            },
            {
              name: 'match',
              label: 'routingx.match',
              kind: 'select',
              options: x.DIGIT_MAP_MATCHES.map((m) => ({ value: m, label: t(`routingx.matches.${m}`) })),
            },
            { name: 'pattern', label: 'routingx.pattern', kind: 'text', help: 'routingx.patternHelp' },
            {
              name: 'action',
              label: 'routingx.action',
              kind: 'select',
              options: x.DIGIT_MAP_ACTIONS.map((a) => ({ value: a, label: t(`routingx.actions.${a}`) })),
            },
            {
              name: 'strip_count',
              label: 'routingx.stripCount',
              kind: 'number',
              required: true,
              visible: (v) => v.action === 'strip',
            },
            {
              name: 'digits',
              label: 'routingx.digits',
              kind: 'text',
              visible: (v) => v.action !== 'strip',
            },
            { name: 'position', label: 'routingx.position', kind: 'number', help: 'routingx.positionHelp' },
            { name: 'note', label: 'routingx.note', kind: 'text' },
          ],
        },
      ],
    };
  }, [t, mapId]);
  return <ResourceForm resource={resource} id={itemId} />;
}
