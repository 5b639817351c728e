import { api } from '@tandem/contract';
import { Button, Card, DatePicker, Form, Radio, Space, Table, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { Dropdown } from '../../components/Dropdown';
import { BackgroundExportButton } from '../jobs/BackgroundExportButton';
import { countShown, inZone } from './i18n';
import { ReportMailButtons } from './ReportMail';
import './reports-i18n';

type Row = z.output<typeof api.reports.channelRow>;
const FMT = 'YYYY-MM-DD HH:mm';

/**
 * Statistics > Daily Channel Usage Report: the peak of concurrent calls per day (in the user's
 * zone) and trunk, computed from each call's start and end; a chart of each day's highest peak,
 * a sortable table with the range's highest peak as totals, the XLSX export, e-mail and schedules.
 */
export default function DailyChannelUsagePage() {
  const { t } = useTranslation();
  const { system } = useSignedIn();
  const tz = system.timezone;
  const [sp, setSp] = useSearchParams();
  const today = inZone(new Date().toISOString(), tz).slice(0, 10);
  const q = useMemo(
    () => ({
      from: sp.get('from') ?? `${dayjs(today).subtract(6, 'day').format('YYYY-MM-DD')} 00:00`,
      to: sp.get('to') ?? `${dayjs(today).add(1, 'day').format('YYYY-MM-DD')} 00:00`,
      direction: (sp.get('direction') ?? 'ingress') as 'ingress' | 'egress',
      trunk_ids: sp.get('trunk_ids') ?? '',
    }),
    [sp, today],
  );
  const data = useApi(
    api.reports.getChannelUsage,
    { query: { ...q, tz } },
    { callOptions: { errorMode: 'inline' } },
  ).data;
  const filter = { ...q, tz, trunk_ids: q.trunk_ids ? q.trunk_ids.split(',').map(Number) : [] };
  const run = (v: { range?: [dayjs.Dayjs, dayjs.Dayjs]; direction: string; trunk_ids?: number[] }) => {
    const out = new URLSearchParams();
    if (v.range) {
      out.set('from', v.range[0].format(FMT));
      out.set('to', v.range[1].format(FMT));
    }
    out.set('direction', v.direction);
    if (v.trunk_ids?.length) out.set('trunk_ids', v.trunk_ids.join(','));
    setSp(out, { replace: true });
  };
  const columns: TableProps<Row>['columns'] = [
    { key: 'day', title: t('stats.day'), dataIndex: 'day', sorter: (a, b) => a.day.localeCompare(b.day) },
    {
      key: 'trunk',
      title: t('reports.channels.trunk'),
      render: (_, r) => r.trunk ?? String(r.trunk_id),
      sorter: (a, b) => (a.trunk ?? '').localeCompare(b.trunk ?? ''),
    },
    {
      key: 'peak',
      title: t('reports.channels.peak'),
      align: 'right',
      render: (_, r) => countShown(r.peak),
      sorter: (a, b) => a.peak - b.peak,
    },
    { key: 'peak_at', title: t('reports.channels.peakAt'), render: (_, r) => inZone(r.peak_at, tz) },
    {
      key: 'calls',
      title: t('reports.channels.calls'),
      align: 'right',
      render: (_, r) => countShown(r.calls),
      sorter: (a, b) => a.calls - b.calls,
    },
  ];
  const byDay = new Map<string, number>();
  for (const r of data?.rows ?? []) byDay.set(r.day, Math.max(byDay.get(r.day) ?? 0, r.peak));
  const chart = [...byDay].map(([day, peak]) => ({ day, peak }));

  return (
    <div>
      <div className="page-head">
        <h1>{t('reports.titles.daily_channel_usage_report')}</h1>
        <Space>
          <BackgroundExportButton kind="report.daily_channel_usage_report" filter={filter} format="xlsx" />
          <ReportMailButtons
            name={api.reports.CHANNEL_REPORT}
            title={t('reports.titles.daily_channel_usage_report')}
            query={filter}
            email={api.reports.channelCalls.email}
            schedule={api.reports.channelCalls.schedule}
          />
        </Space>
      </div>
      <Card size="small" style={{ marginBottom: 12 }}>
        <Form
          layout="inline"
          onFinish={run}
          initialValues={{
            range: [dayjs(q.from), dayjs(q.to)],
            direction: q.direction,
            trunk_ids: filter.trunk_ids,
          }}
          style={{ rowGap: 8 }}
        >
          <Form.Item name="range" label={`${t('stats.timeRange')} (GMT ${tz})`}>
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={FMT} data-testid="report-range" />
          </Form.Item>
          <Form.Item name="direction" label={t('reports.channels.direction')}>
            <Radio.Group
              optionType="button"
              data-testid="channels-direction"
              options={[
                { value: 'ingress', label: t('stats.groups.ingress_trunk') },
                { value: 'egress', label: t('stats.groups.egress_trunk') },
              ]}
            />
          </Form.Item>
          <Form.Item name="trunk_ids" label={t('reports.channels.trunk')}>
            <Dropdown
              multiple
              endpoint={api.trunks.trunk.list}
              query={{ direction: q.direction }}
              valueField="trunk_id"
              labelField="name"
              style={{ minWidth: 200 }}
              testId="channels-trunks"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="report-run">
            {t('stats.query')}
          </Button>
        </Form>
      </Card>
      {data && (
        <>
          {chart.length > 0 && (
            <Card size="small" title={t('reports.channels.peak')} style={{ marginBottom: 12 }}>
              <div
                data-testid="report-chart"
                data-points={chart.length}
                style={{ width: '100%', height: 240 }}
              >
                <ResponsiveContainer>
                  <BarChart data={chart} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="day" />
                    <YAxis allowDecimals={false} />
                    <Tooltip />
                    <Bar
                      dataKey="peak"
                      name={t('reports.channels.peak')}
                      fill="#1677ff"
                      isAnimationActive={false}
                    />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            </Card>
          )}
          <Table
            size="small"
            rowKey={(r) => `${r.day}-${r.trunk_id}`}
            dataSource={data.rows}
            columns={columns}
            pagination={{ pageSize: 100, showSizeChanger: false, hideOnSinglePage: true }}
            data-testid="report-table"
            summary={() => (
              <Table.Summary.Row data-testid="report-totals">
                <Table.Summary.Cell index={0}>{t('stats.total')}</Table.Summary.Cell>
                <Table.Summary.Cell index={1} />
                <Table.Summary.Cell index={2} align="right">
                  {countShown(data.peak)}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} />
                <Table.Summary.Cell index={4} align="right">
                  {countShown(data.calls)}
                </Table.Summary.Cell>
              </Table.Summary.Row>
            )}
          />
        </>
      )}
    </div>
  );
}
