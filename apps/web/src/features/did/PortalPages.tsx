import { api } from '@tandem/contract';
import { Button, Input, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { formatMoneyText } from '../../lib/money';
import { errorText, time } from './shared';
import './i18n';

type Row = z.infer<typeof api.did.portalDidRow>;

/** Client portal > Origination > Buy DID: numbers on sale at the client's prices; bought at once or requested. */
export function BuyDidPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [number, setNumber] = useState('');
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const list = useApi(api.did.portalAvailable, {
    query: { page, per_page: 20, ...(number ? { number } : {}) } as never,
  });
  const buy = useApiMutation(api.did.portalBuy, [api.did.portalAvailable, api.did.portalMine]);
  return (
    <div>
      <div className="page-head">
        <h1>{t('did.buyDid')}</h1>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('did.number')}
          onSearch={(v) => {
            setNumber(v.trim());
            setPage(0);
          }}
          style={{ width: 220 }}
        />
        <Button
          type="primary"
          disabled={!selected.length}
          data-testid="buy"
          onClick={async () => {
            try {
              const r = await buy.mutateAsync({ body: { did_ids: selected } });
              flash(t('did.bought', r));
              setSelected([]);
            } catch (e) {
              flash(errorText(e), 'error');
            }
          }}
        >
          {t('did.buy')}
        </Button>
      </Space>
      <Table<Row>
        rowKey="did_id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) }}
        pagination={{
          current: page + 1,
          pageSize: 20,
          total: list.data?.total ?? 0,
          onChange: (p) => setPage(p - 1),
          showSizeChanger: false,
        }}
        columns={[
          { title: t('did.number'), dataIndex: 'number' },
          {
            title: t('did.monthlyPrice'),
            render: (_, r) => formatMoneyText(r.monthly_price, { decimals: 4 }),
          },
          { title: t('did.perMinute'), render: (_, r) => formatMoneyText(r.per_minute, { decimals: 4 }) },
          { title: t('did.setupFee'), render: (_, r) => formatMoneyText(r.setup_fee, { decimals: 4 }) },
        ]}
      />
    </div>
  );
}

/** Client portal > Origination > My DID: its numbers (newest assignment first), release. */
export function MyDidPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [selected, setSelected] = useState<number[]>([]);
  const list = useApi(api.did.portalMine, { query: { per_page: 999, end_date_isnull: true } as never });
  const release = useApiMutation(api.did.portalRelease, [api.did.portalAvailable, api.did.portalMine]);
  return (
    <div>
      <div className="page-head">
        <h1>{t('did.myDid')}</h1>
        <Popconfirm
          title={t('did.releaseConfirm')}
          disabled={!selected.length}
          onConfirm={async () => {
            try {
              await release.mutateAsync({ body: { did_ids: selected } });
              flash(t('did.released'));
              setSelected([]);
            } catch (e) {
              flash(errorText(e), 'error');
            }
          }}
        >
          <Button danger disabled={!selected.length} data-testid="release">
            {t('did.release')}
          </Button>
        </Popconfirm>
      </div>
      <Table<Row>
        rowKey="did_id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={false}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (k) => setSelected(k as number[]),
          getCheckboxProps: (r) => ({ disabled: r.state !== 'assigned' }),
        }}
        columns={[
          { title: t('did.number'), dataIndex: 'number' },
          {
            title: t('did.state'),
            render: (_, r) => (
              <Space size={4}>
                <Tag>{t(`did.states.${r.state}`)}</Tag>
                {r.suspended && <Tag color="red">{t('did.suspended')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('did.monthlyPrice'),
            render: (_, r) => formatMoneyText(r.monthly_price, { decimals: 4 }),
          },
          { title: t('did.perMinute'), render: (_, r) => formatMoneyText(r.per_minute, { decimals: 4 }) },
          { title: t('did.assignedAt'), render: (_, r) => time(r.assigned_at) },
        ]}
      />
    </div>
  );
}
