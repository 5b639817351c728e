import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { z } from 'zod';
import { call } from '../../api/client';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { useTimeProfileOptions, useTrunkOptions } from './shared';
import './i18n';

/** The multiselect gives trunk ids; the API takes pool entries. */
const toPool = (v: unknown) => {
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  return Array.isArray(o.trunks)
    ? { ...o, trunks: (o.trunks as unknown[]).map((id) => (typeof id === 'number' ? { trunk_id: id } : id)) }
    : o;
};
const createSchema = z.preprocess(toPool, api.routing.dynamicRoute.create.body!);
/** 0 in the time profile select means none. */
const noProfile = (v: unknown) =>
  typeof v === 'object' && v !== null && (v as Record<string, unknown>).time_profile_id === 0
    ? { ...v, time_profile_id: null }
    : v;

/** Routing > Dynamic Routing > New / Edit: name, rule (LCR, largest ASR, largest ACD), time profile, QoS cycle; on create, the egress trunks. */
export default function DynamicRouteEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const profiles = useTimeProfileOptions();
  const trunks = useTrunkOptions('egress');
  const resource = useMemo(() => {
    const base = crudFormResource(api.routing.dynamicRoute, {
      key: 'dynamic-route',
      titleNew: 'routing.newDynamic',
      titleEdit: 'routing.editDynamic',
      listPath: '/routing/dynamic_routing',
      initial: { name: '', rule: 'lcr', time_profile_id: 0, qos_cycle_minutes: 60, trunks: [] as number[] },
      fromRow: (r) => ({
        name: r.name as string,
        rule: r.rule as string,
        time_profile_id: (r.time_profile_id as number | null) ?? 0,
        qos_cycle_minutes: r.qos_cycle_minutes as number,
        trunks: [] as number[],
      }),
      tabs: [
        {
          key: 'general',
          title: 'routing.general',
          fields: [
            { name: 'name', label: 'routing.name', kind: 'text', required: true },
            {
              name: 'rule',
              label: 'routing.rule',
              kind: 'select',
              options: api.routing.DYNAMIC_RULES.map((v) => ({ value: v, label: t(`routing.rules.${v}`) })),
            },
            {
              name: 'time_profile_id',
              label: 'routing.timeProfile',
              kind: 'select',
              options: [{ value: 0, label: t('routing.allTime') }, ...profiles],
            },
            {
              name: 'qos_cycle_minutes',
              label: 'routing.qosCycleMinutes',
              kind: 'number',
              help: 'routing.qosCycleHelp',
            },
            {
              name: 'trunks',
              label: 'routing.egressTrunks',
              kind: 'multiselect',
              options: trunks.options,
              createOnly: true,
              help: 'routing.poolHelp',
            },
          ],
        },
      ],
    });
    return {
      ...base,
      createSchema: z.preprocess((v) => noProfile(toPool(v)), createSchema),
      updateSchema: z.preprocess(noProfile, api.routing.dynamicRoute.updateBody),
      create: (v: Record<string, unknown>) =>
        call(api.routing.dynamicRoute.create, { body: v as never }, { errorMode: 'inline' }),
    };
  }, [t, profiles, trunks.options]);
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
