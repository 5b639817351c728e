import { api } from '@tandem/contract';
import { Col, Row, Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi } from '../../../api/queries';
import { countShown, inZone, ratioShown } from '../i18n';
import { CoverageNote } from '../parts';
import { chartRows } from './ChartsTab';
import { ChartCard, stepLabel, type TabProps } from './common';

type Point = z.output<typeof api.dashboard.chartPoint>;

/** Dashboard > QoS Report: ASR and NER, ACD and PDD over the range, and the steps as a table. */
export function QosReportTab({ range, tz, refetchInterval }: TabProps) {
  const { t } = useTranslation();
  const charts = useApi(
    api.dashboard.getCharts,
    { query: { range, tz } },
    { refetchInterval, callOptions: { errorMode: 'inline' } },
  ).data;
  if (!charts) return null;
  const rows = chartRows(charts.series, tz, charts.step_minutes);
  const columns: TableProps<Point>['columns'] = [
    { key: 'at', title: t('dash.at'), render: (_, p) => stepLabel(inZone(p.at, tz), charts.step_minutes) },
    { key: 'attempts', title: t('stats.attempts'), align: 'right', render: (_, p) => countShown(p.attempts) },
    { key: 'answered', title: t('stats.answered'), align: 'right', render: (_, p) => countShown(p.answered) },
    ...(['asr', 'acd', 'aloc', 'ner'] as const).map((k) => ({
      key: k,
      title: t(`stats.${k}`),
      align: 'right' as const,
      render: (_: unknown, p: Point) => ratioShown(p[k]),
    })),
    { key: 'pdd', title: t('stats.pdd'), align: 'right', render: (_, p) => countShown(p.pdd) },
    {
      key: 'short',
      title: t('stats.shortCalls'),
      align: 'right',
      render: (_, p) => countShown(p.short_calls),
    },
  ];
  return (
    <>
      <CoverageNote coverage={charts.coverage} tz={tz} />
      <ChartCard
        title={t('dash.asrNer')}
        data={rows}
        series={[
          { key: 'asr', name: t('stats.asr') },
          { key: 'ner', name: t('stats.ner') },
        ]}
        testId="dash-qos-asr"
      />
      <Row gutter={12}>
        <Col xs={24} xl={12}>
          <ChartCard
            title={t('dash.acdOverTime')}
            data={rows}
            series={[{ key: 'acd', name: t('stats.acd') }]}
            testId="dash-qos-acd"
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard
            title={t('dash.pddOverTime')}
            data={rows}
            series={[{ key: 'pdd', name: t('stats.pdd') }]}
            testId="dash-qos-pdd"
          />
        </Col>
      </Row>
      <Table
        size="small"
        rowKey="at"
        dataSource={[...charts.series].reverse().filter((p) => p.attempts > 0)}
        columns={columns}
        pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
        data-testid="dash-qos-table"
      />
    </>
  );
}
