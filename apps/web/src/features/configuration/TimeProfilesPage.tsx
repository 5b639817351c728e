import { api } from '@tandem/contract';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.infer<typeof api.configuration.timeProfileRow>;
const day = (d: number | null, t: (k: string) => string) => (d === null ? '' : t(`configuration.days.${d}`));

const resource = crudListResource<Row>(api.configuration.timeProfile, {
  key: 'time-profiles',
  title: 'configuration.timeProfiles',
  rowKey: 'time_profile_id',
  route: '/configuration/time_profile',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'configuration.name', sortable: true },
    {
      key: 'type',
      title: 'configuration.type',
      sortable: true,
      render: (r, t) => t(`configuration.types.${r.type}`),
    },
    {
      key: 'window',
      title: 'configuration.window',
      csv: (r) =>
        `${r.start_week_day ?? ''} ${r.start_time ?? ''} - ${r.end_week_day ?? ''} ${r.end_time ?? ''}`.trim(),
      render: (r, t) =>
        r.type === 'all_time'
          ? '—'
          : `${day(r.start_week_day, t)} ${r.start_time} – ${day(r.end_week_day, t)} ${r.end_time}`.trim(),
    },
    { key: 'usage_count', title: 'configuration.usage' },
  ],
  filters: [
    { name: 'name', title: 'common.search', kind: 'text' },
    {
      name: 'type',
      title: 'configuration.type',
      kind: 'select',
      options: ['all_time', 'daily', 'weekly'].map((v) => ({ value: v, label: v })),
    },
  ],
});

export default function TimeProfilesPage() {
  return <ResourceList resource={resource} />;
}
