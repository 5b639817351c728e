import { PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditDeleteActions } from '../../components/EditDeleteActions';
import { Link, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { checked, submitting, useTimeProfileOptions, useTrunkOptions, when } from './shared';
import { TrunkListEditor, type TrunkEntry } from './TrunkListEditor';
import './i18n';

type Item = z.output<typeof api.routing.staticItemRow>;
type DefinedBy = (typeof api.routing.DEFINED_BY)[number];

/**
 * Routing > Static Routing > one route (also details/:id/:name): its name, how it is defined and
 * routed, and its items (code, code name or country -> strategy, time profile, ordered trunks).
 */
export default function StaticRoutePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const qc = useQueryClient();
  const { flash, confirm } = useFeedback();
  const route = useApi(api.routing.staticRoute.get, { params: { id } });
  const [filter, setFilter] = useState({ page: 0, per_page: 20, code: '' });
  const items = useApi(api.routing.listStaticItems, {
    params: { id },
    query: { page: filter.page, per_page: filter.per_page, code: filter.code || undefined, order_by: 'code' },
  });
  const [editing, setEditing] = useState<Item | 'new' | null>(null);
  const [head] = Form.useForm();
  useEffect(() => {
    if (route.data)
      head.setFieldsValue({
        name: route.data.name,
        defined_by: route.data.defined_by,
        route_by: route.data.route_by,
      });
  }, [route.data, head]);
  const definedBy: DefinedBy = route.data?.defined_by ?? 'code';
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['GET', api.routing.listStaticItems.path] }),
      qc.invalidateQueries({ queryKey: ['GET', api.routing.staticRoute.get.path] }),
    ]);

  const saveHead = async () => {
    const values = head.getFieldsValue() as Record<string, unknown>;
    const parsed = checked(api.routing.staticRoute.updateBody, values, head, (f) =>
      t(`routing.fields.${f}`, { defaultValue: f }),
    );
    if (!parsed) return;
    if (
      await submitting(head, () =>
        call(api.routing.staticRoute.update, { params: { id }, body: parsed }, { errorMode: 'inline' }),
      )
    ) {
      flash(t('common.modifiedSuccessfully'));
      await refresh();
    }
  };
  const remove = async (item: Item) => {
    if (!(await confirm({ title: t('routing.deleteItem', { code: item[definedBy] || '*' }), danger: true })))
      return;
    await call(api.routing.deleteStaticItem, { params: { id, item_id: item.id } }, { errorMode: 'inline' });
    flash(t('common.deletedSuccessfully'));
    await refresh();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.staticRoute')}</h1>}
        extra={<Link to={`/routing/routing_plan/list_by_static/${id}`}>{t('routing.plansUsing')}</Link>}
      >
        <Form form={head} layout="inline" onFinish={() => void saveHead()} data-testid="form-static-head">
          <Form.Item name="name" label={t('routing.name')}>
            <Input style={{ width: 260 }} data-testid="field-name" />
          </Form.Item>
          <Form.Item
            name="defined_by"
            label={t('routing.definedBy')}
            extra={(route.data?.prefix_count ?? 0) > 0 ? t('routing.definedByLocked') : undefined}
          >
            <Select
              style={{ width: 160 }}
              disabled={(route.data?.prefix_count ?? 0) > 0}
              options={api.routing.DEFINED_BY.map((v) => ({
                value: v,
                label: t(`routing.definedByValues.${v}`),
              }))}
              data-testid="field-defined_by"
            />
          </Form.Item>
          <Form.Item name="route_by" label={t('routing.routeBy')}>
            <Select
              style={{ width: 110 }}
              options={api.routing.ROUTE_BY.map((v) => ({ value: v, label: v.toUpperCase() }))}
              data-testid="field-route_by"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="static-save">
            {t('common.save')}
          </Button>
        </Form>
        <div style={{ color: '#8893a0', marginTop: 8 }}>
          {t('routing.lastChange', { at: when(route.data?.updated_at), by: route.data?.updated_by ?? '' })}
        </div>
      </Card>
      <Card
        title={t('routing.items')}
        extra={
          <Space>
            <Input.Search
              allowClear
              placeholder={t(`routing.definedByValues.${definedBy}`)}
              onSearch={(v) => setFilter({ ...filter, page: 0, code: v })}
              style={{ width: 180 }}
              data-testid="filter-code"
            />
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="add-item"
            >
              {t('routing.addItem')}
            </Button>
          </Space>
        }
      >
        <Table<Item>
          rowKey="id"
          size="middle"
          loading={items.isLoading}
          dataSource={items.data?.items ?? []}
          data-testid="static-items"
          pagination={{
            current: filter.page + 1,
            pageSize: filter.per_page,
            total: items.data?.total ?? 0,
            onChange: (p, size) => setFilter({ ...filter, page: p - 1, per_page: size }),
          }}
          columns={[
            {
              key: 'key',
              title: t(`routing.definedByValues.${definedBy}`),
              render: (_, r) => <code>{r[definedBy] || '*'}</code>,
            },
            {
              key: 'strategy',
              title: t('routing.strategy'),
              render: (_, r) => t(`routing.strategies.${r.strategy}`),
            },
            {
              key: 'time_profile',
              title: t('routing.timeProfile'),
              render: (_, r) => r.time_profile_name ?? t('routing.allTime'),
            },
            {
              key: 'trunks',
              title: t('routing.trunks'),
              render: (_, r) => (
                <Space size={[4, 4]} wrap>
                  {r.trunks.map((tr, i) => (
                    <Tag
                      key={tr.trunk_id}
                      color={tr.is_active ? 'geekblue' : 'default'}
                      title={tr.carrier_name}
                    >
                      {i + 1}. {tr.trunk_name}
                      {r.strategy === 'percentage' && tr.percentage !== null
                        ? ` · ${Number(tr.percentage)}%`
                        : ''}
                    </Tag>
                  ))}
                </Space>
              ),
            },
            {
              key: 'actions',
              title: t('common.actions'),
              width: 100,
              render: (_, r) => (
                <EditDeleteActions
                  onEdit={() => setEditing(r)}
                  onDelete={() => void remove(r)}
                  testId={`item-${r.id}`}
                />
              ),
            },
          ]}
        />
      </Card>
      {editing !== null && (
        <ItemDialog
          routeId={id}
          definedBy={definedBy}
          item={editing === 'new' ? null : editing}
          onClose={async (saved) => {
            setEditing(null);
            if (saved) {
              flash(t(editing === 'new' ? 'common.createdSuccessfully' : 'common.modifiedSuccessfully'));
              await refresh();
            }
          }}
        />
      )}
    </Space>
  );
}

/** The item editor: the code (or name or country), strategy, time profile and the ordered trunks. */
export function ItemDialog({
  routeId,
  definedBy,
  item,
  onClose,
}: {
  routeId: number;
  definedBy: DefinedBy;
  item: Item | null;
  onClose: (saved: boolean) => void | Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const trunks = useTrunkOptions('egress');
  const profiles = useTimeProfileOptions();
  const strategy = Form.useWatch('strategy', form) as string | undefined;
  const initial = {
    code: item?.code ?? '',
    code_name: item?.code_name ?? '',
    country: item?.country ?? '',
    strategy: item?.strategy ?? 'top_down',
    time_profile_id: item?.time_profile_id ?? null,
    trunks: (item?.trunks ?? []).map((x): TrunkEntry => ({
      trunk_id: x.trunk_id,
      percentage: x.percentage === null ? null : String(Number(x.percentage)),
    })),
  };
  const save = async () => {
    const v = { ...initial, ...(form.getFieldsValue(true) as typeof initial) };
    const body = {
      code: definedBy === 'code' ? v.code : '',
      code_name: definedBy === 'code_name' ? v.code_name : '',
      country: definedBy === 'country' ? v.country : '',
      strategy: v.strategy,
      time_profile_id: v.time_profile_id ?? null,
      trunks: v.trunks
        .filter((x) => x.trunk_id !== null)
        .map((x) => ({
          trunk_id: x.trunk_id,
          percentage: v.strategy === 'percentage' ? x.percentage : null,
        })),
    };
    const parsed = checked(api.routing.staticItemBody, body, form, (f) =>
      t(`routing.fields.${f}`, { defaultValue: f }),
    );
    if (!parsed) return;
    setBusy(true);
    const ok = await submitting(form, () =>
      item
        ? call(
            api.routing.updateStaticItem,
            { params: { id: routeId, item_id: item.id }, body: parsed },
            { errorMode: 'inline' },
          )
        : call(
            api.routing.createStaticItem,
            { params: { id: routeId }, body: parsed },
            { errorMode: 'inline' },
          ),
    );
    setBusy(false);
    if (ok) await onClose(true);
  };
  return (
    <Modal
      open
      title={t(item ? 'routing.editItem' : 'routing.addItem')}
      onCancel={() => void onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okText={t('common.save')}
      okButtonProps={{ 'data-testid': 'item-save' } as never}
      width={720}
    >
      <Form form={form} layout="vertical" initialValues={initial} data-testid="form-static-item">
        <Form.Item
          name={definedBy}
          label={t(`routing.definedByValues.${definedBy}`)}
          required={definedBy !== 'code'}
          extra={definedBy === 'code' ? t('routing.codeHelp') : t('routing.nameHelp')}
        >
          <Input data-testid={`field-${definedBy}`} />
        </Form.Item>
        <Space size={16} wrap>
          <Form.Item name="strategy" label={t('routing.strategy')}>
            <Select
              style={{ width: 200 }}
              options={api.routing.STATIC_STRATEGIES.map((v) => ({
                value: v,
                label: t(`routing.strategies.${v}`),
              }))}
              data-testid="field-strategy"
            />
          </Form.Item>
          <Form.Item name="time_profile_id" label={t('routing.timeProfile')}>
            <Select
              style={{ width: 240 }}
              allowClear
              placeholder={t('routing.allTime')}
              options={profiles}
              data-testid="field-time_profile_id"
            />
          </Form.Item>
        </Space>
        <Form.Item name="trunks" label={t('routing.trunksInOrder')} required>
          <TrunkListEditor options={trunks.options} percentages={strategy === 'percentage'} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
