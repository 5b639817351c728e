import { PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditDeleteActions } from '../../components/EditDeleteActions';
import { Link, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { checked, submitting, useRouteOptions, useTimeProfileOptions, when } from './shared';
import './i18n';

type RowItem = z.output<typeof api.routing.prefixRowItem>;
const EMPTY = {
  prefix: '',
  ani_prefix: '',
  dnis_min_length: null,
  dnis_max_length: null,
  ani_min_length: null,
  ani_max_length: null,
  route_type: 'dynamic',
  static_route_id: null,
  dynamic_route_id: null,
  time_profile_id: null,
};

/** Routing > Routing Plan > details: the plan's name and its prefix rows (DNIS/ANI prefix, lengths, route, time profile). */
export default function PlanDetailsPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const qc = useQueryClient();
  const { flash, confirm } = useFeedback();
  const plan = useApi(api.routing.routingPlan.get, { params: { id } });
  const [page, setPage] = useState({ page: 0, per_page: 20, prefix: '' });
  const rows = useApi(api.routing.listPlanRows, {
    params: { id },
    query: { ...page, prefix: page.prefix || undefined, order_by: 'prefix' },
  });
  const [editing, setEditing] = useState<RowItem | 'new' | null>(null);
  const [name, setName] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['GET', api.routing.listPlanRows.path] });

  const rename = async () => {
    if (name === null) return;
    await call(api.routing.routingPlan.update, { params: { id }, body: { name } }, { errorMode: 'inline' });
    flash(t('common.modifiedSuccessfully'));
    setName(null);
    await qc.invalidateQueries({ queryKey: ['GET', api.routing.routingPlan.get.path] });
  };
  const remove = async (r: RowItem) => {
    if (!(await confirm({ title: t('routing.deletePrefix', { prefix: r.prefix || '*' }), danger: true })))
      return;
    await call(api.routing.deletePlanRow, { params: { id, row_id: r.id } }, { errorMode: 'inline' });
    flash(t('common.deletedSuccessfully'));
    await refresh();
  };

  const len = (a: number | null, b: number | null) =>
    a === null && b === null ? '' : `${a ?? 0}–${b ?? '∞'}`;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.planDetails')}</h1>}
        extra={<Link to={`/routing/routing_plan/usage_details/${id}`}>{t('routing.usageDetails')}</Link>}
      >
        <Space wrap align="end">
          <Form layout="vertical">
            <Form.Item label={t('routing.name')} style={{ marginBottom: 0 }}>
              <Input
                value={name ?? plan.data?.name ?? ''}
                onChange={(e) => setName(e.target.value)}
                style={{ width: 320 }}
                data-testid="plan-name"
              />
            </Form.Item>
          </Form>
          <Button
            type="primary"
            disabled={name === null}
            onClick={() => void rename()}
            data-testid="plan-rename"
          >
            {t('common.save')}
          </Button>
          <span style={{ color: '#8893a0' }}>
            {t('routing.lastChange', { at: when(plan.data?.updated_at), by: plan.data?.updated_by ?? '' })}
          </span>
        </Space>
      </Card>
      <Card
        title={t('routing.prefixRows')}
        extra={
          <Space>
            <Input.Search
              allowClear
              placeholder={t('routing.prefix')}
              onSearch={(v) => setPage({ ...page, page: 0, prefix: v })}
              style={{ width: 180 }}
              data-testid="filter-prefix"
            />
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="add-prefix"
            >
              {t('routing.addPrefix')}
            </Button>
          </Space>
        }
      >
        <Table<RowItem>
          rowKey="id"
          size="middle"
          loading={rows.isLoading}
          dataSource={rows.data?.items ?? []}
          data-testid="prefix-rows"
          onRow={(r) =>
            ({ 'data-testid': `prefix-row-${r.prefix || 'any'}` }) as React.HTMLAttributes<HTMLElement>
          }
          pagination={{
            current: page.page + 1,
            pageSize: page.per_page,
            total: rows.data?.total ?? 0,
            onChange: (p, size) => setPage({ ...page, page: p - 1, per_page: size }),
          }}
          columns={[
            {
              key: 'prefix',
              title: t('routing.dnisPrefix'),
              render: (_, r) => <code>{r.prefix || '*'}</code>,
            },
            {
              key: 'ani_prefix',
              title: t('routing.aniPrefix'),
              render: (_, r) => (r.ani_prefix ? <code>{r.ani_prefix}</code> : ''),
            },
            {
              key: 'dnis_len',
              title: t('routing.dnisLength'),
              render: (_, r) => len(r.dnis_min_length, r.dnis_max_length),
            },
            {
              key: 'ani_len',
              title: t('routing.aniLength'),
              render: (_, r) => len(r.ani_min_length, r.ani_max_length),
            },
            {
              key: 'route_type',
              title: t('routing.routeType'),
              render: (_, r) => (
                <Tag color={r.route_type === 'static' ? 'blue' : 'purple'}>
                  {t(`routing.routeTypes.${r.route_type}`)}
                </Tag>
              ),
            },
            {
              key: 'route',
              title: t('routing.route'),
              render: (_, r) =>
                r.route_type === 'static' ? (
                  <Link to={`/routing/static_routing/${r.static_route_id}`}>{r.route_name}</Link>
                ) : (
                  <Link to={`/routing/dynamic_routing/${r.dynamic_route_id}/trunk_priority`}>
                    {r.route_name}
                  </Link>
                ),
            },
            {
              key: 'time_profile',
              title: t('routing.timeProfile'),
              render: (_, r) => r.time_profile_name ?? t('routing.allTime'),
            },
            {
              key: 'actions',
              title: t('common.actions'),
              width: 100,
              render: (_, r) => (
                <EditDeleteActions
                  onEdit={() => setEditing(r)}
                  onDelete={() => void remove(r)}
                  testId={`prefix-${r.id}`}
                />
              ),
            },
          ]}
        />
      </Card>
      {editing !== null && (
        <PrefixRowDialog
          planId={id}
          row={editing === 'new' ? null : editing}
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

function PrefixRowDialog({
  planId,
  row,
  onClose,
}: {
  planId: number;
  row: RowItem | null;
  onClose: (saved: boolean) => void | Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const routes = useRouteOptions();
  const profiles = useTimeProfileOptions();
  const type = Form.useWatch('route_type', form) as 'static' | 'dynamic' | undefined;
  const initial = row ?? EMPTY;

  const save = async () => {
    const values = { ...EMPTY, ...(form.getFieldsValue(true) as Record<string, unknown>) };
    for (const k of [
      'dnis_min_length',
      'dnis_max_length',
      'ani_min_length',
      'ani_max_length',
      'static_route_id',
      'dynamic_route_id',
      'time_profile_id',
    ])
      values[k as keyof typeof values] ??= null as never;
    const {
      id: _id,
      route_plan_id: _plan,
      route_name: _rn,
      time_profile_name: _tp,
      ...body
    } = values as Record<string, unknown>;
    const parsed = checked(api.routing.prefixRowBody, body, form, (f) =>
      t(`routing.fields.${f}`, { defaultValue: f }),
    );
    if (!parsed) return;
    setBusy(true);
    const ok = await submitting(form, () =>
      row
        ? call(
            api.routing.updatePlanRow,
            { params: { id: planId, row_id: row.id }, body: parsed },
            { errorMode: 'inline' },
          )
        : call(api.routing.createPlanRow, { params: { id: planId }, body: parsed }, { errorMode: 'inline' }),
    );
    setBusy(false);
    if (ok) await onClose(true);
  };

  const num = (name: string) => (
    <Form.Item name={name} label={t(`routing.fields.${name}`)}>
      <InputNumber min={0} max={32} style={{ width: '100%' }} data-testid={`field-${name}`} />
    </Form.Item>
  );
  return (
    <Modal
      open
      title={t(row ? 'routing.editPrefix' : 'routing.addPrefix')}
      onCancel={() => void onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okText={t('common.save')}
      okButtonProps={{ 'data-testid': 'prefix-save' } as never}
      width={640}
    >
      <Form form={form} layout="vertical" initialValues={initial} data-testid="form-prefix-row">
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="prefix" label={t('routing.fields.prefix')} extra={t('routing.prefixHelp')}>
              <Input data-testid="field-prefix" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="ani_prefix" label={t('routing.fields.ani_prefix')}>
              <Input data-testid="field-ani_prefix" />
            </Form.Item>
          </Col>
          <Col span={6}>{num('dnis_min_length')}</Col>
          <Col span={6}>{num('dnis_max_length')}</Col>
          <Col span={6}>{num('ani_min_length')}</Col>
          <Col span={6}>{num('ani_max_length')}</Col>
        </Row>
        <Form.Item name="route_type" label={t('routing.routeType')}>
          <Radio.Group
            optionType="button"
            data-testid="field-route_type"
            options={(['static', 'dynamic'] as const).map((v) => ({
              value: v,
              label: t(`routing.routeTypes.${v}`),
            }))}
          />
        </Form.Item>
        {type === 'static' ? (
          <Form.Item name="static_route_id" label={t('routing.fields.static_route_id')} required>
            <Select
              showSearch
              optionFilterProp="label"
              options={routes.static}
              data-testid="field-static_route_id"
            />
          </Form.Item>
        ) : (
          <Form.Item name="dynamic_route_id" label={t('routing.fields.dynamic_route_id')} required>
            <Select
              showSearch
              optionFilterProp="label"
              options={routes.dynamic}
              data-testid="field-dynamic_route_id"
            />
          </Form.Item>
        )}
        <Form.Item name="time_profile_id" label={t('routing.timeProfile')}>
          <Select
            allowClear
            placeholder={t('routing.allTime')}
            options={profiles}
            data-testid="field-time_profile_id"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
