import { api, type RerateCarrier, type RerateFigures, type RerateSample } from '@tandem/contract';
import { Alert, Button, Card, Descriptions, Popconfirm, Progress, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { when } from '../routing/shared';
import { busy, percent, STATE_COLOR, useRerateLookups } from './ReratePage';
import './i18n';

/** The figures of a preview or an apply: totals, per carrier, a sample of changed CDRs. */
function Figures({
  figures,
  name,
  testId,
}: {
  figures: RerateFigures;
  name: (id: number) => string;
  testId: string;
}) {
  const { t } = useTranslation();
  const money = (key: string, title: string) => ({
    key,
    title: t(title),
    dataIndex: key,
    align: 'right' as const,
  });
  return (
    <div data-testid={testId}>
      <Descriptions size="small" column={4} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('rerate.cdrs')}>
          <span data-testid={`${testId}-cdrs`}>{figures.cdrs}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('rerate.changed')}>
          <span data-testid={`${testId}-changed`}>{figures.changed}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('rerate.priced')}>{figures.priced}</Descriptions.Item>
        <Descriptions.Item label={t('rerate.oldRevenue')}>{figures.old_revenue}</Descriptions.Item>
        <Descriptions.Item label={t('rerate.newRevenue')}>
          <span data-testid={`${testId}-new-revenue`}>{figures.new_revenue}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('rerate.oldCost')}>{figures.old_cost}</Descriptions.Item>
        <Descriptions.Item label={t('rerate.newCost')}>{figures.new_cost}</Descriptions.Item>
      </Descriptions>
      <Table<RerateCarrier>
        rowKey="client_id"
        size="small"
        pagination={false}
        dataSource={figures.carriers}
        data-testid={`${testId}-carriers`}
        onRow={(r) =>
          ({ 'data-testid': `${testId}-carrier-${r.client_id}` }) as React.HTMLAttributes<HTMLElement>
        }
        columns={[
          { key: 'name', title: t('rerate.carrier'), dataIndex: 'name' },
          {
            key: 'customer_cdrs',
            title: t('rerate.customerCdrs'),
            dataIndex: 'customer_cdrs',
            align: 'right',
          },
          { key: 'vendor_cdrs', title: t('rerate.vendorCdrs'), dataIndex: 'vendor_cdrs', align: 'right' },
          money('old_revenue', 'rerate.oldRevenue'),
          money('new_revenue', 'rerate.newRevenue'),
          money('old_cost', 'rerate.oldCost'),
          money('new_cost', 'rerate.newCost'),
          money('difference', 'rerate.difference'),
        ]}
      />
      {figures.sample.length > 0 && (
        <>
          <h3 style={{ marginTop: 16 }}>{t('rerate.sample')}</h3>
          <Table<RerateSample>
            rowKey="cdr_id"
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={figures.sample}
            data-testid={`${testId}-sample`}
            columns={[
              { key: 'call_id', title: t('rerate.callId'), dataIndex: 'call_id' },
              { key: 'start_time', title: t('rerate.startTime'), render: (_, r) => when(r.start_time) },
              {
                key: 'customer',
                title: t('rerate.customers'),
                render: (_, r) => (r.customer_id === null ? '' : name(r.customer_id)),
              },
              {
                key: 'vendor',
                title: t('rerate.vendors'),
                render: (_, r) => (r.vendor_id === null ? '' : name(r.vendor_id)),
              },
              { key: 'old_rate', title: t('rerate.oldRate'), dataIndex: 'old_rate', align: 'right' },
              { key: 'new_rate', title: t('rerate.newRate'), dataIndex: 'new_rate', align: 'right' },
              money('old_revenue', 'rerate.oldRevenue'),
              money('new_revenue', 'rerate.newRevenue'),
              money('old_cost', 'rerate.oldCost'),
              money('new_cost', 'rerate.newCost'),
              {
                key: 'unpriced',
                title: t('rerate.unpriced'),
                render: (_, r) =>
                  r.old_unpriced === r.new_unpriced
                    ? (r.new_unpriced ?? '')
                    : `${r.old_unpriced ?? '—'} → ${r.new_unpriced ?? '—'}`,
              },
            ]}
          />
        </>
      )}
    </div>
  );
}

/**
 * Tools > Rerate > {id}: a run's filter, state and progress (refreshed while it runs), its preview
 * and, once applied, what the apply did; Apply after a finished preview (Resume after a failed apply).
 */
export default function RerateRunPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const id = Number(useParams().id);
  const lk = useRerateLookups();
  const run = useApi(
    api.rerate.get,
    { params: { id } },
    { refetchInterval: (q) => (q.state.data && busy(q.state.data) ? 700 : false) },
  );
  const apply = useApiMutation(api.rerate.apply, [api.rerate.get, api.rerate.list]);
  const r = run.data;
  const canApply = r && (r.state === 'previewed' || (r.state === 'failed' && r.apply_started_at !== null));
  const f = r?.filter;
  const ids = (list: number[], name: (id: number) => string) =>
    list.length ? list.map(name).join(', ') : t('common.all');

  return (
    <div>
      <div className="page-head">
        <h1>{t('rerate.run', { id })}</h1>
        <Space>
          <Link to="/tools/rerate">
            <Button>{t('rerate.runs')}</Button>
          </Link>
          {canApply && (
            <Popconfirm
              title={t('rerate.applyConfirm')}
              onConfirm={async () => {
                await apply.mutateAsync({ params: { id } });
                flash(t('rerate.applyStarted'));
              }}
            >
              <Button type="primary" loading={apply.isPending} data-testid="rerate-apply">
                {r.state === 'failed' ? t('rerate.resume') : t('rerate.apply')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      </div>
      {r && f && (
        <Card size="small" style={{ marginBottom: 16 }}>
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={t('rerate.state')}>
              <Tag color={STATE_COLOR[r.state]} data-testid="rerate-state">
                {t(`rerate.states.${r.state}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.progress')}>
              <Progress size="small" percent={percent(r)} style={{ width: 160 }} />
              &nbsp;{r.processed} / {r.matched}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.timeRange')}>
              {when(f.start_time)} – {when(f.end_time)}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.customers')}>
              {ids(f.customer_ids, lk.carrierName)}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.vendors')}>
              {ids(f.vendor_ids, lk.carrierName)}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.ingressTrunks')}>
              {ids(f.ingress_trunk_ids, (x) => lk.ingress.find((o) => o.value === x)?.label ?? `#${x}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.egressTrunks')}>
              {ids(f.egress_trunk_ids, (x) => lk.egress.find((o) => o.value === x)?.label ?? `#${x}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.code')}>{f.code || t('common.all')}</Descriptions.Item>
            <Descriptions.Item label={t('rerate.unpricedOnly')}>
              {f.unpriced_only ? '✓' : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.ingressTable')}>
              {f.ingress_rate_table_id === null
                ? t('rerate.trunkTable')
                : (lk.tables.find((o) => o.value === f.ingress_rate_table_id)?.label ??
                  `#${f.ingress_rate_table_id}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.egressTable')}>
              {f.egress_rate_table_id === null
                ? t('rerate.trunkTable')
                : (lk.tables.find((o) => o.value === f.egress_rate_table_id)?.label ??
                  `#${f.egress_rate_table_id}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('rerate.createdBy')}>
              {r.created_by}, {when(r.created_at)}
            </Descriptions.Item>
            {r.applied_by && (
              <Descriptions.Item label={t('rerate.appliedBy')}>
                {r.applied_by}, {when(r.apply_started_at)}
              </Descriptions.Item>
            )}
            {r.finished_at && (
              <Descriptions.Item label={t('rerate.finishedAt')}>{when(r.finished_at)}</Descriptions.Item>
            )}
          </Descriptions>
          {r.error && <Alert type="error" showIcon message={`${t('rerate.error')}: ${r.error}`} />}
        </Card>
      )}
      {r?.result && (
        <Card size="small" title={t('rerate.resultFigures')} style={{ marginBottom: 16 }}>
          <Figures figures={r.result} name={lk.carrierName} testId="rerate-result" />
        </Card>
      )}
      {r?.preview && (
        <Card size="small" title={t('rerate.previewFigures')}>
          <Figures figures={r.preview} name={lk.carrierName} testId="rerate-preview-figures" />
        </Card>
      )}
    </div>
  );
}
