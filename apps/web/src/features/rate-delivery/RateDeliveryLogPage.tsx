import { BellOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Select, Space, Table, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Dropdown } from '../../components/Dropdown';
import { useListState } from '../rates/useListState';
import './i18n';

type Row = api.rateDelivery.DeliveryRow;
const { DELIVERY_STATUSES } = api.rateDelivery;
const STATUS_COLOR: Record<string, string> = {
  queued: 'default',
  sent_succeed: 'blue',
  sent_failed: 'red',
  downloaded: 'green',
  reminder: 'orange',
};
const when = (s: string | null) => (s ? s.replace('T', ' ').slice(0, 19) : '—');
const canRemind = (r: Row) => r.status !== 'downloaded' && r.status !== 'queued';

/**
 * Log > Rate Delivery Log: one row per recipient of each rate send (sent succeed or failed,
 * downloaded with time and IP, reminders). At /routing/rate_table/send_rate_log?rate_table_id=N the
 * same log of one rate table (the rate table permission is enough there).
 */
export default function RateDeliveryLogPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const qc = useQueryClient();
  const sendLog = useLocation().pathname.startsWith('/routing/rate_table/send_rate_log');
  const ls = useListState({ orderBy: 'created_at' });
  const f = ls.filters;
  const scopedId = sendLog && f.rate_table_id ? Number(f.rate_table_id) : null;
  const query = {
    ...ls.query,
    order_dir: f.order_dir ?? (ls.query.order_by === 'created_at' ? 'desc' : ls.query.order_dir),
  };
  const scoped = useApi(
    api.rateDelivery.listSendRateLog,
    { params: { id: scopedId ?? 0 }, query: { ...query, rate_table_id: undefined } as never },
    { enabled: scopedId !== null },
  );
  const all = useApi(
    api.rateDelivery.listDeliveryLog,
    { query: query as never },
    { enabled: scopedId === null },
  );
  const list = scopedId !== null ? scoped : all;
  const table = useApi(
    api.rates.rateTable.get,
    { params: { id: scopedId ?? 0 } },
    { enabled: scopedId !== null },
  );
  const [selected, setSelected] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);

  const remind = async (ids: number[]) => {
    setBusy(true);
    try {
      const r = await call(api.rateDelivery.remind, { body: { delivery_ids: ids } }, { errorMode: 'inline' });
      flash(
        r.reminded ? t('rateDelivery.reminded', { count: r.reminded }) : t('rateDelivery.nothingToRemind'),
      );
      setSelected([]);
      // The reminders go out in the background: look again shortly.
      setTimeout(() => void qc.invalidateQueries({ queryKey: ['GET'] }), 1500);
    } catch {
      /* the toast names the rule */
    } finally {
      setBusy(false);
    }
  };

  const range = [f.time_from ? dayjs(f.time_from) : null, f.time_to ? dayjs(f.time_to) : null] as const;
  const title =
    scopedId !== null && table.data
      ? t('rateDelivery.sendLogOf', { name: table.data.name })
      : t(sendLog ? 'rateDelivery.sendLog' : 'rateDelivery.deliveryLog');
  return (
    <div>
      <div className="page-head">
        <h1>{title}</h1>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          showTime
          allowEmpty={[true, true]}
          value={range as never}
          placeholder={[t('rateDelivery.timeRange'), t('rateDelivery.timeRange')]}
          onChange={(v) =>
            ls.setFilters({
              time_from: v?.[0] ? v[0].toISOString() : null,
              time_to: v?.[1] ? v[1].toISOString() : null,
            })
          }
          data-testid="filter-time"
        />
        {!sendLog || scopedId === null ? (
          <Dropdown
            endpoint={api.rates.rateTable.list}
            valueField="rate_table_id"
            labelField="name"
            allowClear
            hint={t('rateDelivery.allRateTables')}
            value={f.rate_table_id ? Number(f.rate_table_id) : null}
            onChange={(v) => ls.setFilter('rate_table_id', v === null ? null : String(v))}
            style={{ width: 200 }}
            testId="filter-rate-table"
          />
        ) : null}
        <Dropdown
          endpoint={api.carriers.carrier.list}
          valueField="client_id"
          labelField="name"
          kind="carrier"
          allowClear
          hint={t('rateDelivery.allCarriers')}
          value={f.client_id ? Number(f.client_id) : null}
          onChange={(v) => ls.setFilter('client_id', v === null ? null : String(v))}
          style={{ width: 200 }}
          testId="filter-carrier"
        />
        <Select
          allowClear
          placeholder={t('rateDelivery.allStatuses')}
          value={f.status}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          style={{ width: 200 }}
          data-testid="filter-status"
          options={DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`rateDelivery.statuses.${s}`) }))}
        />
        <Button
          icon={<BellOutlined />}
          disabled={!selected.length}
          loading={busy}
          onClick={() => void remind(selected)}
          data-testid="remind-selected"
        >
          {t('rateDelivery.remindSelected')}
        </Button>
      </Space>
      <Table<Row>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="list-rate-delivery-log"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          getCheckboxProps: (r) => ({ disabled: !canRemind(r) }),
        }}
        onRow={(r) => ({ 'data-testid': `delivery-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'created_at',
            title: t('rateDelivery.time'),
            sorter: true,
            sortOrder: ls.sortOrder('created_at'),
            render: (_, r) => when(r.created_at),
          },
          {
            key: 'rate_table_name',
            title: t('rateDelivery.rateTable'),
            dataIndex: 'rate_table_name',
            sorter: true,
          },
          {
            key: 'carrier_name',
            title: t('rateDelivery.carrier'),
            sorter: true,
            render: (_, r) => r.carrier_name || '—',
          },
          { key: 'email', title: t('rateDelivery.email'), dataIndex: 'email', sorter: true },
          {
            key: 'status',
            title: t('rateDelivery.status'),
            sorter: true,
            render: (_, r) => (
              <Tooltip title={r.error || undefined}>
                <Tag color={STATUS_COLOR[r.status]} data-testid={`delivery-status-${r.id}`}>
                  {t(`rateDelivery.statuses.${r.status}`)}
                </Tag>
              </Tooltip>
            ),
          },
          { key: 'error', title: t('rateDelivery.error'), render: (_, r) => r.error || '' },
          {
            key: 'download_method',
            title: t('rateDelivery.downloadMethod'),
            render: (_, r) => t(`rateDelivery.downloadMethods.${r.download_method}`),
          },
          { key: 'file_name', title: t('rateDelivery.file'), dataIndex: 'file_name' },
          {
            key: 'sent_at',
            title: t('rateDelivery.sentAt'),
            sorter: true,
            render: (_, r) => when(r.sent_at),
          },
          {
            key: 'downloaded_at',
            title: t('rateDelivery.downloadedAt'),
            sorter: true,
            render: (_, r) => when(r.downloaded_at),
          },
          { key: 'download_ip', title: t('rateDelivery.downloadIp'), render: (_, r) => r.download_ip || '—' },
          {
            key: 'download_count',
            title: t('rateDelivery.downloads'),
            dataIndex: 'download_count',
            align: 'right',
          },
          {
            key: 'reminder_count',
            title: t('rateDelivery.reminders'),
            dataIndex: 'reminder_count',
            align: 'right',
          },
          {
            key: 'download_deadline',
            title: t('rateDelivery.deadline'),
            render: (_, r) => when(r.download_deadline),
          },
          { key: 'template_name', title: t('rateDelivery.template'), dataIndex: 'template_name' },
          { key: 'user_name', title: t('rateDelivery.user'), dataIndex: 'user_name' },
          {
            key: 'actions',
            title: '',
            render: (_, r) =>
              canRemind(r) ? (
                <Tooltip title={t('rateDelivery.remind')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<BellOutlined />}
                    aria-label={t('rateDelivery.remind')}
                    data-testid={`remind-${r.id}`}
                    onClick={() => void remind([r.id])}
                  />
                </Tooltip>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
