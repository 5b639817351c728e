import { api } from '@tandem/contract';
import { Button, Descriptions, Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { useSession } from '../../app/session';
import { formatMoneyText } from '../../lib/money';
import { useListState } from '../rates/useListState';
import { AgentFilter } from './CommissionReportPage';
import './i18n';

type Row = z.output<typeof api.agents.agentLedgerRow>;

/**
 * Agent > Commission History (and the agent portal's Statistics > Commission History): the agent
 * ledger, newest first: commission accrued per period, corrections after rerates, payouts, each
 * with what was owed before and after; the totals of the filter and what is owed now. Admins
 * record payouts from here (New Payout Record). An agent sees only its own (the server enforces it).
 */
export default function CommissionHistoryPage() {
  const { t } = useTranslation();
  const admin = useSession().session?.user.user_type === 'admin';
  const ls = useListState({ orderBy: 'ledger_id' });
  const f = ls.filters;
  const sorted = new URLSearchParams(window.location.hash.split('?')[1] ?? '').has('order_by');
  const query = { ...ls.query, ...f, order_by: sorted ? ls.query.order_by : undefined };
  const list = useApi(api.agents.commissionHistory, { query: query as never });
  const money = (v: string) => formatMoneyText(v);
  return (
    <div>
      <div className="page-head">
        <h1>{t('agents.commissionHistory')}</h1>
        {admin && (
          <Link
            to={`/agent/commission_history/new_payout_record${f.agent_id ? `?agent_id=${f.agent_id}` : ''}`}
          >
            <Button type="primary" data-testid="new-payout">
              {t('agents.newPayout')}
            </Button>
          </Link>
        )}
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        {admin && <AgentFilter value={f.agent_id} onChange={(v) => ls.setFilter('agent_id', v)} />}
        <Select
          allowClear
          placeholder={t('agents.kind')}
          value={f.kind}
          onChange={(v?: string) => ls.setFilter('kind', v ?? null)}
          style={{ width: 170 }}
          data-testid="filter-kind"
          options={api.agents.AGENT_LEDGER_KINDS.map((k) => ({ value: k, label: t(`agents.kinds.${k}`) }))}
        />
      </Space>
      {list.data && (
        <Descriptions size="small" column={4} title={t('agents.totals')} data-testid="history-totals">
          <Descriptions.Item label={t('agents.kinds.commission')}>
            {money(list.data.totals.commission)}
          </Descriptions.Item>
          <Descriptions.Item label={t('agents.payouts')}>{money(list.data.totals.payout)}</Descriptions.Item>
          <Descriptions.Item label={t('agents.net')}>{money(list.data.totals.net)}</Descriptions.Item>
          <Descriptions.Item label={t('agents.owed')}>
            <span data-testid="owed">{money(list.data.owed)}</span>
          </Descriptions.Item>
        </Descriptions>
      )}
      <Table<Row>
        rowKey="ledger_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="commission-ledger"
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'created_at',
            title: t('agents.time'),
            sorter: true,
            render: (_, r) => r.created_at.replace('T', ' ').slice(0, 19),
          },
          ...(admin
            ? [{ key: 'agent_name', title: t('agents.agent'), dataIndex: 'agent_name', sorter: true }]
            : []),
          {
            key: 'kind',
            title: t('agents.kind'),
            sorter: true,
            render: (_, r) => t(`agents.kinds.${r.kind}`),
          },
          { key: 'period', title: t('agents.period'), render: (_, r) => r.period_start?.slice(0, 10) ?? '' },
          { key: 'ref', title: t('agents.ref'), dataIndex: 'ref' },
          {
            key: 'amount',
            title: t('agents.payoutAmount'),
            align: 'right',
            sorter: true,
            render: (_, r) => money(r.amount),
          },
          {
            key: 'balance_before',
            title: t('agents.before'),
            align: 'right',
            render: (_, r) => money(r.balance_before),
          },
          {
            key: 'balance_after',
            title: t('agents.after'),
            align: 'right',
            render: (_, r) => money(r.balance_after),
          },
          { key: 'note', title: t('agents.note'), dataIndex: 'note' },
          { key: 'created_by', title: t('agents.by'), dataIndex: 'created_by' },
        ]}
      />
    </div>
  );
}
