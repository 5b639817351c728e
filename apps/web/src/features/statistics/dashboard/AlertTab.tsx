import { api } from '@tandem/contract';
import { Alert, Card, Col, Row, Table, type TableProps } from 'antd';
import { Figure } from '../../../components/Figure';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { useApi } from '../../../api/queries';
import { countShown, inZone, moneyShown } from '../i18n';
import type { TabProps } from './common';

type Event = z.output<typeof api.dashboard.alertEvent>;
type Balance = z.output<typeof api.dashboard.alerts>['balances'][number];
const COUNTED = ['triggered', 'cleared', 'blocked', 'unblocked', 'loop'] as const;

/**
 * Dashboard > Alert: what the monitoring and fraud rules did in the range (counts and the latest
 * events), the blocks in force, and the carriers below their low-balance line or at zero now.
 */
export function AlertTab({ range, tz, refetchInterval }: TabProps) {
  const { t } = useTranslation();
  const a = useApi(
    api.dashboard.getAlerts,
    { query: { range, tz } },
    { refetchInterval, callOptions: { errorMode: 'inline' } },
  ).data;
  if (!a) return null;
  const events: TableProps<Event>['columns'] = [
    { key: 'at', title: t('dash.at'), render: (_, e) => inZone(e.at, tz) },
    { key: 'rule', title: t('dash.rule'), render: (_, e) => e.rule_name },
    {
      key: 'event',
      title: t('dash.event'),
      render: (_, e) => t(`dash.eventCounts.${e.event}`, { defaultValue: e.event }),
    },
    { key: 'subject', title: t('dash.subject'), render: (_, e) => e.subject },
    { key: 'detail', title: t('dash.detail'), render: (_, e) => e.detail, ellipsis: true },
  ];
  const balances: TableProps<Balance>['columns'] = [
    {
      key: 'carrier',
      title: t('dash.carrier'),
      render: (_, b) => <Link to={`/termination/clients/edit/${b.carrier_id}`}>{b.carrier}</Link>,
    },
    { key: 'event', title: t('dash.event'), render: (_, b) => t(`dash.balanceEvents.${b.event}`) },
    { key: 'balance', title: t('dash.balance'), align: 'right', render: (_, b) => moneyShown(b.balance) },
    { key: 'since', title: t('dash.since'), render: (_, b) => inZone(b.since, tz) },
  ];
  const fired = COUNTED.some((k) => (a.counts[k] ?? 0) > 0);
  return (
    <>
      <Row gutter={12} style={{ marginBottom: 12 }}>
        {COUNTED.map((k) => (
          <Col key={k} xs={12} md={8} xl={4}>
            <Card size="small" data-testid={`dash-alert-${k}`}>
              <Figure title={t(`dash.eventCounts.${k}`)} value={countShown(a.counts[k] ?? 0)} />
            </Card>
          </Col>
        ))}
        <Col xs={12} md={8} xl={4}>
          <Card size="small" data-testid="dash-alert-blocks">
            <Figure title={t('dash.activeBlocks')} value={countShown(a.active_blocks)} />
          </Card>
        </Col>
      </Row>
      {!fired && <Alert type="success" showIcon message={t('dash.noAlerts')} style={{ marginBottom: 12 }} />}
      <Card size="small" title={t('dash.events')} style={{ marginBottom: 12 }}>
        <Table
          size="small"
          rowKey={(e) => `${e.at}|${e.rule_kind}|${e.rule_name}|${e.event}|${e.subject}`}
          dataSource={a.events}
          columns={events}
          pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
          data-testid="dash-alert-events"
        />
      </Card>
      <Card size="small" title={t('dash.balanceAlerts')}>
        <Table
          size="small"
          rowKey={(b) => `${b.carrier_id}|${b.event}`}
          dataSource={a.balances}
          columns={balances}
          pagination={false}
          data-testid="dash-alert-balances"
        />
      </Card>
    </>
  );
}
