import { Card } from 'antd';
import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

/** What every dashboard tab gets: the quick range, the user's zone and the auto-refresh. */
export interface TabProps {
  range: string;
  tz: string;
  refetchInterval: number | false;
}

export const COLORS = [
  '#1677ff',
  '#52c41a',
  '#fa8c16',
  '#eb2f96',
  '#722ed1',
  '#13c2c2',
  '#faad14',
  '#a0d911',
];

/** One series of a chart: the data key, its legend, and (for a combined chart) its kind. */
export interface Series {
  key: string;
  name: string;
  kind?: 'bar' | 'line';
}

/**
 * A card with a line or bar chart over points keyed by `x` (recharts, the app's chart library),
 * its test id carrying the number of points; nothing but the title when there are no points.
 */
export function ChartCard({
  title,
  data,
  series,
  kind = 'line',
  testId,
  height = 240,
  extra,
}: {
  title: string;
  data: Record<string, unknown>[];
  series: Series[];
  kind?: 'line' | 'bar';
  testId: string;
  height?: number;
  extra?: ReactNode;
}) {
  const grid = <CartesianGrid strokeDasharray="3 3" />;
  const axes = [<XAxis key="x" dataKey="x" minTickGap={16} />, <YAxis key="y" />];
  return (
    <Card size="small" title={title} extra={extra} style={{ marginBottom: 12 }}>
      <div data-testid={testId} data-points={data.length} style={{ width: '100%', height }}>
        <ResponsiveContainer>
          {kind === 'bar' ? (
            <BarChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
              {grid}
              {axes}
              <Tooltip />
              <Legend />
              {series.map((s, i) => (
                <Bar
                  key={s.key}
                  dataKey={s.key}
                  name={s.name}
                  fill={COLORS[i % COLORS.length]}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          ) : (
            <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
              {grid}
              {axes}
              <Tooltip />
              <Legend />
              {series.map((s, i) => (
                <Line
                  key={s.key}
                  type="monotone"
                  dataKey={s.key}
                  name={s.name}
                  stroke={COLORS[i % COLORS.length]}
                  dot={false}
                  connectNulls
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          )}
        </ResponsiveContainer>
      </div>
    </Card>
  );
}

/** A step's time as the axis shows it: the day for day steps, else month-day and time. */
export const stepLabel = (local: string, stepMinutes: number) =>
  stepMinutes >= 1440 ? local.slice(0, 10) : local.slice(5);
