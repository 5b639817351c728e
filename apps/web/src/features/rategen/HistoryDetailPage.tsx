import { DownloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Descriptions, Input, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { urlOf } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { getToken } from '../../lib/storage';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import { STATUS_COLOR } from './HistoryPage';
import './i18n';

type Rate = api.rateGeneration.GeneratedRateRow;

/** Tools > Rate Generation > history_detail/{id}: a run and its generated rates (cost, vendor, margin of each). */
export default function HistoryDetailPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const id = Number(useParams().id);
  const ls = useListState({ orderBy: 'code', perPage: 50 });
  const run = useApi(
    api.rateGeneration.getHistory,
    { params: { id } },
    {
      refetchInterval: (q) => (q.state.data?.status === 'Initial' ? 1000 : false),
    },
  );
  const rates = useApi(
    api.rateGeneration.listGeneratedRates,
    { params: { id }, query: ls.query as never },
    {
      enabled: run.data?.status === 'Finished',
    },
  );
  const h = run.data;
  const jurisdictional = h?.rate_table_type === 'us_jurisdictional';

  const download = async () => {
    const url = urlOf(api.rateGeneration.exportGeneratedRates, { params: { id } });
    const res = await fetch(url, { headers: { 'X-Auth-Token': getToken() ?? '' } });
    if (!res.ok) return flash(t('common.errorOnLoading', { url }), 'error');
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'rates.csv';
    const a = document.createElement('a');
    a.href = URL.createObjectURL(await res.blob());
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    flash(t('common.exportedSuccessfully'));
  };

  const margin = (r: Rate) => {
    if (r.source === 'default') return t('rategen.defaultSource');
    if (r.markup_type === null) return t('rategen.noMargin');
    return r.markup_type === 'percentage' ? `+${r.markup}%` : `+${r.markup}`;
  };
  const money = (key: keyof Rate, title: string) => ({
    key,
    title: t(title),
    dataIndex: key,
    align: 'right' as const,
  });

  return (
    <div>
      <div className="page-head">
        <h1>{t('rategen.historyDetail', { id })}</h1>
        <Space>
          <Link to="/tools/rate_generation/history">
            <Button>{t('rategen.history')}</Button>
          </Link>
          <Button
            icon={<DownloadOutlined />}
            disabled={h?.status !== 'Finished'}
            onClick={() => void download()}
            data-testid="export-generated"
          >
            {t('rategen.exportCsv')}
          </Button>
          {h?.status === 'Finished' && h.rate_count > 0 && (
            <Link to={`/tools/rate_generation/apply_to_rate_table/${id}`}>
              <Button type="primary" data-testid="apply-generated">
                {t('rategen.apply')}
              </Button>
            </Link>
          )}
        </Space>
      </div>
      {h && (
        <Descriptions size="small" column={3} style={{ marginBottom: 16 }} data-testid="generation-summary">
          <Descriptions.Item label={t('rategen.template')}>{h.template_name}</Descriptions.Item>
          <Descriptions.Item label={t('rategen.status')}>
            <Tag color={STATUS_COLOR[h.status]} data-testid="generation-status">
              {t(`rategen.statuses.${h.status}`)}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('rategen.rateCount')}>{h.rate_count}</Descriptions.Item>
          <Descriptions.Item label={t('rategen.rateTableType')}>
            {t(`rategen.rateTypes.${h.rate_table_type}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('rategen.rateDate')}>{when(h.rate_date)}</Descriptions.Item>
          <Descriptions.Item label={t('rategen.applied')}>
            {h.applied ? `${t('rategen.yes')}: ${h.rate_table_name ?? ''}` : t('rategen.no')}
          </Descriptions.Item>
          {h.message && <Descriptions.Item label={t('rategen.message')}>{h.message}</Descriptions.Item>}
        </Descriptions>
      )}
      <Space style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('rategen.searchCode')}
          defaultValue={ls.filters.code}
          onSearch={(v) => ls.setFilter('code', v)}
          style={{ width: 220 }}
          data-testid="filter-code"
        />
      </Space>
      <Table<Rate>
        rowKey="code"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={run.isLoading || rates.isLoading}
        dataSource={rates.data?.items ?? []}
        data-testid="generated-rates"
        onRow={(r) => ({ 'data-testid': `generated-${r.code}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(rates.data?.total ?? 0)}
        columns={[
          {
            key: 'code',
            title: t('rategen.code'),
            dataIndex: 'code',
            sorter: true,
            sortOrder: ls.sortOrder('code'),
          },
          { key: 'code_name', title: t('rategen.codeName'), dataIndex: 'code_name', sorter: true },
          { key: 'country', title: t('rategen.country'), dataIndex: 'country' },
          { ...money('rate', 'rategen.rate'), sorter: true, sortOrder: ls.sortOrder('rate') },
          ...(jurisdictional
            ? [
                money('intra_rate', 'rategen.intraRate'),
                money('inter_rate', 'rategen.interRate'),
                money('ij_rate', 'rategen.ijRate'),
                money('local_rate', 'rategen.localRate'),
              ]
            : []),
          { ...money('cost', 'rategen.cost'), render: (_: unknown, r: Rate) => r.cost ?? '—' },
          {
            key: 'vendor_trunk_name',
            title: t('rategen.vendorTrunk'),
            render: (_, r) => r.vendor_trunk_name ?? '—',
          },
          { key: 'margin', title: t('rategen.margin'), render: (_, r) => margin(r) },
          { key: 'vendor_count', title: t('rategen.vendorCount'), dataIndex: 'vendor_count', align: 'right' },
        ]}
      />
    </div>
  );
}
