import { api } from '@tandem/contract';
import { Alert, Card, Col, Progress, Row, Select, Table, type TableProps } from 'antd';
import { Figure } from '../../components/Figure';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { ChartCard } from './dashboard/common';
import './dashboard/i18n';
import { countShown, inZone } from './i18n';

type Trunk = z.output<typeof api.stats.activeTrunk>;
type Carrier = z.output<typeof api.stats.activeCarrier>;
const REFRESH_SECONDS = [0, 5, 10, 30, 60];

/**
 * Statistics > Active Call Report: the calls up now per trunk and carrier, as the switch last
 * reported them (plus the calls routed since), each trunk's call limit and use, and today's peaks;
 * refreshed every 10 seconds by default.
 */
export default function ActiveCallsPage() {
  const { t } = useTranslation();
  const { system } = useSignedIn();
  const tz = system.timezone;
  const [sp, setSp] = useSearchParams();
  const every = Number(sp.get('refresh') ?? 10);
  const d = useApi(
    api.stats.getActiveCalls,
    { query: { tz } },
    { refetchInterval: every > 0 ? every * 1000 : false, callOptions: { errorMode: 'inline' } },
  ).data;
  const trunks: TableProps<Trunk>['columns'] = [
    {
      key: 'trunk',
      title: t('dash.trunk'),
      render: (_, r) => r.trunk ?? `#${r.trunk_id}`,
      sorter: (a, b) => (a.trunk ?? '').localeCompare(b.trunk ?? ''),
    },
    {
      key: 'direction',
      title: t('dash.active.direction'),
      render: (_, r) => (r.direction ? t(`dash.active.directions.${r.direction}`) : '–'),
      filters: (['ingress', 'egress'] as const).map((v) => ({
        value: v,
        text: t(`dash.active.directions.${v}`),
      })),
      onFilter: (v, r) => r.direction === v,
    },
    {
      key: 'carrier',
      title: t('dash.carrier'),
      render: (_, r) => r.carrier ?? '–',
      sorter: (a, b) => (a.carrier ?? '').localeCompare(b.carrier ?? ''),
    },
    {
      key: 'calls',
      title: t('dash.active.calls'),
      align: 'right',
      render: (_, r) => countShown(r.calls),
      sorter: (a, b) => a.calls - b.calls,
      defaultSortOrder: 'descend',
    },
    {
      key: 'limit',
      title: t('dash.active.limit'),
      align: 'right',
      render: (_, r) => countShown(r.call_limit),
    },
    {
      key: 'use',
      title: t('dash.active.use'),
      width: 160,
      render: (_, r) =>
        r.call_limit ? (
          <Progress
            size="small"
            percent={Math.min(100, Math.round((r.calls / r.call_limit) * 100))}
            status={r.calls >= r.call_limit ? 'exception' : 'normal'}
          />
        ) : (
          '–'
        ),
    },
    {
      key: 'peak',
      title: t('dash.active.peakToday'),
      align: 'right',
      render: (_, r) => countShown(r.peak_today),
      sorter: (a, b) => (a.peak_today ?? 0) - (b.peak_today ?? 0),
    },
  ];
  const carriers: TableProps<Carrier>['columns'] = [
    { key: 'carrier', title: t('dash.carrier'), render: (_, r) => r.carrier ?? `#${r.carrier_id}` },
    {
      key: 'in',
      title: t('dash.active.ingressCalls'),
      align: 'right',
      render: (_, r) => countShown(r.ingress_calls),
      sorter: (a, b) => a.ingress_calls - b.ingress_calls,
    },
    {
      key: 'out',
      title: t('dash.active.egressCalls'),
      align: 'right',
      render: (_, r) => countShown(r.egress_calls),
      sorter: (a, b) => a.egress_calls - b.egress_calls,
    },
  ];
  return (
    <div>
      <div className="page-head">
        <h1>{t('dash.active.title')}</h1>
        <Select
          value={every}
          onChange={(v) => setSp({ refresh: String(v) }, { replace: true })}
          style={{ width: 170 }}
          data-testid="active-refresh"
          aria-label={t('stats.refresh')}
          options={REFRESH_SECONDS.map((n) => ({
            value: n,
            label: n === 0 ? t('stats.noRefresh') : t('dash.active.everySeconds', { n }),
          }))}
        />
      </div>
      {d && (
        <>
          {d.reported_at === null ? (
            <Alert
              type="info"
              showIcon
              message={t('dash.active.neverReported')}
              style={{ marginBottom: 12 }}
            />
          ) : (
            <div className="muted" style={{ marginBottom: 8 }} data-testid="active-reported-at">
              {t('dash.active.reportedAt', { at: `${inZone(d.reported_at, tz)} (GMT ${tz})` })}
            </div>
          )}
          <Row gutter={12} style={{ marginBottom: 12 }}>
            <Col xs={12} xl={6}>
              <Card size="small" data-testid="active-total">
                <Figure title={t('dash.active.total')} value={countShown(d.total)} />
              </Card>
            </Col>
            <Col xs={12} xl={6}>
              <Card size="small" data-testid="active-peak">
                <Figure title={t('dash.active.peakToday')} value={countShown(d.peak_today)} />
              </Card>
            </Col>
          </Row>
          <ChartCard
            title={t('dash.active.topTrunks')}
            kind="bar"
            data={d.trunks
              .filter((r) => r.calls > 0)
              .slice(0, 30)
              .map((r) => ({ x: r.trunk ?? `#${r.trunk_id}`, calls: r.calls, peak: r.peak_today }))}
            series={[
              { key: 'calls', name: t('dash.active.calls') },
              { key: 'peak', name: t('dash.active.peakToday') },
            ]}
            testId="active-chart"
          />
          <Card size="small" title={t('dash.active.byTrunk')} style={{ marginBottom: 12 }}>
            <Table
              size="small"
              rowKey="trunk_id"
              dataSource={d.trunks}
              columns={trunks}
              pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
              data-testid="active-trunks"
            />
          </Card>
          <Card size="small" title={t('dash.active.byCarrier')}>
            <Table
              size="small"
              rowKey="carrier_id"
              dataSource={d.carriers}
              columns={carriers}
              pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
              data-testid="active-carriers"
            />
          </Card>
        </>
      )}
    </div>
  );
}
