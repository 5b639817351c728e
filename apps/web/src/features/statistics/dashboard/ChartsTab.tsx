import { api } from '@tandem/contract';
import { Card, Col, Row } from 'antd';
import { Figure } from '../../../components/Figure';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi } from '../../../api/queries';
import { countShown, inZone, minutesOf } from '../i18n';
import { CoverageNote } from '../parts';
import { ChartCard, stepLabel, type TabProps } from './common';

type Point = z.output<typeof api.dashboard.chartPoint>;

/** Chart rows of the steps: times in the user's zone, minutes from seconds, money as numbers (charts only). */
export function chartRows(points: Point[], tz: string, stepMinutes: number) {
  return points.map((p) => ({
    x: stepLabel(inZone(p.at, tz), stepMinutes),
    attempts: p.attempts,
    answered: p.answered,
    minutes: Number(minutesOf(p.duration)),
    erlangs: p.erlangs,
    channels: p.channels,
    revenue: Number(p.revenue),
    cost: p.cost === null ? null : Number(p.cost),
    profit: p.profit === null ? null : Number(p.profit),
    asr: p.asr,
    ner: p.ner,
    acd: p.acd,
    pdd: p.pdd,
  }));
}

/**
 * Dashboard > Charts: calls, minutes and channels, and money over the range, then the peaks of
 * the last 24 hours (per hour) and 7 days (per day) with the busiest hour and day.
 */
export function ChartsTab({ range, tz, refetchInterval }: TabProps) {
  const { t } = useTranslation();
  const opts = { refetchInterval, callOptions: { errorMode: 'inline' as const } };
  const charts = useApi(api.dashboard.getCharts, { query: { range, tz } }, opts).data;
  const peaks = useApi(api.dashboard.getPeaks, { query: { tz } }, opts).data;
  const rows = charts ? chartRows(charts.series, tz, charts.step_minutes) : [];
  const calls = [
    { key: 'attempts', name: t('stats.attempts') },
    { key: 'answered', name: t('stats.answered') },
  ];
  const channels = [
    { key: 'erlangs', name: t('dash.erlangs') },
    { key: 'channels', name: t('dash.channels') },
  ];
  const when = (at: string | null, day: boolean) =>
    at === null ? t('dash.none') : inZone(at, tz).slice(0, day ? 10 : 16);
  return (
    <>
      {charts && <CoverageNote coverage={charts.coverage} tz={tz} />}
      <ChartCard title={t('dash.calls')} data={rows} series={calls} testId="dash-chart-calls" />
      <ChartCard
        title={t('dash.minutesOverTime')}
        data={rows}
        series={[{ key: 'minutes', name: t('stats.minutes') }, ...channels]}
        testId="dash-chart-minutes"
      />
      <ChartCard
        title={t('dash.moneyOverTime')}
        kind="bar"
        data={rows}
        series={[
          { key: 'revenue', name: t('stats.revenue') },
          ...(charts?.coverage.cost_visible
            ? [
                { key: 'cost', name: t('stats.cost') },
                { key: 'profit', name: t('stats.profit') },
              ]
            : []),
        ]}
        testId="dash-chart-money"
      />
      {peaks && (
        <>
          <Row gutter={12} style={{ marginBottom: 12 }}>
            {(
              [
                ['busiest-hour', 'dash.busiestHour', when(peaks.busiest_hour, false)],
                ['busiest-day', 'dash.busiestDay', when(peaks.busiest_day, true)],
                ['peak-24h', 'dash.peakChannels', `${countShown(peaks.peak_channels_24h)} / 24 h`],
                ['peak-7d', 'dash.peakChannels', `${countShown(peaks.peak_channels_7d)} / 7 d`],
              ] as const
            ).map(([k, title, v]) => (
              <Col key={k} xs={12} xl={6}>
                <Card size="small" data-testid={`dash-${k}`}>
                  <Figure title={t(title)} value={v} />
                </Card>
              </Col>
            ))}
          </Row>
          <Row gutter={12}>
            <Col xs={24} xl={12}>
              <ChartCard
                title={t('dash.peaks24h')}
                kind="bar"
                data={chartRows(peaks.hours, tz, 60)}
                series={[...calls, ...channels]}
                testId="dash-peaks-hours"
              />
            </Col>
            <Col xs={24} xl={12}>
              <ChartCard
                title={t('dash.peaks7d')}
                kind="bar"
                data={chartRows(peaks.days, tz, 1440)}
                series={[...calls, ...channels]}
                testId="dash-peaks-days"
              />
            </Col>
          </Row>
        </>
      )}
    </>
  );
}
