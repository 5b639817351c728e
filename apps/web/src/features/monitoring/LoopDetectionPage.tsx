import { api } from '@tandem/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from '../routing/shared';
import { logResource, PathTabs } from './parts';
import './i18n';

type Row = api.monitoring.LoopRuleRow;
const BASE = '/monitoring/loop_detection';

const resource = crudListResource<Row>(api.monitoring.loopRule, {
  key: 'loop-rules',
  title: 'monitoring.loopDetection',
  rowKey: 'id',
  route: BASE,
  nameOf: (r) => r.rule_name,
  isActive: (r) => r.is_active,
  columns: [
    { key: 'rule_name', title: 'monitoring.ruleName', sortable: true },
    {
      key: 'trunks',
      title: 'monitoring.ingressTrunks',
      csv: (r) => r.trunks.map((x) => x.name).join('; '),
      render: (r) => r.trunks.map((x) => <Tag key={x.trunk_id}>{x.name}</Tag>),
    },
    {
      key: 'number_ranges',
      title: 'monitoring.numberRanges',
      csv: (r) => r.number_ranges.join(' '),
      render: (r) => r.number_ranges.join(', '),
    },
    {
      key: 'criterion',
      title: 'monitoring.maxCalls',
      csv: (r) => `${r.max_calls}/${r.window_seconds}s`,
      render: (r) => `> ${r.max_calls} / ${r.window_seconds} s`,
    },
    { key: 'block_seconds', title: 'monitoring.blockSeconds' },
    { key: 'loops_24h', title: 'monitoring.loops24h' },
    { key: 'updated_at', title: 'monitoring.updatedAt', sortable: true, render: (r) => when(r.updated_at) },
    { key: 'updated_by', title: 'monitoring.updatedBy' },
  ],
  filters: [{ name: 'rule_name', title: 'monitoring.ruleName', kind: 'text' }],
  defaultSort: { by: 'rule_name', dir: 'asc' },
});

/** Monitoring > Loop Detection: the rules the route API applies per call, and the loops it refused. */
export default function LoopDetectionPage() {
  const { t } = useTranslation();
  return (
    <PathTabs
      items={[
        { path: BASE, label: t('monitoring.tabs.rules'), children: <ResourceList resource={resource} /> },
        {
          path: `${BASE}/log`,
          label: t('monitoring.tabs.loops'),
          children: <ResourceList resource={logResource('loop')} />,
        },
      ]}
    />
  );
}
