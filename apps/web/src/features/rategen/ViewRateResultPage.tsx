import { api } from '@tandem/contract';
import { Button, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, useSearchParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import './i18n';

type Rate = api.rates.RateRow;

/**
 * Tools > Rate Generation > view_rate_result/{rate table id}?rate_generation_id=: the rates of the
 * table a generation was applied to. Without the query the user goes to the rate generation list.
 */
export default function ViewRateResultPage() {
  const [sp] = useSearchParams();
  const generation = Number(sp.get('rate_generation_id'));
  if (!Number.isInteger(generation) || generation <= 0)
    return <Navigate to="/tools/rate_generation" replace />;
  return <Result generation={generation} />;
}

function Result({ generation }: { generation: number }) {
  const { t } = useTranslation();
  const table = Number(useParams().id);
  const ls = useListState({ orderBy: 'code', perPage: 50 });
  const run = useApi(api.rateGeneration.getHistory, { params: { id: generation } });
  const info = useApi(api.rates.rateTable.get, { params: { id: table } });
  const { rate_generation_id: _g, ...query } = ls.query as Record<string, unknown>;
  const rates = useApi(api.rates.listRates, { params: { id: table }, query: query as never });
  return (
    <div>
      <div className="page-head">
        <h1 data-testid="result-title">
          {t('rategen.resultOf', {
            table: info.data?.name ?? '',
            id: generation,
            template: run.data?.template_name ?? '',
          })}
        </h1>
        <Space>
          <Link to={`/tools/rate_generation/history_detail/${generation}`}>
            <Button>{t('rategen.historyDetail', { id: generation })}</Button>
          </Link>
          <Link to={`/routing/rate_table/editing_rates/${table}`}>
            <Button type="primary">{t('rategen.viewRates')}</Button>
          </Link>
        </Space>
      </div>
      <Table<Rate>
        rowKey="rate_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={rates.isLoading}
        dataSource={rates.data?.items ?? []}
        data-testid="result-rates"
        onRow={(r) => ({ 'data-testid': `result-${r.code}-${r.state}` }) as React.HTMLAttributes<HTMLElement>}
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
          { key: 'code_name', title: t('rategen.codeName'), dataIndex: 'code_name' },
          { key: 'rate', title: t('rategen.rate'), dataIndex: 'rate', align: 'right' },
          { key: 'min_time', title: t('rategen.minTime'), dataIndex: 'min_time', align: 'right' },
          { key: 'interval', title: t('rategen.interval'), dataIndex: 'interval', align: 'right' },
          {
            key: 'effective_date',
            title: t('rategen.effectiveDate'),
            render: (_, r) => when(r.effective_date),
          },
          { key: 'end_date', title: t('rategen.endExisting'), render: (_, r) => when(r.end_date) || '—' },
        ]}
      />
    </div>
  );
}
