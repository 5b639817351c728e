import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

export default function TimeProfileEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const days = Array.from({ length: 7 }, (_, d) => ({ value: d, label: t(`configuration.days.${d}`) }));
  const timed = (v: Record<string, unknown>) => v.type !== 'all_time';
  const resource = crudFormResource(api.configuration.timeProfile, {
    key: 'time-profile',
    titleNew: 'configuration.newTimeProfile',
    titleEdit: 'configuration.editTimeProfile',
    listPath: '/configuration/time_profile',
    initial: {
      name: '',
      type: 'all_time',
      start_week_day: null,
      end_week_day: null,
      start_time: null,
      end_time: null,
    },
    tabs: [
      {
        key: 'general',
        title: 'configuration.general',
        fields: [
          { name: 'name', label: 'configuration.name', kind: 'text', required: true },
          {
            name: 'type',
            label: 'configuration.type',
            kind: 'select',
            options: (['all_time', 'daily', 'weekly'] as const).map((v) => ({
              value: v,
              label: t(`configuration.types.${v}`),
            })),
          },
          {
            name: 'start_week_day',
            label: 'configuration.startDay',
            kind: 'select',
            options: days,
            visible: (v) => v.type === 'weekly',
          },
          {
            name: 'start_time',
            label: 'configuration.startTime',
            kind: 'text',
            visible: timed,
            help: 'HH:mm',
          },
          {
            name: 'end_week_day',
            label: 'configuration.endDay',
            kind: 'select',
            options: days,
            visible: (v) => v.type === 'weekly',
          },
          { name: 'end_time', label: 'configuration.endTime', kind: 'text', visible: timed, help: 'HH:mm' },
        ],
      },
    ],
  });
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
