import { api } from '@tandem/contract';
import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { Figure } from '../../components/Figure';
import { useSignedIn } from '../../app/session';
import './i18n';
import { countShown, minutesShown, moneyShown, ratioShown } from './i18n';
import { CallsChart, CoverageNote } from './parts';

/**
 * The portal's analytics (client, vendor): today's and this month's calls, minutes and spend (a
 * vendor: earnings), ASR and ACD, and the month's calls per day. The server answers the carrier's
 * own traffic only.
 */
export function ClientAnalytics() {
  const { t } = useTranslation();
  const { system, user } = useSignedIn();
  const tz = system.timezone;
  const money = user.client?.client_type === 'vendor' ? 'stats.earned' : 'stats.spend';
  const today = useApi(api.stats.getDashboard, { query: { range: 'today', tz } });
  const month = useApi(api.stats.getDashboard, { query: { range: 'this_month', tz } });
  const block = (title: string, key: string, d: typeof today.data) => (
    <Card size="small" title={t(title)} data-testid={`analytics-${key}`}>
      <Row gutter={8}>
        {(
          [
            ['attempts', 'stats.attempts', d ? countShown(d.totals.attempts) : '–'],
            ['minutes', 'stats.minutes', d ? minutesShown(d.totals.duration) : '–'],
            ['money', money, d ? moneyShown(d.totals.revenue) : '–'],
            ['asr', 'stats.asr', d ? ratioShown(d.totals.asr) : '–'],
            ['acd', 'stats.acd', d ? ratioShown(d.totals.acd) : '–'],
          ] as const
        ).map(([k, label, v]) => (
          <Col key={k} xs={12} md={8} lg={4}>
            <Figure title={t(label)} value={v} data-testid={`analytics-${key}-${k}`} />
          </Col>
        ))}
      </Row>
    </Card>
  );
  return (
    <div style={{ marginBottom: 12 }}>
      <Row gutter={12} style={{ marginBottom: 12 }}>
        <Col xs={24} lg={12}>
          {block('stats.today', 'today', today.data)}
        </Col>
        <Col xs={24} lg={12}>
          {block('stats.thisMonth', 'month', month.data)}
        </Col>
      </Row>
      {month.data && (
        <Card size="small" title={t('stats.callsThisMonth')}>
          <CoverageNote coverage={month.data.coverage} tz={tz} />
          <CallsChart series={month.data.series} tz={tz} stepMinutes={month.data.step_minutes} />
        </Card>
      )}
    </div>
  );
}
