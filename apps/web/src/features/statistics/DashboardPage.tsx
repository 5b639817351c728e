import { api } from '@tandem/contract';
import { Card, Col, Row, Select, Space, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { PortalCounts } from '../home/PortalCounts';
import { AlertTab } from './dashboard/AlertTab';
import { ChartsTab } from './dashboard/ChartsTab';
import { ClientQosTab } from './dashboard/ClientQosTab';
import { QosReportTab } from './dashboard/QosReportTab';
import { ReportTab } from './dashboard/ReportTab';
import type { TabProps } from './dashboard/common';
import './dashboard/i18n';
import './i18n';
import { CallsChart, CoverageNote, FigureCards, TopTable } from './parts';

const REFRESH_MINUTES = [0, 3, 5, 10, 15, 20];
const TOPS = [5, 10, 100];
const BASE = '/statistics/dashboard';

/**
 * Statistics > Dashboard (the admin home, spec 02 section 2): the overview and its tabs (report,
 * charts, alert, inbound and outbound client QoS, QoS report) at /statistics/dashboard/{tab}, all
 * over the chosen quick range (default Last Hour) with auto-refresh; choices are kept in the URL
 * and go with the tabs.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { system } = useSignedIn();
  const tz = system.timezone;
  const { tab: param } = useParams();
  const tab = api.dashboard.TABS.find((x) => x === param) ?? 'overview';
  const navigate = useNavigate();
  const [sp, setSp] = useSearchParams();
  const range = sp.get('range') ?? 'last_1h';
  const refresh = Number(sp.get('refresh') ?? 0);
  const top = Number(sp.get('top') ?? 5);
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(sp);
    next.set(k, v);
    setSp(next, { replace: true });
  };
  const props: TabProps = { range, tz, refetchInterval: refresh > 0 ? refresh * 60_000 : false };
  const noRange = tab === 'ingress_client_qos' || tab === 'egress_client_qos';
  const body = {
    overview: <Overview {...props} top={top} />,
    report: <ReportTab {...props} />,
    charts: <ChartsTab {...props} />,
    alert: <AlertTab {...props} />,
    ingress_client_qos: <ClientQosTab {...props} side="ingress" />,
    egress_client_qos: <ClientQosTab {...props} side="egress" />,
    qos_report: <QosReportTab {...props} />,
  }[tab];
  return (
    <div>
      <div className="page-head">
        <h1>{t('home.adminTitle')}</h1>
        <Space wrap>
          {!noRange && (
            <Select
              value={range}
              onChange={(v) => set('range', v)}
              style={{ width: 170 }}
              data-testid="dash-range"
              aria-label={t('stats.range')}
              options={api.stats.QUICK_RANGE_KEYS.map((k) => ({ value: k, label: t(`stats.ranges.${k}`) }))}
            />
          )}
          <Select
            value={refresh}
            onChange={(v) => set('refresh', String(v))}
            style={{ width: 170 }}
            data-testid="dash-refresh"
            aria-label={t('stats.refresh')}
            options={REFRESH_MINUTES.map((n) => ({
              value: n,
              label: n === 0 ? t('stats.noRefresh') : t('stats.everyMinutes', { n }),
            }))}
          />
          {tab === 'overview' && (
            <Select
              value={top}
              onChange={(v) => set('top', String(v))}
              style={{ width: 100 }}
              data-testid="dash-top"
              aria-label={t('stats.top')}
              options={TOPS.map((n) => ({ value: n, label: `${t('stats.top')} ${n}` }))}
            />
          )}
        </Space>
      </div>
      <Tabs
        activeKey={tab}
        data-testid="dash-tabs"
        onChange={(k) =>
          navigate({ pathname: k === 'overview' ? BASE : `${BASE}/${k}`, search: sp.toString() })
        }
        items={(['overview', ...api.dashboard.TABS] as const).map((k) => ({
          key: k,
          label: <span data-testid={`dash-tab-${k}`}>{t(`dash.tabs.${k}`)}</span>,
        }))}
      />
      {body}
    </div>
  );
}

/** The overview: counts, totals, QoS, calls over time, the top lists, then the portal's counts. */
function Overview({ range, tz, refetchInterval, top }: TabProps & { top: number }) {
  const { t } = useTranslation();
  const dash = useApi(
    api.stats.getDashboard,
    { query: { range, tz, top } },
    { refetchInterval, callOptions: { errorMode: 'inline' } },
  );
  const d = dash.data;
  const label = (id: number | null | undefined, name: string | null | undefined) =>
    id === null || id === undefined ? t('stats.unknown') : (name ?? `#${id}`);
  return (
    <>
      {d && (
        <>
          <CoverageNote coverage={d.coverage} tz={tz} />
          <FigureCards f={d.totals} costVisible={d.coverage.cost_visible} />
          <Card size="small" title={t('stats.callsOverTime')} style={{ marginBottom: 12 }}>
            <CallsChart series={d.series} tz={tz} stepMinutes={d.step_minutes} />
          </Card>
          <Row gutter={12} style={{ marginBottom: 12 }}>
            <Col xs={24} xl={8}>
              <TopTable
                title={t('stats.topCustomers')}
                rows={d.top_customers}
                label={(r) => label(r.customer_id, r.customer)}
                testId="top-customers"
              />
            </Col>
            <Col xs={24} xl={8}>
              <TopTable
                title={t('stats.topVendors')}
                rows={d.top_vendors}
                label={(r) => label(r.vendor_id, r.vendor)}
                testId="top-vendors"
              />
            </Col>
            <Col xs={24} xl={8}>
              <TopTable
                title={t('stats.topDestinations')}
                rows={d.top_destinations}
                label={(r) => r.country || t('stats.unknown')}
                testId="top-destinations"
              />
            </Col>
          </Row>
        </>
      )}
      <h2>{t('stats.portal')}</h2>
      <PortalCounts />
    </>
  );
}
