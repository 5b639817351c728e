import { UploadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Modal, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { UploadWidget } from '../../components/UploadWidget';
import './i18n';
import { useListState } from './useListState';

type Row = z.infer<typeof api.rates.jurisdictionRow>;

/** Configuration > US Jurisdiction: NPA-NXX -> state and LATA, searched and uploaded as a CSV file. */
export default function UsJurisdictionPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { flash } = useFeedback();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const ls = useListState({ orderBy: 'npanxx' });
  const list = useApi(api.rates.listJurisdiction, { query: ls.query as never });
  return (
    <div>
      <div className="page-head">
        <h1>{t('rates.usJurisdiction')}</h1>
        <Button
          type="primary"
          icon={<UploadOutlined />}
          onClick={() => setOpen(true)}
          data-testid="jurisdiction-upload"
        >
          {t('rates.upload')}
        </Button>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('rates.npanxx')}
          defaultValue={ls.filters.npanxx}
          onSearch={(v) => ls.setFilter('npanxx', v)}
          style={{ width: 160 }}
          data-testid="filter-npanxx"
        />
        <Input.Search
          allowClear
          placeholder={t('rates.usState')}
          defaultValue={ls.filters.state}
          onSearch={(v) => ls.setFilter('state', v)}
          style={{ width: 140 }}
          data-testid="filter-state"
        />
        <Input.Search
          allowClear
          placeholder={t('rates.lata')}
          defaultValue={ls.filters.lata}
          onSearch={(v) => ls.setFilter('lata', v)}
          style={{ width: 140 }}
          data-testid="filter-lata"
        />
      </Space>
      <Table<Row>
        rowKey="npanxx"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="list-jurisdiction"
        onRow={(r) => ({ 'data-testid': `npanxx-row-${r.npanxx}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'npanxx',
            dataIndex: 'npanxx',
            title: t('rates.npanxx'),
            sorter: true,
            sortOrder: ls.sortOrder('npanxx'),
          },
          { key: 'npa', dataIndex: 'npa', title: t('rates.npa') },
          { key: 'nxx', dataIndex: 'nxx', title: t('rates.nxx') },
          {
            key: 'state',
            dataIndex: 'state',
            title: t('rates.usState'),
            sorter: true,
            sortOrder: ls.sortOrder('state'),
          },
          {
            key: 'lata',
            dataIndex: 'lata',
            title: t('rates.lata'),
            sorter: true,
            sortOrder: ls.sortOrder('lata'),
          },
        ]}
      />
      <Modal
        open={open}
        title={t('rates.usJurisdiction')}
        footer={null}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <p>{t('rates.jurisdictionHelp')}</p>
        <Space style={{ marginBottom: 12 }}>
          <span>{t('rates.mode')}</span>
          <Select
            value={mode}
            onChange={setMode}
            style={{ width: 220 }}
            data-testid="jurisdiction-mode"
            options={(['merge', 'replace'] as const).map((m) => ({ value: m, label: t(`rates.modes.${m}`) }))}
          />
        </Space>
        <UploadWidget
          url={api.rates.uploadJurisdiction.path}
          accept={['csv', 'xlsx']}
          maxFiles={1}
          fields={{ mode }}
          showStartButton
          testId="jurisdiction-file"
          onSuccess={(_f, r) => {
            flash(t('rates.uploaded', { count: r.object_id }));
            setOpen(false);
            void qc.invalidateQueries({
              queryKey: [api.rates.listJurisdiction.method, api.rates.listJurisdiction.path],
            });
          }}
        />
      </Modal>
    </div>
  );
}
