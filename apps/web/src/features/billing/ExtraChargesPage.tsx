import { api, type ExtraChargeRow } from '@tandem/contract';
import { Button, DatePicker, Form, Input, Select, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useRetryKey } from '../../api/retry-key';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useListState } from '../rates/useListState';
import { CarrierSelect, money } from './shared';
import './i18n';

const fx = api.financeExtras;

interface Values {
  client_id?: number;
  side: 'customer' | 'vendor';
  name: string;
  amount: string;
  frequency: (typeof fx.CHARGE_FREQUENCIES)[number];
  start?: Dayjs;
  end?: Dayjs;
  note: string;
}

/**
 * Finance > Extra Charge: one-off and recurring charges on a carrier. Each occurrence is one ledger
 * row and shows on the carrier's invoice of its period; the form sends one retry key per entry, so
 * a double click or a resend records the charge once. Per charge: its occurrences (each can be
 * cancelled by a reversing entry) and Stop for a recurring one.
 */
export default function ExtraChargesPage() {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const [form] = Form.useForm<Values>();
  const retry = useRetryKey();
  const ls = useListState({ orderBy: 'extra_charge_id' });
  const f = ls.filters;
  const list = useApi(fx.listExtraCharges, { query: { ...ls.query, ...f } as never });
  const refresh = [fx.listExtraCharges, fx.listExtraChargeRuns, api.finance.listTransactions];
  const create = useApiMutation(fx.createExtraCharge, refresh);
  const stop = useApiMutation(fx.stopExtraCharge, refresh);
  const frequency = Form.useWatch('frequency', form);

  const submit = async (v: Values) => {
    const r = await create.mutateAsync({
      body: {
        client_id: v.client_id as number,
        side: v.side,
        name: v.name,
        amount: v.amount.trim(),
        frequency: v.frequency,
        ...(v.start ? { start_date: v.start.format('YYYY-MM-DD') } : {}),
        end_date: v.frequency !== 'once' && v.end ? v.end.format('YYYY-MM-DD') : null,
        note: v.note,
        idempotency_key: retry.key(),
      },
    });
    retry.renew();
    flash(t('finx.chargeCreated', { n: r.charged }));
    form.resetFields();
  };

  return (
    <div>
      <div className="page-head">
        <h1>{t('finx.extraCharges')}</h1>
      </div>
      <Form<Values>
        form={form}
        layout="inline"
        style={{ rowGap: 8, marginBottom: 16 }}
        initialValues={{ side: 'customer', frequency: 'once', name: '', amount: '', note: '' }}
        onFinish={(v) => void submit(v)}
        data-testid="charge-form"
      >
        <Form.Item name="client_id" rules={[{ required: true, message: t('finx.selectCarrier') }]}>
          <CarrierSelect onChange={(v) => form.setFieldValue('client_id', v)} testId="charge-carrier" />
        </Form.Item>
        <Form.Item name="side">
          <Select
            style={{ width: 280 }}
            data-testid="charge-side"
            options={(['customer', 'vendor'] as const).map((s) => ({
              value: s,
              label: t(`finx.sides.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="name" rules={[{ required: true, message: t('finx.required') }]}>
          <Input placeholder={t('finx.chargeName')} style={{ width: 220 }} data-testid="charge-name" />
        </Form.Item>
        <Form.Item name="amount" rules={[{ required: true, message: t('finx.required') }]}>
          <Input
            placeholder={t('finx.amount')}
            style={{ width: 110 }}
            inputMode="decimal"
            data-testid="charge-amount"
          />
        </Form.Item>
        <Form.Item name="frequency">
          <Select
            style={{ width: 130 }}
            data-testid="charge-frequency"
            options={fx.CHARGE_FREQUENCIES.map((q) => ({ value: q, label: t(`finx.frequencies.${q}`) }))}
          />
        </Form.Item>
        <Form.Item name="start">
          <DatePicker placeholder={t('finx.startDate')} data-testid="charge-start" />
        </Form.Item>
        {frequency && frequency !== 'once' && (
          <Form.Item name="end">
            <DatePicker placeholder={t('finx.endDate')} data-testid="charge-end" />
          </Form.Item>
        )}
        <Form.Item name="note">
          <Input placeholder={t('finx.note')} style={{ width: 180 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="charge-save">
          {t('finx.newCharge')}
        </Button>
      </Form>
      <Space wrap style={{ marginBottom: 12 }}>
        <CarrierSelect
          value={f.client_id ? Number(f.client_id) : undefined}
          onChange={(v) => ls.setFilter('client_id', v === undefined ? null : String(v))}
          testId="filter-carrier"
        />
        <Select
          allowClear
          placeholder={t('common.status')}
          value={f.status}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          style={{ width: 150 }}
          options={fx.CHARGE_STATUSES.map((s) => ({ value: s, label: t(`finx.chargeStatuses.${s}`) }))}
        />
      </Space>
      <Table<ExtraChargeRow>
        rowKey="extra_charge_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="charges"
        onRow={(r) => ({ 'data-testid': `charge-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        expandable={{ expandedRowRender: (r) => <Occurrences charge={r} /> }}
        columns={[
          { key: 'client_name', title: t('finx.carrier'), dataIndex: 'client_name', sorter: true },
          { key: 'name', title: t('finx.chargeName'), dataIndex: 'name', sorter: true },
          {
            key: 'side',
            title: t('finx.side'),
            render: (_, r) => t(`finx.sides.${r.side}`),
          },
          {
            key: 'amount',
            title: t('finx.amount'),
            align: 'right',
            sorter: true,
            render: (_, r) => money(r.amount, 2, r.currency),
          },
          {
            key: 'frequency',
            title: t('finx.frequency'),
            render: (_, r) => t(`finx.frequencies.${r.frequency}`),
          },
          { key: 'start_date', title: t('finx.startDate'), dataIndex: 'start_date', sorter: true },
          { key: 'end_date', title: t('finx.endDate'), render: (_, r) => r.end_date ?? '' },
          {
            key: 'status',
            title: t('common.status'),
            render: (_, r) => (
              <Tag
                color={r.status === 'active' ? 'green' : r.status === 'stopped' ? 'red' : undefined}
                data-testid="charge-status"
              >
                {t(`finx.chargeStatuses.${r.status}`)}
              </Tag>
            ),
          },
          {
            key: 'charged_total',
            title: t('finx.chargedTotal'),
            align: 'right',
            render: (_, r) => (
              <span data-testid="charge-total">
                {money(r.charged_total, 2, r.currency)} ({r.charged_count})
              </span>
            ),
          },
          { key: 'next_date', title: t('finx.nextDate'), render: (_, r) => r.next_date ?? '' },
          {
            key: 'actions',
            title: '',
            render: (_, r) =>
              r.status === 'active' && r.frequency !== 'once' ? (
                <Button
                  size="small"
                  danger
                  data-testid="charge-stop"
                  onClick={() =>
                    void (async () => {
                      if (!(await confirm({ title: t('finx.stopConfirm'), danger: true }))) return;
                      await stop.mutateAsync({ params: { id: r.extra_charge_id } });
                      flash(t('finx.done'));
                    })()
                  }
                >
                  {t('finx.stop')}
                </Button>
              ) : null,
          },
        ]}
      />
    </div>
  );
}

/** The occurrences of one charge, each with Cancel while charged. */
function Occurrences({ charge }: { charge: ExtraChargeRow }) {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const runs = useApi(fx.listExtraChargeRuns, { params: { id: charge.extra_charge_id } });
  const cancel = useApiMutation(fx.cancelExtraChargeRun, [
    fx.listExtraCharges,
    fx.listExtraChargeRuns,
    api.finance.listTransactions,
  ]);
  return (
    <Table
      rowKey="occurrence"
      size="small"
      pagination={false}
      loading={runs.isLoading}
      dataSource={runs.data?.items ?? []}
      data-testid={`occurrences-${charge.extra_charge_id}`}
      columns={[
        { key: 'charge_date', title: t('finx.startDate'), dataIndex: 'charge_date' },
        {
          key: 'amount',
          title: t('finx.amount'),
          align: 'right',
          render: (_, r) => money(r.amount, 2, charge.currency),
        },
        {
          key: 'status',
          title: t('common.status'),
          render: (_, r) => (
            <span data-testid="occurrence-status">{t(`finx.occurrenceStatuses.${r.status}`)}</span>
          ),
        },
        {
          key: 'actions',
          title: '',
          render: (_, r) =>
            r.status === 'charged' ? (
              <Button
                size="small"
                data-testid="occurrence-cancel"
                onClick={() =>
                  void (async () => {
                    if (!(await confirm({ title: t('finx.cancelConfirm'), danger: true }))) return;
                    await cancel.mutateAsync({
                      params: { id: charge.extra_charge_id, occurrence: r.occurrence },
                    });
                    flash(t('finx.done'));
                  })()
                }
              >
                {t('finx.cancel')}
              </Button>
            ) : (
              <span>{r.canceled_by ?? ''}</span>
            ),
        },
      ]}
    />
  );
}
