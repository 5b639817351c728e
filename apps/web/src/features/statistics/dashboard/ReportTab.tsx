import { api, type ReportColumn } from '@tandem/contract';
import { Radio, Table, type TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi } from '../../../api/queries';
import { figureColumns, groupLabel } from '../columns';
import { CoverageNote } from '../parts';
import { ChartCard, type TabProps } from './common';

type Row = z.output<typeof api.stats.summaryRow>;
type By = (typeof api.dashboard.REPORT_BY)[number];
const FIGURES: ReportColumn[] = [
  'attempts',
  'answered',
  'duration',
  'asr',
  'acd',
  'pdd',
  'ner',
  'revenue',
  'cost',
  'profit',
];

/** Dashboard > Report: the range per customer, vendor, destination or trunk, every row, sortable, with totals and a chart of the largest. */
export function ReportTab({ range, tz, refetchInterval }: TabProps) {
  const { t } = useTranslation();
  const [by, setBy] = useState<By>('customer');
  const r = useApi(
    api.dashboard.getReport,
    { query: { range, tz, by } },
    { refetchInterval, callOptions: { errorMode: 'inline' } },
  ).data;
  const cols = useMemo(() => (r ? figureColumns(r.totals, false) : null), [r]);
  const shown = FIGURES.filter((c) => r?.coverage.cost_visible || !api.reports.COST_COLUMNS.includes(c));
  const name = (x: Row) => groupLabel(x, [by], t('stats.unknown'));
  const columns: TableProps<Row>['columns'] = cols
    ? [
        {
          key: 'name',
          title: t(`dash.byOptions.${by}`),
          render: (_, x) => name(x),
          sorter: (a, b) => name(a).localeCompare(name(b)),
        },
        ...shown.map((c) => ({
          key: c,
          title: t(cols[c].title),
          align: 'right' as const,
          render: (_: unknown, x: Row) => cols[c].show(x),
          sorter: (a: Row, b: Row) => (cols[c].value(a) ?? -Infinity) - (cols[c].value(b) ?? -Infinity),
        })),
      ]
    : [];
  const chart =
    r && cols
      ? [...r.rows]
          .sort((a, b) => b.attempts - a.attempts)
          .slice(0, 20)
          .map((x) => ({ x: name(x), attempts: x.attempts, minutes: cols.duration.value(x) }))
      : [];
  return (
    <>
      <Radio.Group
        optionType="button"
        value={by}
        onChange={(e) => setBy(e.target.value as By)}
        data-testid="dash-report-by"
        style={{ marginBottom: 12 }}
        options={api.dashboard.REPORT_BY.map((b) => ({ value: b, label: t(`dash.byOptions.${b}`) }))}
      />
      {r && cols && (
        <>
          <CoverageNote coverage={r.coverage} tz={tz} />
          <ChartCard
            title={t('stats.chartOf')}
            kind="bar"
            data={chart}
            testId="dash-report-chart"
            series={[
              { key: 'attempts', name: t('stats.attempts') },
              { key: 'minutes', name: t('stats.minutes') },
            ]}
          />
          <Table
            size="small"
            rowKey={(x) => name(x)}
            dataSource={r.rows}
            columns={columns}
            pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            data-testid="dash-report-table"
            summary={() => (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="dash-report-totals">
                  <Table.Summary.Cell index={0}>{t('stats.total')}</Table.Summary.Cell>
                  {shown.map((c, i) => (
                    <Table.Summary.Cell key={c} index={i + 1} align="right">
                      {cols[c].show(r.totals)}
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            )}
          />
        </>
      )}
    </>
  );
}
