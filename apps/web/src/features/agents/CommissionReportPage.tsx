import { api } from '@tandem/contract';
import { Button, Descriptions, Modal, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useSession } from '../../app/session';
import { formatMoneyText, formatPercentText } from '../../lib/money';
import { useListState } from '../rates/useListState';
import './i18n';

type Period = z.output<typeof api.agents.commissionPeriod>;

/** Filter of one agent (admins only). */
export function AgentFilter({ value, onChange }: { value?: string; onChange?: (v: string | null) => void }) {
  const { t } = useTranslation();
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('agents.agent')}
      value={value ? Number(value) : undefined}
      onChange={(v?: number) => onChange?.(v === undefined ? null : String(v))}
      style={{ width: 220 }}
      data-testid="filter-agent"
      options={(lk.data?.agents ?? []).map((a) => ({ value: a.id, label: a.name }))}
    />
  );
}

/**
 * Agent > Commission Report: each closed period's commission as the job computed it (traffic of
 * the agent's clients, base, percent, amount, what is accrued), with the totals of the filter and
 * the clients of a period; "Calculate now" runs the commission job at once.
 */
export default function CommissionReportPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const admin = useSession().session?.user.user_type === 'admin';
  const ls = useListState({ orderBy: 'period_start' });
  const f = ls.filters;
  const sorted = new URLSearchParams(window.location.hash.split('?')[1] ?? '').has('order_by');
  const query = { ...ls.query, ...f, order_by: sorted ? ls.query.order_by : undefined };
  const list = useApi(api.agents.commissionReport, { query: query as never });
  const calc = useApiMutation(api.agents.calculateCommission, [api.agents.commissionReport]);
  const [open, setOpen] = useState<Period | null>(null);
  const money = (v: string) => formatMoneyText(v);
  return (
    <div>
      <div className="page-head">
        <h1>{t('agents.commissionReport')}</h1>
        {admin && (
          <Button
            loading={calc.isPending}
            data-testid="calculate"
            onClick={() =>
              void calc
                .mutateAsync({ body: f.agent_id ? { agent_id: Number(f.agent_id) } : {} })
                .then((r) => flash(t('agents.calculating', { id: r.job_id })))
            }
          >
            {t('agents.calculate')}
          </Button>
        )}
      </div>
      {admin && (
        <Space wrap style={{ marginBottom: 12 }}>
          <AgentFilter value={f.agent_id} onChange={(v) => ls.setFilter('agent_id', v)} />
        </Space>
      )}
      {list.data && (
        <Descriptions size="small" column={4} title={t('agents.totals')} data-testid="commission-totals">
          <Descriptions.Item label={t('agents.revenue')}>{money(list.data.totals.revenue)}</Descriptions.Item>
          <Descriptions.Item label={t('agents.cost')}>{money(list.data.totals.cost)}</Descriptions.Item>
          <Descriptions.Item label={t('agents.base')}>{money(list.data.totals.base)}</Descriptions.Item>
          <Descriptions.Item label={t('agents.amount')}>
            <span data-testid="commission-total">{money(list.data.totals.amount)}</span>
          </Descriptions.Item>
        </Descriptions>
      )}
      <Table<Period>
        rowKey={(r) => `${r.agent_id}-${r.period_start}`}
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="commission-periods"
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'period_start',
            title: t('agents.period'),
            sorter: true,
            render: (_, r) => (
              <a onClick={() => setOpen(r)} data-testid={`period-${r.period_start.slice(0, 10)}`}>
                {r.period_start.slice(0, 10)} – {r.period_end.slice(0, 10)}
              </a>
            ),
          },
          ...(admin
            ? [{ key: 'agent_name', title: t('agents.agent'), dataIndex: 'agent_name', sorter: true }]
            : []),
          {
            key: 'frequency',
            title: t('agents.frequency'),
            render: (_, r) => t(`agents.frequencies.${r.frequency}`),
          },
          {
            key: 'method',
            title: t('agents.method'),
            render: (_, r) => `${t(`agents.methods.${r.method}`)} ${formatPercentText(r.percent)} %`,
          },
          { key: 'clients', title: t('agents.clients'), dataIndex: 'clients', align: 'right' },
          {
            key: 'revenue',
            title: t('agents.revenue'),
            align: 'right',
            sorter: true,
            render: (_, r) => money(r.revenue),
          },
          { key: 'cost', title: t('agents.cost'), align: 'right', render: (_, r) => money(r.cost) },
          { key: 'base', title: t('agents.base'), align: 'right', render: (_, r) => money(r.base) },
          {
            key: 'amount',
            title: t('agents.amount'),
            align: 'right',
            sorter: true,
            render: (_, r) => money(r.amount),
          },
          { key: 'revision', title: t('agents.revision'), dataIndex: 'revision', align: 'right' },
          {
            key: 'computed_at',
            title: t('agents.computedAt'),
            render: (_, r) => r.computed_at.replace('T', ' ').slice(0, 16),
          },
        ]}
      />
      {open && <PeriodClients period={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function PeriodClients({ period, onClose }: { period: Period; onClose: () => void }) {
  const { t } = useTranslation();
  const r = useApi(api.agents.commissionPeriodClients, {
    params: { agent_id: period.agent_id, period_start: period.period_start.slice(0, 10) },
  });
  return (
    <Modal
      open
      onCancel={onClose}
      footer={null}
      title={`${t('agents.periodClients')}: ${period.period_start.slice(0, 10)}`}
    >
      <Table
        rowKey="client_id"
        size="small"
        pagination={false}
        loading={r.isLoading}
        dataSource={r.data?.items ?? []}
        data-testid="period-clients"
        columns={[
          { key: 'name', title: t('agents.carrier'), dataIndex: 'name' },
          {
            key: 'revenue',
            title: t('agents.revenue'),
            align: 'right',
            render: (_, x) => formatMoneyText(x.revenue),
          },
          { key: 'cost', title: t('agents.cost'), align: 'right', render: (_, x) => formatMoneyText(x.cost) },
        ]}
      />
    </Modal>
  );
}
