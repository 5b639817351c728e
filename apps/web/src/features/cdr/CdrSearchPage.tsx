import { DownloadOutlined, SettingOutlined } from '@ant-design/icons';
import { api, isLanguage, type CdrRow, type Language } from '@tandem/contract';
import {
  Alert,
  Button,
  Checkbox,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Typography,
  type TableProps,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router-dom';
import { urlOf } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useAllowed } from '../../app/permissions';
import { useSignedIn } from '../../app/session';
import { Dropdown } from '../../components/Dropdown';
import { i18next } from '../../i18n';
import { getToken } from '../../lib/storage';
import { BackgroundExportButton } from '../jobs/BackgroundExportButton';
import { CallDrawer } from './CallDrawer';
import { CdrUploadButton } from './CdrUploadDialog';
import { formatCdrValue } from './format';
import './i18n';

dayjs.extend(utc);

type FieldInfo = {
  name: string;
  label: Record<Language, string>;
  type: string;
  leg: string;
  visible: boolean;
};
const { CDR_PAGE_SIZES, CDR_DOWNLOAD_MAX_DAYS } = api.cdrSearch;

/** Filters kept in the URL (a search can be shared as a link). */
const FILTERS = [
  'start',
  'end',
  'ingress_client_id',
  'egress_client_id',
  'ingress_trunk_id',
  'egress_trunk_id',
  'ani',
  'dnis',
  'code',
  'country',
  'duration',
  'answered',
  'release_cause',
  'release_side',
  'call_id',
  'unpriced',
] as const;

const fmt = (d: Dayjs) => d.utc().format('YYYY-MM-DDTHH:mm:ss[Z]');
function quickRanges(t: (k: string) => string): { label: string; value: [Dayjs, Dayjs] }[] {
  const day = dayjs.utc().startOf('day');
  const month = dayjs.utc().startOf('month');
  return [
    { label: t('cdr.quick.today'), value: [day, day.add(1, 'day')] },
    { label: t('cdr.quick.yesterday'), value: [day.subtract(1, 'day'), day] },
    { label: t('cdr.quick.last24h'), value: [dayjs.utc().subtract(24, 'hour'), dayjs.utc()] },
    { label: t('cdr.quick.last7d'), value: [day.subtract(6, 'day'), day.add(1, 'day')] },
    { label: t('cdr.quick.thisMonth'), value: [month, month.add(1, 'month')] },
    { label: t('cdr.quick.lastMonth'), value: [month.subtract(1, 'month'), month] },
  ];
}

/**
 * Statistics > CDRs List and the portals' CDR pages: one page, the server applies the caller's
 * tenancy and field visibility. Filters and the keyset position live in the URL; the columns come
 * from the field catalogue (GET /cdr/fields) and are remembered per browser; a row opens the call
 * with every attempt.
 */
export default function CdrSearchPage(props: { did?: boolean } = {}) {
  // Origination > CDRs List and the portal's DID CDR page: the same page over the DID calls only,
  // through the DID CDR calls (their own permission; the server adds the DID condition).
  const did = props.did === true;
  const ep = did
    ? {
        fields: api.did.cdrFieldsOf as typeof api.cdrSearch.cdrFields,
        list: api.did.cdrList as typeof api.cdrSearch.searchCdrs,
        call: api.did.cdrCall as typeof api.cdrSearch.callDetail,
      }
    : { fields: api.cdrSearch.cdrFields, list: api.cdrSearch.searchCdrs, call: api.cdrSearch.callDetail };
  const { t, i18n } = useTranslation();
  const lang: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const { flash } = useFeedback();
  const session = useSignedIn();
  const type = session.user.user_type;
  const admin = type === 'admin';
  // Uploading CDRs bills them: write on the CDRs list (a role without privileges is unrestricted).
  const canUpload = useAllowed(api.cdrUpload.FUNC.cdrsList, 'write');
  const [sp, setSp] = useSearchParams();
  const { pathname } = useLocation();
  const [form] = Form.useForm();
  const [chooser, setChooser] = useState(false);
  const [openCall, setOpenCall] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const catalogue = useApi(ep.fields, {});
  const fieldInfo = useMemo(
    () => new Map((catalogue.data?.items ?? []).map((f) => [f.name, f as FieldInfo])),
    [catalogue.data],
  );
  const storeKey = `tandem.cdr.columns.${type}`;
  const [chosen, setChosen] = useState<string[] | null>(() => {
    try {
      const v = JSON.parse(localStorage.getItem(storeKey) ?? 'null') as unknown;
      return Array.isArray(v) ? (v as string[]) : null;
    } catch {
      return null;
    }
  });
  const columnsWanted = (chosen ?? catalogue.data?.default_fields ?? []).filter(
    (n) => fieldInfo.get(n)?.visible,
  );
  const saveColumns = (cols: string[] | null) => {
    setChosen(cols);
    if (cols) localStorage.setItem(storeKey, JSON.stringify(cols));
    else localStorage.removeItem(storeKey);
  };

  const today = dayjs.utc().startOf('day');
  const filters: Record<string, string> = {
    start: sp.get('start') ?? fmt(today),
    end: sp.get('end') ?? fmt(today.add(1, 'day')),
    ...Object.fromEntries(
      FILTERS.filter((k) => k !== 'start' && k !== 'end').flatMap((k) =>
        sp.get(k) ? [[k, sp.get(k)!]] : [],
      ),
    ),
    ...(did ? { traffic: 'did' } : {}),
  };
  const perPage = (CDR_PAGE_SIZES as readonly number[]).includes(Number(sp.get('per_page')))
    ? Number(sp.get('per_page'))
    : 50;
  const orderDir = sp.get('order_dir') === 'asc' ? 'asc' : 'desc';
  const query = {
    ...filters,
    fields: columnsWanted.join(','),
    per_page: perPage,
    order_dir: orderDir,
    ...(sp.get('after') ? { after: sp.get('after')! } : {}),
    ...(sp.get('before') ? { before: sp.get('before')! } : {}),
  };
  const exportFilter = { ...filters, fields: columnsWanted.join(','), order_dir: orderDir };
  const list = useApi(
    ep.list,
    { query: query as never },
    { enabled: catalogue.isSuccess && columnsWanted.length > 0, callOptions: { errorMode: 'inline' } },
  );

  const update = (patch: Record<string, string | null>, keepPosition = false) => {
    const next = new URLSearchParams(sp);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!keepPosition) {
      next.delete('after');
      next.delete('before');
    }
    setSp(next, { replace: true });
  };

  const run = (v: Record<string, unknown>) => {
    const range = v.range as [Dayjs, Dayjs] | null | undefined;
    const patch: Record<string, string | null> = {};
    for (const k of FILTERS) {
      if (k === 'start' || k === 'end') continue;
      const x = v[k];
      patch[k] =
        x === true ? 'true' : x === false || x === undefined || x === null ? null : String(x as string);
    }
    if (patch.duration === 'all') patch.duration = null;
    patch.start = range?.[0] ? fmt(range[0]) : null;
    patch.end = range?.[1] ? fmt(range[1]) : null;
    update(patch);
  };

  const download = async () => {
    const url = urlOf(api.cdrSearch.downloadCdrs, {
      query: { ...filters, fields: columnsWanted.join(','), order_dir: orderDir } as never,
    });
    setBusy(true);
    try {
      const res = await fetch(url, {
        headers: { 'X-Auth-Token': getToken() ?? '', 'X-Lang': i18next.language },
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        flash(body?.error?.message ?? res.statusText, 'error');
        return;
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'cdrs.csv';
      const a = document.createElement('a');
      a.href = URL.createObjectURL(await res.blob());
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      flash(t('common.exportedSuccessfully'));
    } finally {
      setBusy(false);
    }
  };

  const data = list.data;
  const columns: TableProps<CdrRow>['columns'] = [
    ...columnsWanted.map((name) => {
      const info = fieldInfo.get(name);
      return {
        key: name,
        title: info?.label[lang] ?? name,
        dataIndex: name,
        ellipsis: true,
        render: (v: CdrRow[string]) =>
          name === 'call_id' && typeof v === 'string' ? (
            <a onClick={() => setOpenCall(v)} data-testid={`call-link-${v}`}>
              {v}
            </a>
          ) : (
            formatCdrValue(v, info?.type ?? 'text', t)
          ),
      };
    }),
    {
      key: '_open',
      title: '',
      fixed: 'right',
      width: 90,
      render: (_: unknown, r: CdrRow) => (
        <Button
          size="small"
          onClick={() => setOpenCall(String(r.call_id))}
          data-testid={`open-${String(r.cdr_id)}`}
        >
          {t('cdr.open')}
        </Button>
      ),
    },
  ];

  const range: [Dayjs, Dayjs] = [dayjs.utc(filters.start), dayjs.utc(filters.end)];
  const title = did
    ? t('cdr.didCdrs')
    : admin
      ? t('cdr.cdrsList')
      : pathname.endsWith('/cdr_termination')
        ? t('cdr.cdrTermination')
        : t('cdr.cdrsSearch');
  const initialValues = {
    ...filters,
    range,
    duration: filters.duration ?? 'all',
    answered: filters.answered === 'true',
    unpriced: filters.unpriced === 'true',
    release_cause: filters.release_cause ? Number(filters.release_cause) : undefined,
    ingress_client_id: filters.ingress_client_id ? Number(filters.ingress_client_id) : undefined,
    egress_client_id: filters.egress_client_id ? Number(filters.egress_client_id) : undefined,
    ingress_trunk_id: filters.ingress_trunk_id ? Number(filters.ingress_trunk_id) : undefined,
    egress_trunk_id: filters.egress_trunk_id ? Number(filters.egress_trunk_id) : undefined,
  };
  const idPicker = (
    name: 'ingress_client_id' | 'egress_client_id' | 'ingress_trunk_id' | 'egress_trunk_id',
    label: string,
    kind: 'carrier' | 'trunk',
    side: 'client' | 'vendor' | 'ingress' | 'egress',
  ) => (
    <Form.Item name={name} label={label}>
      {kind === 'carrier' ? (
        <Dropdown
          endpoint={api.carriers.carrier.list}
          query={{ client_type: side as 'client' | 'vendor' } as never}
          valueField="client_id"
          labelField="name"
          kind="carrier"
          allowClear
          hint={t('cdr.durations.all')}
          style={{ width: 180 }}
          testId={`filter-${name}`}
        />
      ) : (
        <Dropdown
          endpoint={api.trunks.trunk.list}
          query={{ direction: side as 'ingress' | 'egress' } as never}
          valueField="trunk_id"
          labelField="name"
          allowClear
          hint={t('cdr.durations.all')}
          style={{ width: 180 }}
          testId={`filter-${name}`}
        />
      )}
    </Form.Item>
  );

  return (
    <div>
      <div className="page-head">
        <h1>{title}</h1>
        <Space>
          <Button icon={<SettingOutlined />} onClick={() => setChooser(true)} data-testid="cdr-columns">
            {t('cdr.columns')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void download()}
            loading={busy}
            title={t('cdr.downloadHelp', { days: CDR_DOWNLOAD_MAX_DAYS })}
            data-testid="cdr-download"
          >
            {t('cdr.downloadCsv')}
          </Button>
          {/* Whole searches (up to 62 days) as a job into the export log, as CSV or Excel. */}
          <BackgroundExportButton kind="cdr" filter={exportFilter} />
          <BackgroundExportButton kind="cdr" filter={exportFilter} format="xlsx" />
          {admin && canUpload && !did && <CdrUploadButton />}
        </Space>
      </div>
      <Form
        form={form}
        layout="inline"
        initialValues={initialValues}
        onFinish={run}
        style={{ marginBottom: 12, rowGap: 8 }}
        data-testid="cdr-filters"
      >
        <Form.Item name="range" label={t('cdr.timeRange')} rules={[{ required: true }]}>
          <DatePicker.RangePicker
            showTime
            presets={quickRanges(t)}
            format="YYYY-MM-DD HH:mm"
            data-testid="cdr-range"
          />
        </Form.Item>
        {admin ? idPicker('ingress_client_id', t('cdr.customer'), 'carrier', 'client') : null}
        {admin ? idPicker('egress_client_id', t('cdr.vendor'), 'carrier', 'vendor') : null}
        {admin || type === 'client'
          ? idPicker('ingress_trunk_id', t('cdr.ingressTrunk'), 'trunk', 'ingress')
          : null}
        {admin || type === 'vendor'
          ? idPicker('egress_trunk_id', t('cdr.egressTrunk'), 'trunk', 'egress')
          : null}
        {type !== 'vendor' ? (
          <Form.Item name="ani" label={t('cdr.ani')}>
            <Input style={{ width: 130 }} allowClear data-testid="filter-ani" />
          </Form.Item>
        ) : null}
        <Form.Item name="dnis" label={t('cdr.dnis')}>
          <Input style={{ width: 130 }} allowClear data-testid="filter-dnis" />
        </Form.Item>
        <Form.Item name="code" label={t('cdr.code')}>
          <Input style={{ width: 100 }} allowClear data-testid="filter-code" />
        </Form.Item>
        <Form.Item name="country" label={t('cdr.country')}>
          <Input style={{ width: 130 }} allowClear data-testid="filter-country" />
        </Form.Item>
        <Form.Item name="duration" label={t('cdr.duration')}>
          <Select
            style={{ width: 110 }}
            options={(['all', 'non_zero', 'zero'] as const).map((d) => ({
              value: d,
              label: t(`cdr.durations.${d}`),
            }))}
            data-testid="filter-duration"
          />
        </Form.Item>
        <Form.Item name="release_cause" label={t('cdr.releaseCause')}>
          <InputNumber min={100} max={699} style={{ width: 90 }} data-testid="filter-release-cause" />
        </Form.Item>
        <Form.Item name="release_side" label={t('cdr.releaseSide')}>
          <Select
            allowClear
            style={{ width: 80 }}
            options={api.cdr.RELEASE_SIDES.map((s) => ({ value: s, label: s }))}
            data-testid="filter-release-side"
          />
        </Form.Item>
        <Form.Item name="call_id" label={t('cdr.callId')}>
          <Input style={{ width: 180 }} allowClear data-testid="filter-call-id" />
        </Form.Item>
        <Form.Item name="answered" valuePropName="checked">
          <Checkbox data-testid="filter-answered">{t('cdr.answered')}</Checkbox>
        </Form.Item>
        {admin ? (
          <Form.Item name="unpriced" valuePropName="checked">
            <Checkbox data-testid="filter-unpriced">{t('cdr.unpriced')}</Checkbox>
          </Form.Item>
        ) : null}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="cdr-search">
              {t('cdr.search')}
            </Button>
            <Button
              onClick={() => {
                setSp(new URLSearchParams(), { replace: true });
                form.resetFields();
              }}
            >
              {t('common.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      {list.error ? (
        <Alert type="error" showIcon message={list.error.message} style={{ marginBottom: 12 }} />
      ) : null}
      <Space style={{ marginBottom: 8 }} wrap>
        <Typography.Text strong data-testid="cdr-total">
          {data ? (data.total_capped ? t('cdr.totalCapped') : t('cdr.total', { count: data.total })) : ''}
        </Typography.Text>
        <Select
          size="small"
          value={orderDir}
          onChange={(v) => update({ order_dir: v === 'desc' ? null : v })}
          options={[
            { value: 'desc', label: t('cdr.newestFirst') },
            { value: 'asc', label: t('cdr.oldestFirst') },
          ]}
          style={{ width: 140 }}
          data-testid="cdr-order"
        />
        <Select
          size="small"
          value={perPage}
          onChange={(v) => update({ per_page: String(v) })}
          options={CDR_PAGE_SIZES.map((n) => ({ value: n, label: t('common.rowsPerPage', { count: n }) }))}
          style={{ width: 120 }}
          data-testid="cdr-per-page"
        />
      </Space>
      <Table<CdrRow>
        size="small"
        rowKey={(r) => String(r.cdr_id)}
        loading={list.isFetching || catalogue.isLoading}
        dataSource={data?.items ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
        onRow={(r) => ({ onDoubleClick: () => setOpenCall(String(r.call_id)) })}
        data-testid="cdr-table"
      />
      <Space style={{ marginTop: 12 }}>
        <Button
          disabled={!data?.prev && !sp.get('after') && !sp.get('before')}
          onClick={() => update({})}
          data-testid="cdr-first"
        >
          {t('cdr.first')}
        </Button>
        <Button
          disabled={!data?.prev}
          onClick={() => update({ before: data?.prev ?? null, after: null }, true)}
          data-testid="cdr-prev"
        >
          {t('cdr.previous')}
        </Button>
        <Button
          disabled={!data?.next}
          onClick={() => update({ after: data?.next ?? null, before: null }, true)}
          data-testid="cdr-next"
        >
          {t('cdr.next')}
        </Button>
      </Space>
      {/* Mounted while open: its choice starts from the columns shown, before any click can land. */}
      {chooser && (
        <ColumnChooser
          fields={(catalogue.data?.items ?? []).filter((f) => f.visible) as FieldInfo[]}
          chosen={columnsWanted}
          lang={lang}
          onClose={() => setChooser(false)}
          onSave={(cols) => {
            saveColumns(cols);
            setChooser(false);
          }}
        />
      )}
      <CallDrawer
        callId={openCall}
        onClose={() => setOpenCall(null)}
        fieldInfo={fieldInfo}
        lang={lang}
        endpoint={ep.call}
      />
    </div>
  );
}

/** The column chooser: every field the caller may see, from the catalogue, in catalogue order. */
function ColumnChooser(props: {
  fields: FieldInfo[];
  chosen: string[];
  lang: Language;
  onClose: () => void;
  onSave: (cols: string[] | null) => void;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string[]>(props.chosen);
  return (
    <Modal
      open
      title={t('cdr.columns')}
      onCancel={props.onClose}
      footer={[
        <Button key="default" onClick={() => props.onSave(null)} data-testid="columns-default">
          {t('cdr.defaultColumns')}
        </Button>,
        <Button key="cancel" onClick={props.onClose}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          disabled={picked.length === 0}
          onClick={() => props.onSave(props.fields.map((f) => f.name).filter((n) => picked.includes(n)))}
          data-testid="columns-save"
        >
          {t('common.save')}
        </Button>,
      ]}
      width={760}
    >
      <Typography.Paragraph type="secondary">{t('cdr.columnsHelp')}</Typography.Paragraph>
      <Checkbox.Group value={picked} onChange={(v) => setPicked(v)} style={{ width: '100%' }}>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 6 }}>
          {props.fields.map((f) => (
            <Checkbox key={f.name} value={f.name} data-testid={`column-${f.name}`}>
              {f.label[props.lang]}
            </Checkbox>
          ))}
        </div>
      </Checkbox.Group>
    </Modal>
  );
}
