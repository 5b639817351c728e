import { api } from '@tandem/contract';
import { Tag } from 'antd';
import { crudListResource } from '../../components/resource/crudResource';
import { when } from '../routing/shared';
import { RuleTabs } from './parts';
import './i18n';

type Row = api.monitoring.FraudRuleRow;
const BASE = '/monitoring/fraud_detection';

const resource = crudListResource<Row>(api.monitoring.fraudRule, {
  key: 'fraud-rules',
  title: 'monitoring.fraudDetection',
  rowKey: 'id',
  route: BASE,
  nameOf: (r) => r.rule_name,
  isActive: (r) => r.is_active,
  columns: [
    { key: 'rule_name', title: 'monitoring.ruleName', sortable: true },
    {
      key: 'trunks',
      title: 'monitoring.ingressTrunks',
      csv: (r) => (r.scope === 'all' ? 'all' : r.trunks.map((x) => x.name).join('; ')),
      render: (r, t) =>
        r.scope === 'all'
          ? t('monitoring.scopes.all')
          : r.trunks.map((x) => <Tag key={x.trunk_id}>{x.name}</Tag>),
    },
    {
      key: 'granularity',
      title: 'monitoring.granularity',
      render: (r, t) => t(`monitoring.granularities.${r.granularity}`),
    },
    {
      key: 'thresholds',
      title: 'monitoring.tabs.thresholds',
      csv: (r) => thresholds(r).join('; '),
      render: (r) => thresholds(r).join(' · '),
    },
    { key: 'triggers_1h', title: 'monitoring.triggers1h' },
    { key: 'triggers_24h', title: 'monitoring.triggers24h' },
    {
      key: 'active_blocks',
      title: 'monitoring.activeBlocks',
      render: (r) => (r.active_blocks > 0 ? <Tag color="red">{r.active_blocks}</Tag> : 0),
    },
    { key: 'last_run_at', title: 'monitoring.lastRun', sortable: true, render: (r) => when(r.last_run_at) },
    { key: 'updated_by', title: 'monitoring.updatedBy' },
  ],
  filters: [{ name: 'rule_name', title: 'monitoring.ruleName', kind: 'text' }],
  defaultSort: { by: 'rule_name', dir: 'asc' },
});

function thresholds(r: Row): string[] {
  const out: string[] = [];
  const add = (v: string | null, label: string) => v !== null && out.push(`${label} ${v}`);
  add(r.hour_minutes, 'min/h >');
  add(r.hour_revenue, 'revenue/h >');
  add(r.hour_cost, 'cost/h >');
  add(r.day_minutes, 'min/24h >');
  add(r.day_revenue, 'revenue/24h >');
  add(r.day_cost, 'cost/24h >');
  add(r.asr_below, 'ASR <');
  add(r.acd_below, 'ACD <');
  return out;
}

/** Monitoring > Fraud Detection: the rules, their execution log and the blocks they placed. */
export default function FraudDetectionPage() {
  return (
    <RuleTabs
      base={BASE}
      kind="fraud"
      resource={resource}
      logPath="exec_log"
      rowLink={{ label: 'monitoring.viewLog', path: (r) => `execution_log/${r.id}` }}
    />
  );
}
