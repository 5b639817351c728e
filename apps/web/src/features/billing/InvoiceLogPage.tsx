import { api } from '@tandem/contract';
import { Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import './i18n';

/** Log > Invoice Log: invoices created (or skipped), sent (or failed), voided, reversed, deleted, downloaded. */
export default function InvoiceLogPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'log_id' });
  const f = ls.filters;
  const list = useApi(api.billing.listInvoiceLog, {
    query: {
      page: ls.query.page,
      per_page: ls.query.per_page,
      ...(f.status ? { status: f.status } : {}),
    } as never,
  });
  return (
    <div>
      <div className="page-head">
        <h1>{t('billing.invoiceLog')}</h1>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('common.status')}
          value={f.status}
          style={{ width: 160 }}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          options={(['success', 'failed', 'skipped'] as const).map((s) => ({
            value: s,
            label: t(`billing.logStatuses.${s}`),
          }))}
        />
      </Space>
      <Table
        rowKey="log_id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="invoice-log"
        onChange={(pg) => ls.onTableChange(pg, [])}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          { key: 'created_at', title: t('billing.time'), render: (_, r) => when(r.created_at) },
          { key: 'invoice_number', title: t('billing.invoiceNumber'), dataIndex: 'invoice_number' },
          { key: 'client_name', title: t('billing.carrier'), dataIndex: 'client_name' },
          { key: 'action', title: t('billing.action'), dataIndex: 'action' },
          {
            key: 'status',
            title: t('common.status'),
            render: (_, r) => t(`billing.logStatuses.${r.status}`),
          },
          { key: 'message', title: t('billing.message'), dataIndex: 'message' },
          { key: 'created_by', title: t('billing.by'), dataIndex: 'created_by' },
        ]}
      />
    </div>
  );
}
