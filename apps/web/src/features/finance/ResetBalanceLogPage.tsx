import { api, type ResetRow } from '@tandem/contract';
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { CarrierSelect, money } from '../billing/shared';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import './i18n';

interface Values {
  client_id?: number;
  balance: string;
  run_at?: Dayjs | null;
  note: string;
}

const STATE_COLOR = { pending: 'gold', finished: 'green', cancelled: undefined } as const;

/**
 * Log > Reset Balance Log, with Finance's "reset balance": set a carrier's balance to a value, now or
 * at a chosen time (UTC). The server applies it by a durable job as one 'reset' ledger row of the
 * difference; each reset shows pending, finished (balance before and the amount moved) or
 * cancelled. Resetting needs the finance right "reset balance" (the server says so otherwise).
 */
export default function ResetBalanceLogPage() {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const [form] = Form.useForm<Values>();
  const ls = useListState({ orderBy: 'reset_id' });
  const f = ls.filters;
  const list = useApi(
    api.finance.listResets,
    {
      query: {
        page: ls.query.page,
        per_page: ls.query.per_page,
        ...(f.client_id ? { client_id: f.client_id } : {}),
        ...(f.state ? { state: f.state } : {}),
      } as never,
    },
    // a reset due now is finished by its job a moment later: look again while one is due
    {
      refetchInterval: (q) =>
        q.state.data?.items.some((r) => r.state === 'pending' && Date.parse(r.run_at) <= Date.now() + 1_000)
          ? 1_000
          : false,
    },
  );
  const refresh = [api.finance.listResets, api.finance.listTransactions, api.finance.checkBalances];
  const create = useApiMutation(api.finance.createReset, refresh);
  const cancel = useApiMutation(api.finance.cancelReset, refresh);

  const submit = async (v: Values) => {
    if (!(await confirm({ title: t('finance.resetConfirm', { balance: v.balance.trim() }), danger: true })))
      return;
    const r = await create.mutateAsync({
      body: {
        client_id: v.client_id as number,
        balance: v.balance.trim(),
        run_at: v.run_at ? v.run_at.toISOString() : null,
        note: v.note,
      },
    });
    // due now (the server takes a past or absent time as now): its job applies it in a moment
    const due = Date.parse(r.run_at) <= Date.parse(r.created_at) + 1_000;
    flash(t(due ? 'finance.resetDone' : 'finance.resetScheduled', { id: r.reset_id }));
    form.resetFields();
  };

  return (
    <div>
      <div className="page-head">
        <h1>{t('finance.resetBalanceLog')}</h1>
      </div>
      <Card size="small" title={t('finance.resetBalance')} style={{ marginBottom: 16 }}>
        <Form<Values>
          form={form}
          layout="inline"
          style={{ rowGap: 8 }}
          initialValues={{ balance: '', note: '' }}
          onFinish={(v) => void submit(v)}
          data-testid="reset-form"
        >
          <Form.Item name="client_id" rules={[{ required: true, message: t('finance.selectCarrier') }]}>
            <CarrierSelect onChange={(v) => form.setFieldValue('client_id', v)} testId="reset-carrier" />
          </Form.Item>
          <Form.Item name="balance" rules={[{ required: true, message: t('finance.balanceRequired') }]}>
            <Input
              placeholder={t('finance.newBalance')}
              style={{ width: 140 }}
              inputMode="decimal"
              data-testid="reset-balance"
            />
          </Form.Item>
          <Form.Item name="run_at">
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              placeholder={t('finance.runAtNow')}
              style={{ width: 200 }}
              data-testid="reset-run-at"
            />
          </Form.Item>
          <Form.Item name="note">
            <Input placeholder={t('finance.note')} style={{ width: 220 }} data-testid="reset-note" />
          </Form.Item>
          <Button type="primary" danger htmlType="submit" loading={create.isPending} data-testid="reset-save">
            {t('finance.resetBalance')}
          </Button>
        </Form>
      </Card>
      <Space wrap style={{ marginBottom: 12 }}>
        <CarrierSelect
          value={f.client_id ? Number(f.client_id) : undefined}
          onChange={(v) => ls.setFilter('client_id', v === undefined ? null : String(v))}
          testId="filter-carrier"
        />
        <Select
          allowClear
          placeholder={t('common.status')}
          value={f.state}
          onChange={(v?: string) => ls.setFilter('state', v ?? null)}
          style={{ width: 150 }}
          data-testid="filter-state"
          options={api.finance.RESET_STATES.map((s) => ({ value: s, label: t(`finance.resetStates.${s}`) }))}
        />
      </Space>
      <Table<ResetRow>
        rowKey="reset_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="resets"
        onRow={(r) => ({ 'data-testid': `reset-${r.reset_id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg) => ls.onTableChange(pg, [])}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          { key: 'reset_id', title: '#', dataIndex: 'reset_id' },
          { key: 'client_name', title: t('finance.carrier'), dataIndex: 'client_name' },
          {
            key: 'balance',
            title: t('finance.newBalance'),
            align: 'right',
            render: (_, r) => money(r.balance, 6),
          },
          { key: 'run_at', title: t('finance.runAt'), render: (_, r) => when(r.run_at) },
          {
            key: 'state',
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={STATE_COLOR[r.state]} data-testid="reset-state">
                {t(`finance.resetStates.${r.state}`)}
              </Tag>
            ),
          },
          {
            key: 'balance_before',
            title: t('finance.before'),
            align: 'right',
            render: (_, r) => (r.balance_before === null ? '' : money(r.balance_before, 6)),
          },
          {
            key: 'amount',
            title: t('finance.amount'),
            align: 'right',
            render: (_, r) => (r.amount === null ? '' : money(r.amount, 6)),
          },
          { key: 'note', title: t('finance.note'), dataIndex: 'note' },
          {
            key: 'created_by',
            title: t('finance.by'),
            render: (_, r) => (r.cancelled_by ? `${r.created_by} / ${r.cancelled_by}` : r.created_by),
          },
          { key: 'created_at', title: t('finance.createdAt'), render: (_, r) => when(r.created_at) },
          { key: 'finished_at', title: t('finance.finishedAt'), render: (_, r) => when(r.finished_at) },
          {
            key: 'actions',
            title: '',
            render: (_, r) =>
              r.state === 'pending' ? (
                <Button
                  size="small"
                  data-testid="reset-cancel"
                  onClick={async () => {
                    if (!(await confirm({ title: t('finance.cancelResetConfirm'), danger: true }))) return;
                    await cancel.mutateAsync({ params: { id: r.reset_id } });
                    flash(t('finance.resetCancelled', { id: r.reset_id }));
                  }}
                >
                  {t('finance.cancelReset')}
                </Button>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
