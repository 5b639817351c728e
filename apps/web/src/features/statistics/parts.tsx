import type { api } from '@tandem/contract';
import { Alert, Card, Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { z } from 'zod';
import { Figure } from '../../components/Figure';
import { countShown, inZone, minutesShown, moneyShown, ratioShown } from './i18n';

type Figures = z.output<typeof api.stats.figures>;
type Coverage = z.output<typeof api.stats.coverage>;
type Point = z.output<typeof api.stats.seriesPoint>;
type Row = z.output<typeof api.stats.summaryRow>;

/** What range the figures cover, and a warning when it starts before the summaries. */
export function CoverageNote({ coverage, tz }: { coverage: Coverage; tz: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="muted" data-testid="stats-coverage" style={{ marginBottom: 8 }}>
        {t('stats.covered', {
          from: inZone(coverage.from, tz),
          to: inZone(coverage.to, tz),
          tz: `GMT ${tz}`,
        })}
      </div>
      {coverage.data_from === null ? (
        <Alert type="info" showIcon message={t('stats.noData')} style={{ marginBottom: 8 }} />
      ) : !coverage.complete ? (
        <Alert
          type="warning"
          showIcon
          data-testid="stats-incomplete"
          message={t('stats.incomplete', { date: inZone(coverage.data_from, tz) })}
          style={{ marginBottom: 8 }}
        />
      ) : null}
    </>
  );
}

/** The headline figures as cards (revenue labelled as spend or earnings in the portals). */
export function FigureCards({
  f,
  costVisible,
  revenueLabel = 'stats.revenue',
  testPrefix = 'dash',
}: {
  f: Figures;
  costVisible: boolean;
  revenueLabel?: string;
  testPrefix?: string;
}) {
  const { t } = useTranslation();
  const card = (key: string, title: string, value: string | number) => (
    <Card key={key} size="small" data-testid={`${testPrefix}-${key}`}>
      <Figure title={t(title)} value={value} />
    </Card>
  );
  return (
    <div className="stat-grid">
      {card('attempts', 'stats.attempts', countShown(f.attempts))}
      {card('answered', 'stats.answered', countShown(f.answered))}
      {card('non-zero', 'stats.nonZero', countShown(f.non_zero))}
      {card('minutes', 'stats.minutes', minutesShown(f.duration))}
      {card('revenue', revenueLabel, moneyShown(f.revenue))}
      {costVisible && card('cost', 'stats.cost', moneyShown(f.cost))}
      {costVisible && card('profit', 'stats.profit', moneyShown(f.profit))}
      {card('asr', 'stats.asr', ratioShown(f.asr))}
      {card('acd', 'stats.acd', ratioShown(f.acd))}
      {card('pdd', 'stats.pdd', countShown(f.pdd))}
      {card('ner', 'stats.ner', ratioShown(f.ner))}
    </div>
  );
}

/** Calls over time (attempts and answered per step), times in the user's zone. */
export function CallsChart({
  series,
  tz,
  stepMinutes,
}: {
  series: Point[];
  tz: string;
  stepMinutes: number;
}) {
  const { t } = useTranslation();
  const data = series.map((p) => ({
    at: stepMinutes >= 1440 ? inZone(p.at, tz).slice(0, 10) : inZone(p.at, tz).slice(5),
    attempts: p.attempts,
    answered: p.answered,
  }));
  return (
    <div data-testid="calls-chart" data-points={data.length} style={{ width: '100%', height: 260 }}>
      <ResponsiveContainer>
        <AreaChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="at" minTickGap={24} />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend />
          <Area
            type="monotone"
            dataKey="attempts"
            name={t('stats.attempts')}
            stroke="#1677ff"
            fill="#1677ff"
            fillOpacity={0.15}
            isAnimationActive={false}
          />
          <Area
            type="monotone"
            dataKey="answered"
            name={t('stats.answered')}
            stroke="#52c41a"
            fill="#52c41a"
            fillOpacity={0.25}
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}

/** A top list: name, attempts, minutes, ASR, ACD (and revenue). */
export function TopTable({
  title,
  rows,
  label,
  testId,
}: {
  title: string;
  rows: Row[];
  label: (r: Row) => string;
  testId: string;
}) {
  const { t } = useTranslation();
  const columns: TableProps<Row>['columns'] = [
    { key: 'name', title: '', render: (_, r) => label(r), ellipsis: { showTitle: true } },
    { key: 'attempts', title: t('stats.attempts'), render: (_, r) => countShown(r.attempts), align: 'right' },
    { key: 'minutes', title: t('stats.minutes'), render: (_, r) => minutesShown(r.duration), align: 'right' },
    { key: 'asr', title: t('stats.asr'), render: (_, r) => ratioShown(r.asr), align: 'right' },
    { key: 'acd', title: t('stats.acd'), render: (_, r) => ratioShown(r.acd), align: 'right' },
    { key: 'revenue', title: t('stats.revenue'), render: (_, r) => moneyShown(r.revenue), align: 'right' },
  ];
  return (
    <Card size="small" title={title}>
      <Table
        size="small"
        rowKey={(r) => label(r)}
        pagination={false}
        dataSource={rows}
        columns={columns}
        data-testid={testId}
        className="top-table"
        scroll={{ y: 360 }}
      />
    </Card>
  );
}
