import { PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Descriptions, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { EditDeleteActions } from '../../components/EditDeleteActions';
import { useFeedback } from '../../app/feedback';
import './i18n';

type Entry = z.output<typeof api.routing.dynamicTrunkRow>;

/** Routing > Dynamic Routing > trunk priority: the egress pool with priority (LCR tie-break), call and CPS limits. */
export default function DynamicTrunksPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { flash, confirm } = useFeedback();
  const route = useApi(api.routing.dynamicRoute.get, { params: { id } });
  const pool = useApi(api.routing.listDynamicTrunks, { params: { id } });
  const remove = async (e: Entry) => {
    if (!(await confirm({ title: t('routing.removeTrunk', { name: e.trunk_name }), danger: true }))) return;
    await call(
      api.routing.removeDynamicTrunk,
      { params: { id, trunk_id: e.trunk_id } },
      { errorMode: 'inline' },
    );
    flash(t('common.deletedSuccessfully'));
    await qc.invalidateQueries({ queryKey: ['GET', api.routing.listDynamicTrunks.path] });
  };
  const r = route.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={
          <h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.trunkPriorityOf', { name: r?.name ?? '' })}</h1>
        }
        extra={
          <Space>
            <Link to={`/routing/dynamic_routing/edit/${id}`}>
              <Button data-testid="edit-route">{t('common.edit')}</Button>
            </Link>
            <Link to={`/routing/dynamic_routing/${id}/qos_parameters`}>
              <Button>{t('routing.qosParameters')}</Button>
            </Link>
            <Link to={`/routing/dynamic_routing/override/${id}`}>
              <Button>{t('routing.override')}</Button>
            </Link>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => navigate(`/routing/dynamic_routing/${id}/trunk_priority/new`)}
              data-testid="add-pool-trunk"
            >
              {t('routing.addTrunk')}
            </Button>
          </Space>
        }
      >
        {r && (
          <Descriptions size="small" column={4}>
            <Descriptions.Item label={t('routing.rule')}>{t(`routing.rules.${r.rule}`)}</Descriptions.Item>
            <Descriptions.Item label={t('routing.timeProfile')}>
              {r.time_profile_name ?? t('routing.allTime')}
            </Descriptions.Item>
            <Descriptions.Item label={t('routing.qosCycle')}>
              {t('routing.minutes', { count: r.qos_cycle_minutes })}
            </Descriptions.Item>
            <Descriptions.Item label={t('routing.usage')}>{r.usage_count}</Descriptions.Item>
          </Descriptions>
        )}
        <Table<Entry>
          rowKey="trunk_id"
          size="middle"
          loading={pool.isLoading}
          dataSource={pool.data?.items ?? []}
          pagination={false}
          data-testid="dynamic-pool"
          columns={[
            { key: 'priority', title: t('routing.priority'), render: (_, e) => e.priority ?? '—' },
            {
              key: 'trunk',
              title: t('routing.egressTrunk'),
              render: (_, e) => (
                <Space>
                  <Badge status={e.is_active && e.carrier_is_active ? 'success' : 'default'} />
                  <Link to={`/routing/trunks/edit/${e.trunk_id}/egress`}>{e.trunk_name}</Link>
                </Space>
              ),
            },
            { key: 'carrier', title: t('routing.vendor'), dataIndex: 'carrier_name' },
            {
              key: 'rate_table',
              title: t('routing.rateTable'),
              render: (_, e) =>
                e.rate_table_name ?? <span style={{ color: '#cf1322' }}>{t('routing.noRateTable')}</span>,
            },
            { key: 'call_limit', title: t('routing.callLimit'), render: (_, e) => e.call_limit ?? '∞' },
            { key: 'cps_limit', title: t('routing.cpsLimit'), render: (_, e) => e.cps_limit ?? '∞' },
            { key: 'asr', title: 'ASR %', render: (_, e) => e.override_asr ?? e.asr ?? '—' },
            { key: 'acd', title: t('routing.acdSeconds'), render: (_, e) => e.override_acd ?? e.acd ?? '—' },
            {
              key: 'actions',
              title: t('common.actions'),
              width: 100,
              render: (_, e) => (
                <EditDeleteActions
                  onEdit={() => navigate(`/routing/dynamic_routing/${id}/trunk_priority/${e.trunk_id}/edit`)}
                  onDelete={() => void remove(e)}
                  testId={`pool-${e.trunk_id}`}
                />
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
