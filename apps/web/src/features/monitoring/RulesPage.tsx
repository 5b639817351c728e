import { api } from '@tandem/contract';
import { Tag } from 'antd';
import { Link } from 'react-router-dom';
import { crudListResource } from '../../components/resource/crudResource';
import { when } from '../routing/shared';
import { RuleTabs } from './parts';
import './i18n';

type Row = api.monitoring.MonitoringRuleRow;
const BASE = '/monitoring/rule';

function conditions(r: Row): string[] {
  const out: string[] = [];
  const add = (v: string | null, label: string) => v !== null && out.push(`${label} ${v}`);
  add(r.asr_below, 'ASR <');
  add(r.acd_below, 'ACD <');
  add(r.ner_below, 'NER <');
  add(r.profit_below, 'profit <');
  add(r.sdp_above, 'SDP >');
  add(r.pdd_above, 'PDD >');
  return out;
}

const resource = crudListResource<Row>(api.monitoring.monitoringRule, {
  key: 'monitoring-rules',
  title: 'monitoring.rules',
  rowKey: 'id',
  route: BASE,
  nameOf: (r) => r.rule_name,
  isActive: (r) => r.is_active,
  columns: [
    {
      key: 'rule_name',
      title: 'monitoring.ruleName',
      sortable: true,
      render: (r) => <Link to={`${BASE}/details/${r.id}`}>{r.rule_name}</Link>,
    },
    {
      key: 'trunks',
      title: 'monitoring.trunks',
      csv: (r) => r.trunks.map((x) => x.name).join('; '),
      render: (r, t) => (
        <>
          {t(`monitoring.sides.${r.side}`)}:{' '}
          {r.trunks.map((x) => (
            <Tag key={x.trunk_id}>{x.name}</Tag>
          ))}
        </>
      ),
    },
    {
      key: 'codes',
      title: 'monitoring.codeMode',
      csv: (r) => `${r.code_mode} ${r.codes.join(' ')}`,
      render: (r, t) =>
        `${t(`monitoring.codeModes.${r.code_mode}`)}${r.codes.length ? `: ${r.codes.join(', ')}` : ''}`,
    },
    {
      key: 'conditions',
      title: 'monitoring.tabs.condition',
      csv: (r) => conditions(r).join('; '),
      render: (r) => conditions(r).join(' · '),
    },
    {
      key: 'frequency',
      title: 'monitoring.tabs.frequency',
      csv: (r) => `${r.every_minutes}/${r.sample_minutes}/${r.min_attempts}`,
      render: (r, t) =>
        `${t('monitoring.every', { n: r.every_minutes })} · ${r.sample_minutes} min · ≥ ${r.min_attempts}`,
    },
    {
      key: 'action_block',
      title: 'monitoring.tabs.actions',
      render: (r, t) =>
        `${t(`monitoring.actionBlocks.${r.action_block}`)}${r.unblock_after_minutes ? ` (${r.unblock_after_minutes} min)` : ''}${r.email_to !== 'none' ? ` · ${t(`monitoring.emailTargets.${r.email_to}`)}` : ''}`,
    },
    {
      key: 'active_blocks',
      title: 'monitoring.activeBlocks',
      render: (r) => (r.active_blocks > 0 ? <Tag color="red">{r.active_blocks}</Tag> : 0),
    },
    { key: 'last_run_at', title: 'monitoring.lastRun', sortable: true, render: (r) => when(r.last_run_at) },
    { key: 'next_run_at', title: 'monitoring.nextRun', sortable: true, render: (r) => when(r.next_run_at) },
    { key: 'updated_by', title: 'monitoring.updatedBy' },
  ],
  filters: [{ name: 'rule_name', title: 'monitoring.ruleName', kind: 'text' }],
  defaultSort: { by: 'rule_name', dir: 'asc' },
});

/** Monitoring > Rule: monitoring rules, their log and their blocks. */
export default function RulesPage() {
  return (
    <RuleTabs
      base={BASE}
      kind="rule"
      resource={resource}
      logPath="log"
      rowLink={{ label: 'common.details', path: (r) => `details/${r.id}` }}
    />
  );
}
