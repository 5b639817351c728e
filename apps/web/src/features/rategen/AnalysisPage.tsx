import { DownloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Alert, Button, Card, Input, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { urlOf } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { getToken } from '../../lib/storage';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import './i18n';

type Row = api.rateGeneration.AnalysisRow;
type Change = api.rateGeneration.RateChange;

const CHANGE_COLOR: Record<Change, string | undefined> = {
  new: 'blue',
  increase: 'red',
  decrease: 'green',
  unchanged: undefined,
  ended: 'orange',
};
const ALL = { page: 0, per_page: 9999, order_by: 'name', order_dir: 'asc' as const };
const FILTERS = ['at', 'column', 'change', 'code', 'code_name', 'country'] as const;
/** Labels of the rate columns a US jurisdictional run can be compared in. */
const COLUMN_LABEL: Record<api.rates.RateColumn, string> = {
  rate: 'rategen.rate',
  intra_rate: 'rategen.intraRate',
  inter_rate: 'rategen.interRate',
  ij_rate: 'rategen.ijRate',
  local_rate: 'rategen.localRate',
};

/**
 * Tools > Rate Generation > History > Analysis (?rate_generation_id=&rate_table_id=): a finished
 * run against a rate table of its type, before applying it: per code the table's current rate and
 * the generated one, the change, and for new codes what calls to them cost now by prefix; a
 * summary of the whole comparison (each count filters the list), filters, server paging, CSV.
 * Without the run or the table, the page offers the finished runs and the tables of the run's type.
 */
export default function AnalysisPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const ls = useListState({ orderBy: 'code', perPage: 50 });
  const f = ls.filters;
  const runId = Number(f.rate_generation_id) || null;
  const tableId = Number(f.rate_table_id) || null;

  const runs = useApi(
    api.rateGeneration.listHistory,
    { query: { page: 0, per_page: 200, order_by: 'start_time', order_dir: 'desc', status: 'Finished' } },
    { callOptions: { errorMode: 'inline' } },
  );
  const run = useApi(
    api.rateGeneration.getHistory,
    { params: { id: runId ?? 0 } },
    { enabled: runId !== null },
  );
  const type = run.data?.rate_table_type;
  const tables = useApi(
    api.rates.rateTable.list,
    { query: { ...ALL, rate_type: type } },
    { enabled: Boolean(type), callOptions: { errorMode: 'inline' } },
  );
  const query = {
    rate_table_id: tableId ?? 0,
    ...Object.fromEntries(FILTERS.filter((k) => f[k]).map((k) => [k, f[k]])),
    page: ls.page,
    per_page: ls.perPage,
    order_by: ls.query.order_by,
    order_dir: ls.query.order_dir,
  };
  const ready = runId !== null && tableId !== null;
  const analysis = useApi(
    api.rateGeneration.analyse,
    { params: { id: runId ?? 0 }, query: query as never },
    { enabled: ready, callOptions: { errorMode: 'inline' } },
  );
  const a = analysis.data;

  const download = async () => {
    if (!ready) return;
    const url = urlOf(api.rateGeneration.exportAnalysis, {
      params: { id: runId },
      query: query as never,
    });
    const res = await fetch(url, { headers: { 'X-Auth-Token': getToken() ?? '' } });
    if (!res.ok) return flash(t('common.errorOnLoading', { url }), 'error');
    const name =
      /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'analysis.csv';
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await res.blob());
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    flash(t('common.exportedSuccessfully'));
  };

  const money = (key: keyof Row, title: string, sortable = true) => ({
    key,
    title: t(title),
    align: 'right' as const,
    sorter: sortable,
    sortOrder: ls.sortOrder(key),
    render: (_: unknown, r: Row) => r[key] ?? '—',
  });

  return (
    <div>
      <div className="page-head">
        <h1>{t('rategen.analysis')}</h1>
        <Space>
          <Link to="/tools/rate_generation/history">
            <Button>{t('rategen.history')}</Button>
          </Link>
          <Button
            icon={<DownloadOutlined />}
            disabled={!a}
            onClick={() => void download()}
            data-testid="export-analysis"
          >
            {t('rategen.exportCsv')}
          </Button>
          {runId !== null && run.data && run.data.rate_count > 0 && (
            <Link to={`/tools/rate_generation/apply_to_rate_table/${runId}`}>
              <Button type="primary">{t('rategen.apply')}</Button>
            </Link>
          )}
        </Space>
      </div>
      <Space wrap style={{ marginBottom: 12 }} align="start">
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={t('rategen.analysisRun')}
          value={runId ?? undefined}
          onChange={(v: number) =>
            ls.setFilters({ rate_generation_id: String(v), rate_table_id: null, column: null })
          }
          style={{ width: 360 }}
          data-testid="analysis-run"
          options={[
            ...(runs.data?.items ?? []),
            ...(run.data && !runs.data?.items.some((r) => r.id === run.data.id) ? [run.data] : []),
          ].map((r) => ({
            value: r.id,
            label: `#${r.id} ${r.template_name} · ${when(r.start_time).slice(0, 16)}`,
          }))}
        />
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={t('rategen.analysisTable')}
          value={tableId ?? undefined}
          disabled={runId === null}
          onChange={(v: number) => ls.setFilter('rate_table_id', String(v))}
          style={{ width: 280 }}
          data-testid="analysis-table"
          options={(tables.data?.items ?? []).map((x) => ({ value: x.rate_table_id, label: x.name }))}
        />
        {type === 'us_jurisdictional' && (
          <Tooltip title={t('rategen.analysisColumnHelp')}>
            <Select
              value={(f.column as api.rates.RateColumn | undefined) ?? 'rate'}
              onChange={(v: api.rates.RateColumn) => ls.setFilter('column', v === 'rate' ? null : v)}
              style={{ width: 160 }}
              data-testid="analysis-column"
              options={api.rates.RATE_COLUMNS.map((c) => ({ value: c, label: t(COLUMN_LABEL[c]) }))}
            />
          </Tooltip>
        )}
        <Tooltip title={t('rategen.analysisAtHelp')}>
          <Input.Search
            allowClear
            placeholder={t('rategen.analysisAt')}
            defaultValue={f.at}
            onSearch={(v) => ls.setFilter('at', v.trim())}
            style={{ width: 200 }}
            data-testid="analysis-at"
          />
        </Tooltip>
      </Space>
      {!ready && (
        <Alert type="info" showIcon message={t('rategen.analysisChoose')} data-testid="analysis-choose" />
      )}
      {ready && (
        <>
          {a && run.data && (
            <Card size="small" style={{ marginBottom: 12 }} data-testid="analysis-summary">
              <div style={{ marginBottom: 8 }}>
                {t('rategen.analysisOf', {
                  id: runId,
                  template: run.data.template_name,
                  table: a.rate_table.name,
                  at: when(a.at).slice(0, 16),
                })}
                {a.column !== 'rate' && ` · ${t(COLUMN_LABEL[a.column])}`}
              </div>
              <Space wrap>
                <Tag.CheckableTag
                  checked={!f.change}
                  onChange={() => ls.setFilter('change', null)}
                  data-testid="summary-all"
                >
                  {t('rategen.allCodes')}: {a.summary.total}
                </Tag.CheckableTag>
                {api.rateGeneration.RATE_CHANGES.map((c) => (
                  <Tooltip key={c} title={c === 'ended' ? t('rategen.endedHelp') : undefined}>
                    <Tag.CheckableTag
                      checked={f.change === c}
                      onChange={() => ls.setFilter('change', f.change === c ? null : c)}
                      data-testid={`summary-${c}`}
                    >
                      {t(`rategen.changeCounts.${c}`)}: {a.summary[c]}
                    </Tag.CheckableTag>
                  </Tooltip>
                ))}
              </Space>
            </Card>
          )}
          <Space wrap style={{ marginBottom: 12 }}>
            <Select
              allowClear
              placeholder={t('rategen.change')}
              value={f.change}
              onChange={(v?: string) => ls.setFilter('change', v ?? null)}
              style={{ width: 160 }}
              data-testid="filter-change"
              options={api.rateGeneration.RATE_CHANGES.map((c) => ({
                value: c,
                label: t(`rategen.changes.${c}`),
              }))}
            />
            {(
              [
                ['code', 'rategen.searchCode'],
                ['code_name', 'rategen.searchName'],
                ['country', 'rategen.searchCountry'],
              ] as const
            ).map(([k, label]) => (
              <Input.Search
                key={k}
                allowClear
                placeholder={t(label)}
                defaultValue={f[k]}
                onSearch={(v) => ls.setFilter(k, v.trim())}
                style={{ width: 180 }}
                data-testid={`filter-${k}`}
              />
            ))}
          </Space>
          <Table<Row>
            rowKey="code"
            size="small"
            scroll={{ x: 'max-content' }}
            loading={analysis.isLoading}
            dataSource={a?.items ?? []}
            data-testid="analysis-rows"
            onRow={(r) => ({ 'data-testid': `analysis-${r.code}` }) as React.HTMLAttributes<HTMLElement>}
            onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
            pagination={ls.pagination(a?.total ?? 0)}
            columns={[
              {
                key: 'code',
                title: t('rategen.code'),
                dataIndex: 'code',
                sorter: true,
                sortOrder: ls.sortOrder('code'),
              },
              {
                key: 'code_name',
                title: t('rategen.codeName'),
                dataIndex: 'code_name',
                sorter: true,
                sortOrder: ls.sortOrder('code_name'),
              },
              {
                key: 'country',
                title: t('rategen.country'),
                dataIndex: 'country',
                sorter: true,
                sortOrder: ls.sortOrder('country'),
              },
              {
                key: 'change',
                title: t('rategen.change'),
                sorter: true,
                sortOrder: ls.sortOrder('change'),
                render: (_, r) => (
                  <Tag color={CHANGE_COLOR[r.change]}>{t(`rategen.changes.${r.change}`)}</Tag>
                ),
              },
              {
                ...money('current_rate', 'rategen.currentRate'),
                render: (_: unknown, r: Row) =>
                  r.current_rate === null ? (
                    '—'
                  ) : (
                    <Tooltip title={t('rategen.since', { date: when(r.current_effective_date) })}>
                      {r.current_rate}
                    </Tooltip>
                  ),
              },
              money('new_rate', 'rategen.generatedRate'),
              money('difference', 'rategen.difference'),
              {
                ...money('change_percent', 'rategen.changePercent'),
                render: (_: unknown, r: Row) => (r.change_percent === null ? '—' : `${r.change_percent} %`),
              },
              {
                key: 'prefix',
                title: t('rategen.nowPricedBy'),
                render: (_, r) => (r.prefix_code === null ? '—' : `${r.prefix_rate} (${r.prefix_code})`),
              },
            ]}
          />
        </>
      )}
    </div>
  );
}
