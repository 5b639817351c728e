import { api } from '@tandem/contract';
import { Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi } from '../../../api/queries';
import { countShown, inZone, ratioShown } from '../i18n';
import { ChartCard, type TabProps } from './common';

type QosRow = z.output<typeof api.dashboard.qosRow>;
type Window = api.dashboard.QosWindow;
const WINDOWS = Object.keys(api.dashboard.QOS_WINDOWS) as Window[];

/**
 * Dashboard > Inbound (ingress trunks, customers) or Outbound (egress trunks, vendors) Client
 * QoS: per trunk, attempts, ASR, ACD, PDD and NER over the last 15 minutes, hour and 24 hours
 * (sliding windows up to now, not the quick range), with totals and a chart of the last hour's ASR.
 */
export function ClientQosTab({ tz, refetchInterval, side }: TabProps & { side: 'ingress' | 'egress' }) {
  const { t } = useTranslation();
  const q = useApi(
    api.dashboard.getQos,
    { query: { side } },
    { refetchInterval, callOptions: { errorMode: 'inline' } },
  ).data;
  if (!q) return null;
  const group = (w: Window) => ({
    key: w,
    title: t(`dash.windows.${w}`),
    children: [
      {
        key: `${w}-att`,
        title: t('stats.attempts'),
        align: 'right' as const,
        render: (_: unknown, r: QosRow) => countShown(r[w].attempts),
        sorter: (a: QosRow, b: QosRow) => a[w].attempts - b[w].attempts,
      },
      {
        key: `${w}-asr`,
        title: t('stats.asr'),
        align: 'right' as const,
        render: (_: unknown, r: QosRow) => ratioShown(r[w].asr),
        sorter: (a: QosRow, b: QosRow) => (a[w].asr ?? -1) - (b[w].asr ?? -1),
      },
      {
        key: `${w}-acd`,
        title: t('stats.acd'),
        align: 'right' as const,
        render: (_: unknown, r: QosRow) => ratioShown(r[w].acd),
      },
      {
        key: `${w}-pdd`,
        title: t('stats.pdd'),
        align: 'right' as const,
        render: (_: unknown, r: QosRow) => countShown(r[w].pdd),
      },
      {
        key: `${w}-ner`,
        title: t('stats.ner'),
        align: 'right' as const,
        render: (_: unknown, r: QosRow) => ratioShown(r[w].ner),
      },
    ],
  });
  const columns: TableProps<QosRow>['columns'] = [
    {
      key: 'carrier',
      title: t('dash.carrier'),
      render: (_, r) => r.carrier ?? '–',
      sorter: (a, b) => (a.carrier ?? '').localeCompare(b.carrier ?? ''),
    },
    { key: 'trunk', title: t('dash.trunk'), render: (_, r) => r.trunk ?? `#${r.trunk_id}` },
    ...WINDOWS.map(group),
  ];
  const chart = q.rows
    .filter((r) => r.h1.attempts > 0)
    .slice(0, 20)
    .map((r) => ({ x: r.trunk ?? `#${r.trunk_id}`, asr: r.h1.asr, ner: r.h1.ner }));
  const cells = (w: Window) => [
    countShown(q.totals[w].attempts),
    ratioShown(q.totals[w].asr),
    ratioShown(q.totals[w].acd),
    countShown(q.totals[w].pdd),
    ratioShown(q.totals[w].ner),
  ];
  return (
    <>
      <div className="muted" style={{ marginBottom: 8 }} data-testid="dash-qos-at">
        {t('dash.qosAt', { at: `${inZone(q.at, tz)} (GMT ${tz})` })}
      </div>
      <ChartCard
        title={t('dash.asrByTrunk')}
        kind="bar"
        data={chart}
        series={[
          { key: 'asr', name: t('stats.asr') },
          { key: 'ner', name: t('stats.ner') },
        ]}
        testId={`dash-${side}-qos-chart`}
      />
      <Table
        size="small"
        bordered
        rowKey="trunk_id"
        dataSource={q.rows}
        columns={columns}
        pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        data-testid={`dash-${side}-qos-table`}
        summary={() => (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid={`dash-${side}-qos-totals`}>
              <Table.Summary.Cell index={0} colSpan={2}>
                {t('stats.total')}
              </Table.Summary.Cell>
              {WINDOWS.flatMap((w) => cells(w)).map((v, i) => (
                <Table.Summary.Cell key={i} index={i + 2} align="right">
                  {v}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        )}
      />
    </>
  );
}
