import { api } from '@tandem/contract';
import { Card, Col, Row, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { PortalCounts } from '../home/PortalCounts';
import './i18n';
import { CallsChart, CoverageNote, FigureCards, TopTable } from './parts';

const REFRESH_MINUTES = [0, 3, 5, 10, 15, 20];
const TOPS = [5, 10, 100];

/**
 * Statistics > Dashboard (the admin home): traffic of the chosen quick range (default Last Hour)
 * from the summaries: counts, totals, QoS, calls over time, top customers, vendors and
 * destinations; auto-refresh; then the portal's counts. Choices are kept in the URL.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { system } = useSignedIn();
  const tz = system.timezone;
  const [sp, setSp] = useSearchParams();
  const range = sp.get('range') ?? 'last_1h';
  const refresh = Number(sp.get('refresh') ?? 0);
  const top = Number(sp.get('top') ?? 5);
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(sp);
    next.set(k, v);
    setSp(next, { replace: true });
  };
  const dash = useApi(
    api.stats.getDashboard,
    { query: { range, tz, top } },
    { refetchInterval: refresh > 0 ? refresh * 60_000 : false, callOptions: { errorMode: 'inline' } },
  );
  const d = dash.data;
  const label = (id: number | null | undefined, name: string | null | undefined) =>
    id === null || id === undefined ? t('stats.unknown') : (name ?? `#${id}`);
  return (
    <div>
      <div className="page-head">
        <h1>{t('home.adminTitle')}</h1>
        <Space wrap>
          <Select
            value={range}
            onChange={(v) => set('range', v)}
            style={{ width: 170 }}
            data-testid="dash-range"
            aria-label={t('stats.range')}
            options={api.stats.QUICK_RANGE_KEYS.map((k) => ({ value: k, label: t(`stats.ranges.${k}`) }))}
          />
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
          <Select
            value={top}
            onChange={(v) => set('top', String(v))}
            style={{ width: 100 }}
            data-testid="dash-top"
            aria-label={t('stats.top')}
            options={TOPS.map((n) => ({ value: n, label: `${t('stats.top')} ${n}` }))}
          />
        </Space>
      </div>
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
    </div>
  );
}
