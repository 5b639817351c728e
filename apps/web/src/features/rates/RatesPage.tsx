import {
  CalendarOutlined,
  DownloadOutlined,
  PlusOutlined,
  UploadOutlined,
  CalculatorOutlined,
} from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { ApiError, call, urlOf } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { InlineEditActions } from '../../components/EditDeleteActions';
import { Spinner } from '../../components/Spinner';
import { serverMessage } from '../../i18n';
import { getToken } from '../../lib/storage';
import { RATE_COLUMN_LABEL } from './columns';
import './i18n';
import { MassEditDialog } from './MassEditDialog';
import { RateImportDialog } from './RateImportDialog';
import { useListState } from './useListState';

type Rate = api.rates.RateRow;
type Column = keyof Omit<Rate, 'rate_id' | 'state'>;
const NEW = -1;
const MONEY: Column[] = ['rate', 'intra_rate', 'inter_rate', 'ij_rate', 'local_rate', 'setup_fee'];
const INTS: Column[] = ['min_time', 'interval', 'grace_time'];
const LABEL: Record<Column, string> = {
  code: 'rates.code',
  code_name: 'rates.codeName',
  country: 'rates.country',
  ...RATE_COLUMN_LABEL,
  min_time: 'rates.minTime',
  interval: 'rates.interval',
  setup_fee: 'rates.setupFee',
  grace_time: 'rates.graceTime',
  effective_date: 'rates.effectiveDate',
  end_date: 'rates.endDate',
};
const WIDTH: Partial<Record<Column, number>> = {
  code: 120,
  code_name: 220,
  country: 140,
  rate: 100,
  intra_rate: 100,
  inter_rate: 100,
  ij_rate: 100,
  local_rate: 100,
  setup_fee: 100,
  min_time: 80,
  interval: 80,
  grace_time: 80,
  effective_date: 150,
  end_date: 150,
};
const STATE_COLOR = { current: 'green', future: 'blue', ended: 'default' } as const;
/** ISO instant -> 'YYYY-MM-DD HH:mm' (UTC), the form the inputs take. */
const shown = (iso: string | null) =>
  iso
    ? iso
        .slice(0, 16)
        .replace('T', ' ')
        .replace(/ 00:00$/, '')
    : '';

/** Form values -> request body: empty optional amounts are null, numbers are numbers, dates as typed. */
function bodyOf(v: Record<string, string>): Record<string, unknown> {
  const b: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(v)) {
    const x = typeof raw === 'string' ? raw.trim() : raw;
    if (INTS.includes(k as Column)) b[k] = x === '' || x === undefined ? undefined : Number(x);
    else if (MONEY.includes(k as Column) && k !== 'rate' && k !== 'setup_fee')
      b[k] = x === '' || x === undefined ? null : x;
    else if (k === 'end_date') b[k] = x ? x : null;
    else if (x !== undefined) b[k] = x;
  }
  for (const k of Object.keys(b)) if (b[k] === undefined) delete b[k];
  return b;
}

/**
 * The rate editing page (Routing > Rate Table > rates; also Termination > Rate Modification): rows
 * with server paging and filters (code, code name, country, effective state), inline add and edit,
 * end dates, delete, import with progress, export CSV/XLSX and mass edit.
 */
export default function RatesPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id ?? params.rateTableId);
  const qc = useQueryClient();
  const { confirm, flash } = useFeedback();
  const [form] = Form.useForm<Record<string, string>>();
  const [editing, setEditing] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [importOpen, setImportOpen] = useState(false);
  const [massOpen, setMassOpen] = useState(false);
  const [endOpen, setEndOpen] = useState(false);
  const [endDate, setEndDate] = useState('');
  const ls = useListState({ orderBy: 'code' });
  const table = useApi(api.rates.rateTable.get, { params: { id } });
  const list = useApi(api.rates.listRates, { params: { id }, query: ls.query as never });
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: [api.rates.listRates.method, api.rates.listRates.path] });
    await qc.invalidateQueries({ queryKey: [api.rates.rateTable.get.method, api.rates.rateTable.get.path] });
  };
  if (table.isLoading || !table.data) return <Spinner />;
  const info = table.data;
  const filter: api.rates.RateFilters = {
    code: ls.filters.code,
    code_name: ls.filters.code_name,
    country: ls.filters.country,
    state: ls.filters.state as api.rates.RateState | undefined,
  };

  const shownColumns: Column[] = [
    'code',
    'code_name',
    'country',
    'rate',
    ...(info.rate_type === 'us_jurisdictional' ? (['intra_rate', 'inter_rate', 'ij_rate'] as Column[]) : []),
    ...(info.require_local_rate ? (['local_rate'] as Column[]) : []),
    'min_time',
    'interval',
    ...(info.require_setup_fee ? (['setup_fee'] as Column[]) : []),
    'grace_time',
    'effective_date',
    'end_date',
  ];
  const massColumns = shownColumns.filter((c): c is api.rates.RateColumn =>
    (api.rates.RATE_COLUMNS as readonly string[]).includes(c),
  );

  const startEdit = (r: Rate | null) => {
    form.resetFields();
    setEditing(r ? r.rate_id : NEW);
    const v: Record<string, string> = {};
    for (const c of shownColumns) {
      const x = r ? r[c] : c === 'min_time' || c === 'interval' ? 1 : c === 'grace_time' ? 0 : '';
      v[c] =
        c === 'effective_date' || c === 'end_date' ? shown(x as string | null) : x === null ? '' : String(x);
    }
    if (!r) v.effective_date = new Date().toISOString().slice(0, 10);
    form.setFieldsValue(v);
  };

  const save = async () => {
    form.setFields(shownColumns.map((c) => ({ name: c, errors: [] })));
    const body = bodyOf(form.getFieldsValue());
    const schema = editing === NEW ? api.rates.rateFields.strict() : api.rates.rateUpdate;
    const parsed = schema.safeParse(body);
    const issues = parsed.success
      ? api.rates
          .rateRowIssues(parsed.data as never)
          .map((i) => ({ path: [i.field], message: i.key as string }))
      : parsed.error.issues;
    if (issues.length) {
      form.setFields(
        issues.map((i) => ({
          name: String(i.path[0]),
          errors: [serverMessage(i.message, [t(LABEL[String(i.path[0]) as Column] ?? 'rates.code')])],
        })),
      );
      return;
    }
    try {
      if (editing === NEW)
        await call(api.rates.createRate, { params: { id }, body: body as never }, { errorMode: 'inline' });
      else if (editing !== null)
        await call(
          api.rates.updateRate,
          { params: { id, rate_id: editing }, body: body as never },
          { errorMode: 'inline' },
        );
      flash(t(editing === NEW ? 'common.createdSuccessfully' : 'common.modifiedSuccessfully'));
      setEditing(null);
      await refresh();
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors)
            .filter(([k]) => k in LABEL)
            .map(([name, msg]) => ({ name, errors: [msg] })),
        );
    }
  };

  const remove = async (r: Rate) => {
    if (!(await confirm({ title: t('rates.deleteRate', { code: r.code }), danger: true }))) return;
    await call(api.rates.deleteRate, { params: { id, rate_id: r.rate_id } }, { errorMode: 'inline' });
    flash(t('common.deletedSuccessfully'));
    setSelected((s) => s.filter((x) => x !== r.rate_id));
    await refresh();
  };

  const endSelected = async () => {
    try {
      const r = await call(
        api.rates.endRates,
        { params: { id }, body: { rate_ids: selected, end_date: endDate } },
        { errorMode: 'inline' },
      );
      flash(t('rates.endedRows', { count: r.affected }));
      setEndOpen(false);
      setSelected([]);
      await refresh();
    } catch {
      /* the toast names the rule */
    }
  };

  const download = async (format: 'csv' | 'xlsx') => {
    const url = urlOf(api.rates.exportRates, { params: { id }, query: { ...filter, format } });
    const res = await fetch(url, { headers: { 'X-Auth-Token': getToken() ?? '' } });
    if (!res.ok) return flash(t('common.errorOnLoading', { url }), 'error');
    const name =
      /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `rates.${format}`;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(await res.blob());
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    flash(t('common.exportedSuccessfully'));
  };

  const editingRow = (r: Rate) => editing !== null && editing === r.rate_id;
  const cell = (c: Column) => (_: unknown, r: Rate) => {
    if (editingRow(r))
      return (
        <Form.Item name={c} style={{ margin: 0 }}>
          <Input
            size="small"
            placeholder={c.endsWith('_date') ? 'YYYY-MM-DD HH:mm' : undefined}
            data-testid={`rate-input-${c}`}
            onPressEnter={() => void save()}
          />
        </Form.Item>
      );
    const v = r[c];
    return c === 'effective_date' || c === 'end_date' ? shown(v as string | null) : v;
  };
  const columns: TableColumnsType<Rate> = [
    ...shownColumns.map((c) => ({
      key: c,
      title: t(LABEL[c]),
      sorter: [
        'code',
        'code_name',
        'country',
        'rate',
        'intra_rate',
        'inter_rate',
        'effective_date',
        'end_date',
      ].includes(c),
      sortOrder: ls.sortOrder(c),
      render: cell(c),
      width: WIDTH[c],
      align: (MONEY.includes(c) || INTS.includes(c) ? 'right' : undefined) as 'right' | undefined,
    })),
    {
      key: 'state',
      title: t('rates.state'),
      render: (_, r) =>
        r.rate_id === NEW ? null : <Tag color={STATE_COLOR[r.state]}>{t(`rates.states.${r.state}`)}</Tag>,
    },
    {
      key: '_actions',
      title: t('common.actions'),
      width: 130,
      fixed: 'right',
      render: (_, r) => (
        <InlineEditActions
          editingThis={editingRow(r)}
          editingOther={editing !== null}
          onSave={() => void save()}
          onCancel={() => setEditing(null)}
          savePrefix="rate"
          onEdit={() => startEdit(r)}
          onDelete={() => void remove(r)}
          testId={`rate-${r.rate_id}`}
        />
      ),
    },
  ];
  const blank = { rate_id: NEW, state: 'future' } as Rate;
  const rows = [...(editing === NEW ? [blank] : []), ...(list.data?.items ?? [])];

  return (
    <div>
      <div className="page-head">
        <h1 data-testid="rates-title">{t('rates.ratesOf', { name: info.name })}</h1>
        <Space wrap>
          <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="rates-import">
            {t('rates.import')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void download('csv')}
            data-testid="rates-export-csv"
          >
            {t('common.exportCsv')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void download('xlsx')}
            data-testid="rates-export-xlsx"
          >
            {t('rates.exportXlsx')}
          </Button>
          <Button
            icon={<CalculatorOutlined />}
            onClick={() => setMassOpen(true)}
            data-testid="rates-mass-edit"
          >
            {t('rates.massEdit')}
          </Button>
          <Button
            icon={<CalendarOutlined />}
            disabled={!selected.length}
            onClick={() => setEndOpen(true)}
            data-testid="rates-end-selected"
          >
            {t('rates.endSelected')}
            {selected.length ? ` (${selected.length})` : ''}
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={editing !== null}
            onClick={() => startEdit(null)}
            data-testid="rates-add"
          >
            {t('rates.addRate')}
          </Button>
        </Space>
      </div>
      <p style={{ color: '#888', marginTop: -8 }} data-testid="rates-table-info">
        {t(`rates.rateTypes.${info.rate_type}`)} · {info.currency} ·{' '}
        {t(`rates.billingMethods.${info.billing_method}`)} · {t('rates.decimalPlaces')}: {info.decimal_places}
        {info.code_deck_name ? ` · ${t('rates.codeDeck')}: ${info.code_deck_name}` : ''} ·{' '}
        {t('rates.datesUtc')}
      </p>
      <Space wrap style={{ marginBottom: 12 }}>
        {(['code', 'code_name', 'country'] as const).map((f) => (
          <Input.Search
            key={f}
            allowClear
            placeholder={t(
              f === 'code'
                ? 'rates.searchCode'
                : f === 'code_name'
                  ? 'rates.searchName'
                  : 'rates.searchCountry',
            )}
            defaultValue={ls.filters[f]}
            onSearch={(v) => ls.setFilter(f, v)}
            style={{ width: 180 }}
            data-testid={`filter-${f}`}
          />
        ))}
        <Select
          style={{ width: 150 }}
          value={ls.filters.state ?? 'all'}
          onChange={(v) => ls.setFilter('state', v === 'all' ? null : v)}
          data-testid="filter-state"
          options={api.rates.RATE_STATES.map((s) => ({ value: s, label: t(`rates.states.${s}`) }))}
        />
      </Space>
      <Form form={form} component={false}>
        <Table<Rate>
          rowKey="rate_id"
          size="small"
          scroll={{ x: 'max-content' }}
          loading={list.isLoading}
          dataSource={rows}
          columns={columns}
          data-testid="list-rates"
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(Number).filter((k) => k !== NEW)),
            getCheckboxProps: (r) => ({ disabled: r.rate_id === NEW }),
          }}
          onRow={(r) =>
            ({
              'data-testid': `rate-row-${r.rate_id === NEW ? 'new' : r.code}`,
            }) as React.HTMLAttributes<HTMLElement>
          }
          onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
          pagination={ls.pagination(list.data?.total ?? 0)}
        />
      </Form>
      <RateImportDialog
        open={importOpen}
        onClose={() => setImportOpen(false)}
        title={t('rates.importTitle', { name: info.name })}
        url={api.rates.importRates.path.replace(':id', String(id))}
        onDone={() => void refresh()}
      />
      <MassEditDialog
        open={massOpen}
        onClose={() => setMassOpen(false)}
        tableId={id}
        tableName={info.name}
        columns={massColumns}
        filter={filter}
        rateIds={selected}
        matching={list.data?.total ?? 0}
        onDone={() => void refresh()}
      />
      <Modal
        open={endOpen}
        title={t('rates.endDateOf', { count: selected.length })}
        onOk={() => void endSelected()}
        onCancel={() => setEndOpen(false)}
        okButtonProps={{ 'data-testid': 'end-date-apply', disabled: !endDate.trim() }}
        destroyOnHidden
      >
        <Input
          value={endDate}
          onChange={(e) => setEndDate(e.target.value)}
          placeholder="YYYY-MM-DD HH:mm"
          data-testid="end-date-input"
        />
        <p style={{ color: '#888', marginTop: 8 }}>{t('rates.datesUtc')}</p>
      </Modal>
    </div>
  );
}
