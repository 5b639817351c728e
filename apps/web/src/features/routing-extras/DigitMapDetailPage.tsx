import { PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { EditDeleteActions } from '../../components/EditDeleteActions';
import { when } from '../routing/shared';
import './i18n';

type Item = api.routingExtras.DigitMapItemRow;

/** What an item does, in words ("prefix 0 -> replace '0' with '44'"). */
export function useDescribe(): (i: Pick<Item, 'action' | 'strip_count' | 'digits' | 'pattern'>) => string {
  const { t } = useTranslation();
  return (i) =>
    t(`routingx.describe.${i.action}`, { count: i.strip_count ?? 0, digits: i.digits, pattern: i.pattern });
}

/** Routing > Digital Maps > digit_mapping_detail/{id}: the map's items in order, with add, edit and delete. */
export default function DigitMapDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { confirm, flash } = useFeedback();
  const describe = useDescribe();
  const [query, setQuery] = useState<{
    page: number;
    per_page: number;
    field?: 'ani' | 'dnis';
    pattern?: string;
  }>({ page: 0, per_page: 50 });
  const map = useApi(api.routingExtras.digitalMap.get, { params: { id } });
  const items = useApi(api.routingExtras.listDigitMapItems, {
    params: { id },
    query: { ...query, order_by: 'position' },
  });
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['GET', api.routingExtras.listDigitMapItems.path] });
    await qc.invalidateQueries({ queryKey: ['GET', api.routingExtras.digitalMap.get.path] });
  };
  const remove = async (i: Item) => {
    const name = `${i.field.toUpperCase()} ${i.pattern || '*'}`;
    if (!(await confirm({ title: t('routingx.deleteItem', { name }), danger: true }))) return;
    await call(
      api.routingExtras.deleteDigitMapItem,
      { params: { id, item_id: i.id } },
      { errorMode: 'inline' },
    );
    flash(t('common.deletedSuccessfully'));
    await refresh();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={
          <h1 style={{ fontSize: 20, margin: 0 }}>
            {t('routingx.mapItemsOf', { name: map.data?.name ?? '' })}
          </h1>
        }
        extra={
          <Space>
            <Link to={`/routing/digital_maps/edit/${id}`} data-testid="edit-map">
              {t('routingx.editMap')}
            </Link>
            <Link to="/routing/digital_maps">{t('routingx.digitalMaps')}</Link>
          </Space>
        }
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <span>{t('routingx.trunks')}:</span>
            {map.data?.trunks.length ? (
              map.data.trunks.map((x) => (
                <Tag key={x.trunk_id} color={x.direction === 'ingress' ? 'blue' : 'purple'}>
                  {x.trunk_name} ({x.carrier_name}) · {t(`routingx.directions.${x.direction}`)}
                </Tag>
              ))
            ) : (
              <span style={{ color: '#8893a0' }}>{t('routingx.noTrunks')}</span>
            )}
          </Space>
          {map.data && (
            <span style={{ color: '#8893a0' }}>
              {t('routingx.updatedAt')} {when(map.data.updated_at)} · {map.data.updated_by}
            </span>
          )}
          <Alert type="info" showIcon message={t('routingx.orderNote')} />
        </Space>
      </Card>
      <Card
        title={t('routingx.items')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => navigate(`/routing/digital_maps/edit/${id}/new`)}
            data-testid="add-item"
          >
            {t('routingx.addItem')}
          </Button>
        }
      >
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            allowClear
            placeholder={t('routingx.field')}
            style={{ width: 140 }}
            value={query.field}
            onChange={(v) => setQuery({ ...query, page: 0, field: v })}
            options={[
              { value: 'ani', label: 'ANI' },
              { value: 'dnis', label: 'DNIS' },
            ]}
            data-testid="filter-field"
          />
          <Input.Search
            allowClear
            placeholder={t('routingx.pattern')}
            style={{ width: 200 }}
            onSearch={(v) => setQuery({ ...query, page: 0, pattern: v || undefined })}
            data-testid="filter-pattern"
          />
        </Space>
        <Table<Item>
          rowKey="id"
          size="small"
          loading={items.isLoading}
          dataSource={items.data?.items ?? []}
          pagination={{
            current: query.page + 1,
            pageSize: query.per_page,
            total: items.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 30, 50, 100],
            onChange: (p, size) => setQuery({ ...query, page: p - 1, per_page: size }),
          }}
          data-testid="items-table"
          columns={[
            { key: 'position', title: t('routingx.position'), dataIndex: 'position', width: 80 },
            {
              key: 'field',
              title: t('routingx.field'),
              render: (_, i) => (
                <Tag color={i.field === 'ani' ? 'gold' : 'cyan'}>{i.field.toUpperCase()}</Tag>
              ),
            },
            { key: 'match', title: t('routingx.match'), render: (_, i) => t(`routingx.matches.${i.match}`) },
            {
              key: 'pattern',
              title: t('routingx.pattern'),
              render: (_, i) => (i.pattern ? <code>{i.pattern}</code> : <i>{t('routingx.any')}</i>),
            },
            { key: 'action', title: t('routingx.result'), render: (_, i) => describe(i) },
            { key: 'note', title: t('routingx.note'), dataIndex: 'note' },
            {
              key: 'actions',
              title: t('common.actions'),
              width: 100,
              render: (_, i) => (
                <EditDeleteActions
                  onEdit={() => navigate(`/routing/digital_maps/edit/${id}/${i.id}`)}
                  onDelete={() => void remove(i)}
                  testId={`item-${i.position}`}
                />
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
