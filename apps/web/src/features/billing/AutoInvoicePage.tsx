import { api, type AutoInvoiceRow } from '@tandem/contract';
import { Button, DatePicker, Popover, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import './i18n';

/**
 * Finance > Auto Invoice Management: each carrier's automatic invoicing on its payment term's cycle
 * (started or stopped, from which period, invoiced up to where, last run and error); start with a
 * first period, stop, and run now (the hourly durable job does the same).
 */
export default function AutoInvoicePage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const ls = useListState({ orderBy: 'name' });
  const list = useApi(api.billing.listAutoInvoices, {
    query: { page: ls.query.page, per_page: ls.query.per_page } as never,
  });
  const inv = [api.billing.listAutoInvoices];
  const start = useApiMutation(api.billing.startAutoInvoice, inv);
  const stop = useApiMutation(api.billing.stopAutoInvoice, inv);
  const run = useApiMutation(api.billing.runAutoInvoices, inv);
  return (
    <div>
      <div className="page-head">
        <h1>{t('billing.autoInvoices')}</h1>
        <Button
          type="primary"
          data-testid="run-now"
          onClick={async () => {
            const r = await run.mutateAsync({});
            flash(t('billing.runQueued', { id: r.job_id }));
          }}
        >
          {t('billing.runNow')}
        </Button>
      </div>
      <Table<AutoInvoiceRow>
        rowKey="client_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="auto-invoices"
        onRow={(r) => ({ 'data-testid': `auto-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg) => ls.onTableChange(pg, [])}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'name',
            title: t('billing.carrier'),
            render: (_, r) => (
              <Link to={`/finance/carrier_invoice_history/${r.client_id}/${encodeURIComponent(r.name)}`}>
                {r.name}
              </Link>
            ),
          },
          { key: 'payment_term', title: t('billing.paymentTerm'), render: (_, r) => r.payment_term ?? '–' },
          { key: 'cycle', title: t('billing.cycle'), render: (_, r) => r.invoicing_cycle ?? '–' },
          { key: 'time_zone', title: t('billing.timeZone'), dataIndex: 'time_zone' },
          { key: 'generate_at', title: t('billing.generateAt'), dataIndex: 'generate_at' },
          {
            key: 'started',
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={r.started ? 'green' : 'default'} data-testid="auto-state">
                {t(r.started ? 'billing.started' : 'billing.stopped')}
              </Tag>
            ),
          },
          {
            key: 'first',
            title: t('billing.firstDate'),
            render: (_, r) => (r.first_period_from ? when(r.first_period_from) : '–'),
          },
          {
            key: 'last',
            title: t('billing.lastPeriodEnd'),
            render: (_, r) => (r.last_period_end ? when(r.last_period_end) : '–'),
          },
          {
            key: 'run',
            title: t('billing.lastRun'),
            render: (_, r) => (r.last_run_at ? when(r.last_run_at) : '–'),
          },
          { key: 'invoices', title: t('billing.invoices'), dataIndex: 'invoices', align: 'right' },
          { key: 'error', title: t('billing.lastError'), dataIndex: 'last_error' },
          {
            key: 'actions',
            title: '',
            render: (_, r) =>
              r.started ? (
                <Button
                  size="small"
                  onClick={() => void stop.mutateAsync({ params: { id: r.client_id } })}
                  data-testid="stop"
                >
                  {t('billing.stop')}
                </Button>
              ) : (
                <StartButton
                  onStart={async (first) => {
                    await start.mutateAsync({
                      params: { id: r.client_id },
                      body: { side: r.client_type === 'vendor' ? 'vendor' : 'customer', first_date: first },
                    });
                    flash(t('billing.done'));
                  }}
                />
              ),
          },
        ]}
      />
    </div>
  );
}

function StartButton({ onStart }: { onStart: (firstDate: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [date, setDate] = useState<Dayjs>(dayjs().startOf('month'));
  const [open, setOpen] = useState(false);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      content={
        <Space direction="vertical">
          {t('billing.firstDate')}
          <DatePicker
            value={date}
            onChange={(d) => d && setDate(d)}
            allowClear={false}
            data-testid="first-date"
          />
          <Button
            type="primary"
            size="small"
            data-testid="start-confirm"
            onClick={async () => {
              await onStart(date.format('YYYY-MM-DD'));
              setOpen(false);
            }}
          >
            {t('billing.start')}
          </Button>
        </Space>
      }
    >
      <Button size="small" type="primary" data-testid="start">
        {t('billing.start')}
      </Button>
    </Popover>
  );
}
