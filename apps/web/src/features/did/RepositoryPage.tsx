import { api, type DidStateName } from '@tandem/contract';
import { Button, Input, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { formatMoneyText } from '../../lib/money';
import { errorText, time } from './shared';
import './i18n';

type Row = z.infer<typeof api.did.didRow>;
type Action = 'assign' | 'reserve' | 'release' | 'unassign' | 'delete';

/**
 * Origination > DID Repository (also by vendor and by client through ?vendor_id / ?client_id):
 * numbers with their state, vendor, client and prices; assign, reserve, release, back to stock and
 * delete the selected ones; each number's history.
 */
export default function RepositoryPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [params, setParams] = useSearchParams();
  const [selected, setSelected] = useState<number[]>([]);
  const [clientId, setClientId] = useState<number | null>(null);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const page = Number(params.get('page') ?? 0);
  const perPage = Number(params.get('per_page') ?? 20);
  const query = {
    page,
    per_page: perPage,
    order_by: 'number',
    ...(params.get('number') ? { number: params.get('number') } : {}),
    ...(params.get('state') ? { state: params.get('state') } : {}),
    ...(params.get('vendor_id') ? { vendor_id: Number(params.get('vendor_id')) } : {}),
    ...(params.get('client_id') ? { client_id: Number(params.get('client_id')) } : {}),
  };
  const list = useApi(api.did.listDids, { query: query as never });
  const clients = useApi(api.did.listClients, { query: { per_page: 999, order_by: 'name' } as never });
  const vendors = useApi(api.did.listVendors, { query: { per_page: 999, order_by: 'name' } as never });
  const set = (k: string, v: string | null) => {
    const next = new URLSearchParams(params);
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
    if (k !== 'page') next.delete('page');
    setParams(next);
  };
  const inv = [api.did.listDids, api.did.listClients, api.did.listVendors];
  const mutations = {
    assign: useApiMutation(api.did.assignDids, inv),
    reserve: useApiMutation(api.did.reserveDids, inv),
    release: useApiMutation(api.did.releaseDids, inv),
    unassign: useApiMutation(api.did.unassignDids, inv),
    delete: useApiMutation(api.did.deleteDids, inv),
  };
  const charges = useApiMutation(api.did.runCharges, inv);
  const run = async (a: Action) => {
    try {
      const body =
        a === 'assign' || a === 'reserve'
          ? {
              did_ids: selected,
              client_id: clientId ?? 0,
              ...(a === 'assign' ? { billing_rule_id: null } : {}),
            }
          : { did_ids: selected };
      const r = (await mutations[a].mutateAsync({ body } as never)) as Record<string, number>;
      flash(a === 'release' ? t('did.released') : t('did.done', { count: Object.values(r)[0] }));
      setSelected([]);
    } catch (e) {
      flash(errorText(e), 'error');
    }
  };
  const stateColor: Record<DidStateName, string> = {
    assigned: 'green',
    unassigned: 'default',
    reserved: 'gold',
    released: 'volcano',
  };
  return (
    <div>
      <div className="page-head">
        <h1>{t('did.repository')}</h1>
        <Button
          data-testid="run-charges"
          onClick={async () => {
            const r = await charges.mutateAsync({});
            flash(t('did.chargesQueued', { id: r.job_id }));
          }}
        >
          {t('did.runCharges')}
        </Button>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          placeholder={t('did.number')}
          defaultValue={params.get('number') ?? ''}
          onSearch={(v) => set('number', v.trim())}
          allowClear
          style={{ width: 200 }}
          data-testid="did-search"
        />
        <Select
          allowClear
          placeholder={t('did.state')}
          value={params.get('state') ?? undefined}
          onChange={(v) => set('state', v ?? null)}
          style={{ width: 160 }}
          options={(['assigned', 'unassigned', 'reserved', 'released'] as const).map((s) => ({
            value: s,
            label: t(`did.states.${s}`),
          }))}
          data-testid="did-state-filter"
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={t('did.vendor')}
          value={params.get('vendor_id') ? Number(params.get('vendor_id')) : undefined}
          onChange={(v) => set('vendor_id', v ? String(v) : null)}
          style={{ width: 180 }}
          options={(vendors.data?.items ?? []).map((v) => ({ value: v.carrier_id, label: v.name }))}
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={t('did.client')}
          value={params.get('client_id') ? Number(params.get('client_id')) : undefined}
          onChange={(v) => set('client_id', v ? String(v) : null)}
          style={{ width: 180 }}
          options={(clients.data?.items ?? []).map((c) => ({ value: c.carrier_id, label: c.name }))}
        />
      </Space>
      <Space wrap style={{ marginBottom: 12 }} data-testid="did-actions">
        <span>{t('did.selected', { count: selected.length })}</span>
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={t('did.chooseClient')}
          value={clientId ?? undefined}
          onChange={(v) => setClientId(v ?? null)}
          style={{ width: 200 }}
          options={(clients.data?.items ?? []).map((c) => ({ value: c.carrier_id, label: c.name }))}
          data-testid="assign-client"
        />
        <Button
          type="primary"
          disabled={!selected.length || !clientId}
          onClick={() => run('assign')}
          data-testid="assign"
        >
          {t('did.assign')}
        </Button>
        <Button disabled={!selected.length || !clientId} onClick={() => run('reserve')} data-testid="reserve">
          {t('did.reserve')}
        </Button>
        <Popconfirm
          title={t('did.releaseConfirm')}
          onConfirm={() => run('release')}
          disabled={!selected.length}
        >
          <Button disabled={!selected.length} data-testid="release">
            {t('did.release')}
          </Button>
        </Popconfirm>
        <Button disabled={!selected.length} onClick={() => run('unassign')} data-testid="unassign">
          {t('did.unassign')}
        </Button>
        <Popconfirm title={t('common.delete')} onConfirm={() => run('delete')} disabled={!selected.length}>
          <Button danger disabled={!selected.length} data-testid="delete">
            {t('common.delete')}
          </Button>
        </Popconfirm>
      </Space>
      <Table<Row>
        rowKey="did_id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) }}
        pagination={{
          current: page + 1,
          pageSize: perPage,
          total: list.data?.total ?? 0,
          pageSizeOptions: [10, 20, 30, 50, 100],
          showSizeChanger: true,
          onChange: (p, s) => {
            const next = new URLSearchParams(params);
            next.set('page', String(p - 1));
            next.set('per_page', String(s));
            setParams(next);
          },
        }}
        columns={[
          {
            title: t('did.number'),
            dataIndex: 'number',
            render: (v: string, r) => (
              <a onClick={() => setHistoryOf(r.did_id)} data-testid={`did-${v}`}>
                {v}
              </a>
            ),
          },
          {
            title: t('did.state'),
            dataIndex: 'state',
            render: (v: DidStateName, r) => (
              <Space size={4}>
                <Tag color={stateColor[v]} data-testid="did-state">
                  {t(`did.states.${v}`)}
                </Tag>
                {r.suspended && <Tag color="red">{t('did.suspended')}</Tag>}
              </Space>
            ),
          },
          { title: t('did.vendor'), dataIndex: 'vendor_name' },
          { title: t('did.client'), render: (_, r) => r.client_name ?? r.reserved_for_name ?? '' },
          { title: t('did.vendorRule'), dataIndex: 'vendor_billing_rule_name' },
          { title: t('did.clientRule'), dataIndex: 'client_billing_rule_name' },
          {
            title: t('did.monthlyPrice'),
            render: (_, r) => (r.monthly_price ? formatMoneyText(r.monthly_price, { decimals: 4 }) : ''),
          },
          {
            title: t('did.perMinute'),
            render: (_, r) => (r.per_minute ? formatMoneyText(r.per_minute, { decimals: 4 }) : ''),
          },
          { title: t('did.assignedAt'), render: (_, r) => time(r.assigned_at) },
        ]}
      />
      <HistoryModal id={historyOf} onClose={() => setHistoryOf(null)} />
    </div>
  );
}

function HistoryModal({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const h = useApi(api.did.didHistory, { params: { id: id ?? 0 } }, { enabled: id !== null });
  return (
    <Modal
      open={id !== null}
      onCancel={onClose}
      footer={null}
      width={760}
      title={`${t('did.history')} ${h.data?.did.number ?? ''}`}
    >
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={h.data?.items ?? []}
        data-testid="did-history"
        columns={[
          { title: t('did.at'), render: (_, r) => time(r.at) },
          { title: t('did.action'), dataIndex: 'action' },
          { title: t('did.state'), render: (_, r) => t(`did.states.${r.state}`) },
          { title: t('did.client'), dataIndex: 'client_name' },
          { title: t('did.note'), dataIndex: 'note' },
          { title: t('did.user'), dataIndex: 'user_name' },
        ]}
      />
    </Modal>
  );
}
