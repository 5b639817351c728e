import { api, type PortalTrunkRow, type PortRequestRow, type PortStatus } from '@tandem/contract';
import {
  Button,
  DatePicker,
  Descriptions,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Timeline,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useListState } from '../rates/useListState';
import { submitting } from '../routing/shared';
import { time } from './shared';
import './extras-i18n';

type Status = PortStatus;
const COLORS: Record<Status, string> = {
  requested: 'blue',
  in_progress: 'gold',
  completed: 'green',
  rejected: 'red',
};

export function PortStatusTag({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} data-testid="port-status">
      {t(`didx.statuses.${status}`)}
    </Tag>
  );
}

/** The numbers of a request: the first few, and how many. */
function Numbers({ numbers }: { numbers: string[] }) {
  const { t } = useTranslation();
  return (
    <span title={numbers.join('\n')}>
      {numbers.slice(0, 3).join(', ')}
      {numbers.length > 3 ? ' …' : ''}{' '}
      <span className="muted">({t('didx.count', { count: numbers.length })})</span>
    </span>
  );
}

/** The history of a request, newest first. */
function History({ id, admin }: { id: number; admin: boolean }) {
  const { t } = useTranslation();
  const e = admin ? api.didExtras.getPortRequest : api.didExtras.portalPortRequest;
  const r = useApi(e as typeof api.didExtras.getPortRequest, { params: { id } });
  if (!r.data) return null;
  return (
    <>
      <Descriptions size="small" column={1} bordered style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('didx.portNumbers')}>
          <span data-testid="port-numbers">{r.data.request.numbers.join(', ')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('didx.note')}>{r.data.request.note || '–'}</Descriptions.Item>
      </Descriptions>
      <Timeline
        data-testid="port-history"
        items={r.data.history.map((h) => ({
          key: h.id,
          color: COLORS[h.status],
          children: (
            <>
              <b>{t(`didx.statuses.${h.status}`)}</b> · {time(h.at)} · {h.user_name}
              {h.note && <div className="muted">{h.note}</div>}
            </>
          ),
        }))}
      />
    </>
  );
}

const columns = (t: (k: string) => string, admin: boolean) => [
  { key: 'id', title: '#', dataIndex: 'id', sorter: true },
  ...(admin ? [{ key: 'client_name', title: t('didx.client'), dataIndex: 'client_name', sorter: true }] : []),
  {
    key: 'numbers',
    title: t('didx.portNumbers'),
    render: (_: unknown, r: PortRequestRow) => <Numbers numbers={r.numbers} />,
  },
  { key: 'current_provider', title: t('didx.currentProvider'), dataIndex: 'current_provider' },
  { key: 'requested_date', title: t('didx.requestedDate'), dataIndex: 'requested_date', sorter: true },
  {
    key: 'status',
    title: t('common.status'),
    render: (_: unknown, r: PortRequestRow) => <PortStatusTag status={r.status} />,
  },
  {
    key: 'operator_note',
    title: t('didx.operatorNote'),
    render: (_: unknown, r: PortRequestRow) => <span data-testid="operator-note">{r.operator_note}</span>,
  },
  {
    key: 'created_at',
    title: t('didx.created'),
    render: (_: unknown, r: PortRequestRow) => time(r.created_at),
  },
  {
    key: 'updated_at',
    title: t('didx.updated'),
    render: (_: unknown, r: PortRequestRow) => `${time(r.updated_at)} · ${r.updated_by}`,
  },
];

interface PortValues {
  numbers: string;
  current_provider: string;
  requested_date?: Dayjs;
  note: string;
}

/**
 * Client portal > Origination > Port DID: a port-in request (the numbers, one per line; the
 * current provider; the date wanted; a note), then the client's requests with their status and
 * the operator's note, each with its history. The server keeps a client to its own requests.
 */
export function PortDidPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [form] = Form.useForm<PortValues>();
  const ls = useListState({ orderBy: 'id' });
  const [open, setOpen] = useState<number | null>(null);
  const list = useApi(api.didExtras.portalPortRequests, {
    query: { page: ls.query.page, per_page: ls.query.per_page } as never,
  });
  const create = useApiMutation(api.didExtras.portalCreatePortRequest, [api.didExtras.portalPortRequests]);
  const submit = (v: PortValues) =>
    submitting(form, async () => {
      await create.mutateAsync({
        body: {
          numbers: v.numbers ?? '',
          current_provider: v.current_provider ?? '',
          requested_date: v.requested_date?.format('YYYY-MM-DD') ?? '',
          note: v.note ?? '',
        },
      });
      flash(t('didx.sent'));
      form.resetFields();
    });
  return (
    <div>
      <div className="page-head">
        <h1>{t('didx.portDid')}</h1>
      </div>
      <Form<PortValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 560 }}
        initialValues={{ numbers: '', current_provider: '', note: '' }}
        onFinish={(v) => void submit(v)}
      >
        <h2>{t('didx.newPortRequest')}</h2>
        <Form.Item name="numbers" label={t('didx.portNumbers')} extra={t('didx.portNumbersHint')}>
          <Input.TextArea rows={4} data-testid="port-numbers-input" />
        </Form.Item>
        <Form.Item name="current_provider" label={t('didx.currentProvider')}>
          <Input maxLength={100} data-testid="port-provider" />
        </Form.Item>
        <Form.Item name="requested_date" label={t('didx.requestedDate')}>
          <DatePicker data-testid="port-date" />
        </Form.Item>
        <Form.Item name="note" label={t('didx.note')}>
          <Input.TextArea rows={2} maxLength={1000} data-testid="port-note" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="port-send">
          {t('didx.send')}
        </Button>
      </Form>
      <Table<PortRequestRow>
        style={{ marginTop: 16 }}
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="port-requests"
        onRow={(r) => ({ 'data-testid': `port-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          ...columns(t, false),
          {
            key: 'history',
            title: '',
            render: (_, r) => (
              <Button size="small" onClick={() => setOpen(r.id)} data-testid="port-history-open">
                {t('didx.history')}
              </Button>
            ),
          },
        ]}
      />
      <Modal open={open !== null} footer={null} onCancel={() => setOpen(null)} title={t('didx.history')}>
        {open !== null && <History id={open} admin={false} />}
      </Modal>
    </div>
  );
}

/**
 * Origination > Port Requests: every client's port-in requests (filter by status), each moved by
 * the operator (requested → in progress → completed or rejected; those two are final) with a note
 * the client reads on its Port DID page and as a notice.
 */
export function PortRequestsPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const ls = useListState({ orderBy: 'id' });
  const f = ls.filters;
  const sorted = new URLSearchParams(window.location.hash.split('?')[1] ?? '').has('order_by');
  const list = useApi(api.didExtras.listPortRequests, {
    query: { ...ls.query, ...f, order_by: sorted ? ls.query.order_by : undefined } as never,
  });
  const move = useApiMutation(api.didExtras.movePortRequest, [
    api.didExtras.listPortRequests,
    api.didExtras.getPortRequest,
  ]);
  const [moving, setMoving] = useState<PortRequestRow | null>(null);
  const [form] = Form.useForm<{ status?: Status; note: string }>();
  const save = async () => {
    const v = await form.validateFields();
    if (!moving || !v.status) return;
    const status = v.status;
    const done = await submitting(form, () =>
      move.mutateAsync({ params: { id: moving.id }, body: { status, note: v.note ?? '' } }),
    );
    if (done) {
      flash(t('didx.moved'));
      setMoving(null);
    }
  };
  return (
    <div>
      <div className="page-head">
        <h1>{t('didx.portRequests')}</h1>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('common.status')}
          value={f.status}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          style={{ width: 170 }}
          data-testid="filter-port-status"
          options={api.didExtras.PORT_STATUSES.map((s) => ({ value: s, label: t(`didx.statuses.${s}`) }))}
        />
      </Space>
      <Table<PortRequestRow>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="port-requests"
        onRow={(r) => ({ 'data-testid': `port-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        expandable={{ expandedRowRender: (r) => <History id={r.id} admin /> }}
        columns={[
          ...columns(t, true),
          {
            key: 'move',
            title: '',
            render: (_, r) =>
              api.didExtras.PORT_MOVES[r.status].length > 0 ? (
                <Button
                  size="small"
                  data-testid="port-move"
                  onClick={() => {
                    form.setFieldsValue({ status: undefined, note: '' });
                    setMoving(r);
                  }}
                >
                  {t('didx.move')}
                </Button>
              ) : (
                <span className="muted">{t('didx.noMove')}</span>
              ),
          },
        ]}
      />
      <Modal
        open={moving !== null}
        title={moving ? `${t('didx.move')}: #${moving.id} ${moving.client_name}` : ''}
        onCancel={() => setMoving(null)}
        onOk={() => void save()}
        okButtonProps={{ 'data-testid': 'port-move-save', loading: move.isPending } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="status"
            label={t('didx.moveTo')}
            rules={[{ required: true, message: t('didx.moveTo') }]}
          >
            <Select
              data-testid="port-move-status"
              options={(moving ? api.didExtras.PORT_MOVES[moving.status] : []).map((s) => ({
                value: s,
                label: t(`didx.statuses.${s}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="note" label={t('didx.operatorNote')}>
            <Input.TextArea rows={2} maxLength={1000} data-testid="port-move-note" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}

type TrunkRow = PortalTrunkRow;

/**
 * Client portal > Origination > Trunks: the DID carrier's own DID trunks with their authorization
 * (IPs or SIP registration), media, limits and how many numbers they carry; read only (the
 * operator sets them up).
 */
export function PortalTrunksPage() {
  const { t } = useTranslation();
  const list = useApi(api.didExtras.portalTrunks, {});
  return (
    <div>
      <div className="page-head">
        <h1>{t('didx.trunks')}</h1>
      </div>
      <p className="muted">{t('didx.trunksHint')}</p>
      <Table<TrunkRow>
        rowKey="trunk_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="did-trunks"
        pagination={false}
        columns={[
          { key: 'name', title: t('didx.trunk'), dataIndex: 'name' },
          {
            key: 'direction',
            title: t('didx.direction'),
            render: (_, r) => t(`didx.directions.${r.direction}`),
          },
          {
            key: 'auth',
            title: t('didx.authorization'),
            render: (_, r) => t(`didx.authTypes.${r.auth_type}`, { defaultValue: r.auth_type }),
          },
          {
            key: 'hosts',
            title: t('didx.hosts'),
            render: (_, r) => <span data-testid="trunk-hosts">{r.hosts.join(', ') || t('common.none')}</span>,
          },
          { key: 'media', title: t('didx.mediaType'), render: (_, r) => t(`did.mediaTypes.${r.media_type}`) },
          { key: 't38', title: t('didx.t38'), render: (_, r) => (r.t38 ? t('common.yes') : t('common.no')) },
          { key: 'prefix', title: t('didx.techPrefix'), render: (_, r) => r.tech_prefix || '–' },
          { key: 'limit', title: t('didx.callLimit'), render: (_, r) => r.call_limit ?? '–' },
          {
            key: 'active',
            title: t('common.active'),
            render: (_, r) => (r.is_active ? t('common.yes') : t('common.no')),
          },
          { key: 'dids', title: t('didx.dids'), dataIndex: 'did_count', align: 'right' },
        ]}
      />
    </div>
  );
}
