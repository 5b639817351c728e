import { ReloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Badge, Button, Card, Col, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Figure } from '../../components/Figure';
import { when } from '../routing/shared';
import { EventTag } from './parts';
import { useLiveFeed, type LiveConnection, type LiveMode } from './useLiveFeed';
import './i18n';

type LiveEvent = api.monitoring.LiveEventRow;

const MODES: LiveMode[] = ['live', ...api.monitoring.LIVE_REFRESH_MINUTES];
const parseMode = (v: string | null): LiveMode => {
  const n = Number(v);
  return v !== null && v !== 'live' && MODES.includes(n as LiveMode) ? (n as LiveMode) : 'live';
};

const BADGE: Record<LiveConnection, 'success' | 'processing' | 'warning' | 'default'> = {
  live: 'success',
  connecting: 'processing',
  reconnecting: 'warning',
  polling: 'processing',
  paused: 'default',
};

/** Where a rule's own log is. */
function ruleLink(e: LiveEvent): string | null {
  if (e.rule_id === null) return null;
  if (e.rule_kind === 'fraud') return `/monitoring/fraud_detection/execution_log/${e.rule_id}`;
  if (e.rule_kind === 'rule') return `/monitoring/rule/details/${e.rule_id}`;
  return `/monitoring/loop_detection/edit/${e.rule_id}`;
}

/**
 * Monitoring > Live Event (shown as Live Monitoring): blocks in force, fraud triggers in 1 h and
 * 24 h, loops in 1 h, calls up per trunk, and the rule hits, blocks, unblocks and loops as they
 * happen, pushed by the server, or refreshed every few minutes (the spec's choices).
 */
export default function LiveEventPage() {
  const { t } = useTranslation();
  const [sp, setSp] = useSearchParams();
  const mode = parseMode(sp.get('refresh'));
  const feed = useLiveFeed(mode);
  const c = feed.counts;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="live-event">
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Space wrap>
          <span>{t('monitoring.live.autoRefresh')}</span>
          <Select<string>
            value={String(mode)}
            style={{ width: 200 }}
            data-testid="live-refresh"
            onChange={(v) => {
              const next = new URLSearchParams(sp);
              if (v === 'live') next.delete('refresh');
              else next.set('refresh', v);
              setSp(next, { replace: true });
            }}
            options={MODES.map((m) => ({
              value: String(m),
              label:
                m === 'live'
                  ? t('monitoring.live.modes.live')
                  : m === 0
                    ? t('monitoring.live.modes.off')
                    : t('monitoring.live.modes.minutes', { n: m }),
            }))}
          />
          <Button icon={<ReloadOutlined />} loading={feed.loading} onClick={() => void feed.refresh()}>
            {t('monitoring.live.refresh')}
          </Button>
        </Space>
        <Space wrap>
          <Badge
            status={BADGE[feed.connection]}
            text={t(`monitoring.live.connection.${feed.connection}`)}
            data-testid={`live-connection-${feed.connection}`}
          />
          {feed.updatedAt && (
            <Typography.Text type="secondary">
              {t('monitoring.live.updatedAt', { at: when(feed.updatedAt.toISOString()) })}
            </Typography.Text>
          )}
        </Space>
      </Space>
      {feed.connection === 'reconnecting' && (
        <Typography.Text type="warning" data-testid="live-fallback">
          {t('monitoring.live.fallback')}
        </Typography.Text>
      )}

      <Row gutter={[16, 16]}>
        <Col xs={12} md={6} lg={4}>
          <Card size="small" data-testid="live-active-blocks">
            <Figure title={t('monitoring.activeBlocks')} value={c?.active_blocks} />
          </Card>
        </Col>
        <Col xs={12} md={6} lg={4}>
          <Card size="small" data-testid="live-triggers-1h">
            <Figure title={t('monitoring.triggers1h')} value={c?.triggers_1h} />
          </Card>
        </Col>
        <Col xs={12} md={6} lg={4}>
          <Card size="small" data-testid="live-triggers-24h">
            <Figure title={t('monitoring.triggers24h')} value={c?.triggers_24h} />
          </Card>
        </Col>
        <Col xs={12} md={6} lg={4}>
          <Card size="small" data-testid="live-loops-1h">
            <Figure title={t('monitoring.live.loops1h')} value={c?.loops_1h} />
          </Card>
        </Col>
        <Col xs={12} md={6} lg={4}>
          <Card size="small" data-testid="live-calls-total">
            <Figure title={t('monitoring.live.callsUp')} value={feed.calls?.total} />
          </Card>
        </Col>
      </Row>

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={8}>
          <Card size="small" title={t('monitoring.live.callsPerTrunk')}>
            <Table
              size="small"
              rowKey="trunk_id"
              pagination={false}
              data-testid="live-calls"
              dataSource={feed.calls?.trunks ?? []}
              locale={{ emptyText: t('monitoring.live.noCalls') }}
              columns={[
                {
                  key: 'trunk',
                  title: t('monitoring.trunk'),
                  render: (_: unknown, r) => r.trunk_name ?? `#${r.trunk_id}`,
                },
                { key: 'carrier', title: t('monitoring.carrier'), dataIndex: 'carrier_name' },
                { key: 'calls', title: t('monitoring.live.calls'), dataIndex: 'calls', align: 'right' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={16}>
          <Card size="small" title={t('monitoring.live.events')}>
            <Table<LiveEvent>
              size="small"
              rowKey="id"
              data-testid="live-events"
              dataSource={feed.events}
              pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
              locale={{ emptyText: t('monitoring.live.noEvents') }}
              onRow={(r) => ({ 'data-testid': `live-event-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
              columns={[
                { key: 'at', title: t('monitoring.at'), render: (_: unknown, r) => when(r.at) },
                {
                  key: 'event',
                  title: t('monitoring.event'),
                  render: (_: unknown, r) => <EventTag event={r.event} />,
                },
                {
                  key: 'rule',
                  title: t('monitoring.rule'),
                  render: (_: unknown, r) => {
                    const to = ruleLink(r);
                    return (
                      <Space size={4}>
                        <Tag>{t(`monitoring.live.kinds.${r.rule_kind}`)}</Tag>
                        {to ? <Link to={to}>{r.rule_name}</Link> : r.rule_name}
                      </Space>
                    );
                  },
                },
                { key: 'trunk', title: t('monitoring.trunk'), dataIndex: 'trunk_name' },
                { key: 'carrier', title: t('monitoring.carrier'), dataIndex: 'carrier_name' },
                { key: 'subject', title: t('monitoring.subject'), dataIndex: 'subject' },
                { key: 'detail', title: t('monitoring.detail'), dataIndex: 'detail' },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
