import { api } from '@tandem/contract';
import { Card, Col, Row, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { Figure } from '../../components/Figure';
import { chartRows } from '../statistics/dashboard/ChartsTab';
import { ChartCard } from '../statistics/dashboard/common';
import '../statistics/dashboard/i18n';
import { countShown, moneyShown } from '../statistics/i18n';
import { CoverageNote, FigureCards, TopTable } from '../statistics/parts';
import './extras-i18n';

const TOPS = [5, 10, 100];

/**
 * Origination > Dashboard: the numbers in the repository by state, then the DID calls of the range
 * (calls, minutes, revenue, cost, profit) with the recurring DID charges booked in it, over time,
 * and the top DID clients and vendors. Built of the statistics dashboard's parts; the range and top
 * are kept in the URL. Cost and profit only with "view cost and rate in reports".
 */
export default function DidDashboardPage() {
  const { t } = useTranslation();
  const tz = useSignedIn().system.timezone;
  const [sp, setSp] = useSearchParams();
  const range = sp.get('range') ?? 'last_24h';
  const top = Number(sp.get('top') ?? 5);
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(sp);
    next.set(k, v);
    setSp(next, { replace: true });
  };
  const dash = useApi(
    api.didExtras.getDashboard,
    { query: { range, tz, top } },
    { callOptions: { errorMode: 'inline' } },
  );
  const d = dash.data;
  const rows = d ? chartRows(d.series, tz, d.step_minutes) : [];
  const costVisible = d?.coverage.cost_visible ?? false;
  const card = (key: string, title: string, value: string | number) => (
    <Card key={key} size="small" data-testid={`did-dash-${key}`}>
      <Figure title={title} value={value} />
    </Card>
  );
  const label = (id: number | null | undefined, name: string | null | undefined) =>
    id === null || id === undefined ? t('stats.unknown') : (name ?? `#${id}`);
  return (
    <div>
      <div className="page-head">
        <h1>{t('didx.dashboard')}</h1>
        <Space wrap>
          <Select
            value={range}
            onChange={(v) => set('range', v)}
            style={{ width: 170 }}
            data-testid="did-dash-range"
            aria-label={t('stats.range')}
            options={[...api.stats.CALENDAR_RANGES, ...api.stats.QUICK_RANGE_KEYS].map((k) => ({
              value: k,
              label: t(`stats.ranges.${k}`),
            }))}
          />
          <Select
            value={top}
            onChange={(v) => set('top', String(v))}
            style={{ width: 100 }}
            aria-label={t('stats.top')}
            options={TOPS.map((n) => ({ value: n, label: `${t('stats.top')} ${n}` }))}
          />
        </Space>
      </div>
      {d && (
        <>
          <h2>{t('didx.numbers')}</h2>
          <div className="stat-grid" style={{ marginBottom: 12 }}>
            {card('numbers-total', t('didx.total'), countShown(d.numbers.total))}
            {api.did.DID_STATES.map((s) =>
              card(`numbers-${s}`, t(`didx.states.${s}`), countShown(d.numbers[s])),
            )}
            {card('numbers-suspended', t('didx.suspended'), countShown(d.numbers.suspended))}
          </div>
          <h2>{t('didx.calls')}</h2>
          <CoverageNote coverage={d.coverage} tz={tz} />
          <FigureCards f={d.totals} costVisible={costVisible} testPrefix="did-dash" />
          <h2>{t('didx.money')}</h2>
          <div className="stat-grid" style={{ marginBottom: 12 }}>
            {card('usage-revenue', t('didx.usageRevenue'), moneyShown(d.money.usage_revenue))}
            {card('charges-revenue', t('didx.chargesRevenue'), moneyShown(d.money.charges_revenue))}
            {card('money-revenue', t('didx.revenue'), moneyShown(d.money.revenue))}
            {costVisible && card('usage-cost', t('didx.usageCost'), moneyShown(d.money.usage_cost))}
            {costVisible && card('charges-cost', t('didx.chargesCost'), moneyShown(d.money.charges_cost))}
            {costVisible && card('money-cost', t('didx.cost'), moneyShown(d.money.cost))}
            {costVisible && card('money-profit', t('didx.profit'), moneyShown(d.money.profit))}
          </div>
          <ChartCard
            title={t('didx.callsOverTime')}
            data={rows}
            series={[
              { key: 'attempts', name: t('stats.attempts') },
              { key: 'answered', name: t('stats.answered') },
            ]}
            testId="did-dash-chart-calls"
          />
          <ChartCard
            title={t('didx.minutesOverTime')}
            data={rows}
            series={[{ key: 'minutes', name: t('stats.minutes') }]}
            testId="did-dash-chart-minutes"
          />
          <ChartCard
            title={t('didx.moneyOverTime')}
            kind="bar"
            data={rows}
            series={[
              { key: 'revenue', name: t('stats.revenue') },
              ...(costVisible
                ? [
                    { key: 'cost', name: t('stats.cost') },
                    { key: 'profit', name: t('stats.profit') },
                  ]
                : []),
            ]}
            testId="did-dash-chart-money"
          />
          <Row gutter={12} style={{ marginBottom: 12 }}>
            <Col xs={24} xl={12}>
              <TopTable
                title={t('didx.topClients')}
                rows={d.top_clients}
                label={(r) => label(r.customer_id, r.customer)}
                testId="did-top-clients"
              />
            </Col>
            <Col xs={24} xl={12}>
              <TopTable
                title={t('didx.topVendors')}
                rows={d.top_vendors}
                label={(r) => label(r.vendor_id, r.vendor)}
                testId="did-top-vendors"
              />
            </Col>
          </Row>
        </>
      )}
    </div>
  );
}
