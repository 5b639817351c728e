import { api } from '@tandem/contract';
import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from '../routing/shared';
import { BlocksList, logResource } from './parts';
import './i18n';

/**
 * One rule's page: Monitoring > Fraud Detection > execution_log/{id} and Monitoring > Rule >
 * details/{id}: the rule in short, its execution log and its blocks.
 */
export default function RuleLogPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const fraud = useLocation().pathname.startsWith('/monitoring/fraud_detection');
  const rule = useApi(fraud ? api.monitoring.fraudRule.get : api.monitoring.monitoringRule.get, {
    params: { id },
  });
  const r = rule.data as (api.monitoring.FraudRuleRow & api.monitoring.MonitoringRuleRow) | undefined;
  return (
    <>
      <Card size="small" style={{ marginBottom: 12 }}>
        <Typography.Title level={5} style={{ marginTop: 0 }} data-testid="rule-title">
          {r?.rule_name ?? ''}
        </Typography.Title>
        {r && (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={t('monitoring.trunks')}>
              {r.scope === 'all' ? t('monitoring.scopes.all') : r.trunks.map((x) => x.name).join(', ')}
            </Descriptions.Item>
            <Descriptions.Item label={t('monitoring.lastRun')}>{when(r.last_run_at)}</Descriptions.Item>
            {fraud ? (
              <Descriptions.Item label={t('monitoring.triggers24h')}>{r.triggers_24h}</Descriptions.Item>
            ) : (
              <Descriptions.Item label={t('monitoring.nextRun')}>{when(r.next_run_at)}</Descriptions.Item>
            )}
          </Descriptions>
        )}
      </Card>
      <Typography.Title level={5}>{t('monitoring.tabs.log')}</Typography.Title>
      <ResourceList resource={logResource(fraud ? 'fraud' : 'rule', id)} />
      <Typography.Title level={5}>{t('monitoring.tabs.blocks')}</Typography.Title>
      <BlocksList kind={fraud ? 'fraud' : 'rule'} ruleId={id} />
    </>
  );
}
