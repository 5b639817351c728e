import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, InputNumber, Space, Table, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { submitting, when } from './shared';
import './i18n';

/**
 * Routing > Dynamic Routing > QoS parameters: the QoS cycle the ASR and ACD are measured over, and
 * the figures of each trunk of the pool that largest-ASR / largest-ACD routes order by, measured
 * from the switch's reports over this route's cycle with the attempts they count (a fixed
 * override, when set on the override page, replaces the measured figure).
 */
export default function QosParametersPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const qc = useQueryClient();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const route = useApi(api.routing.dynamicRoute.get, { params: { id } });
  const pool = useApi(api.routing.listDynamicTrunks, { params: { id } });
  useEffect(() => {
    if (route.data) form.setFieldsValue({ qos_cycle_minutes: route.data.qos_cycle_minutes });
  }, [route.data, form]);
  const save = async () => {
    const minutes = form.getFieldValue('qos_cycle_minutes') as number;
    if (
      await submitting(form, () =>
        call(
          api.routing.dynamicRoute.update,
          { params: { id }, body: { qos_cycle_minutes: minutes } },
          { errorMode: 'inline' },
        ),
      )
    ) {
      flash(t('common.modifiedSuccessfully'));
      await qc.invalidateQueries({ queryKey: ['GET', api.routing.dynamicRoute.get.path] });
    }
  };
  const rule = route.data?.rule;
  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.qosOf', { name: route.data?.name ?? '' })}</h1>
      }
      extra={<Link to={`/routing/dynamic_routing/override/${id}`}>{t('routing.override')}</Link>}
    >
      <Space direction="vertical" style={{ width: '100%' }} size={16}>
        {rule === 'lcr' && <Alert type="info" showIcon message={t('routing.qosLcrNote')} />}
        <Form form={form} layout="inline" onFinish={() => void save()} data-testid="form-qos">
          <Form.Item
            name="qos_cycle_minutes"
            label={t('routing.qosCycleMinutes')}
            rules={[{ required: true }]}
          >
            <InputNumber min={1} max={10080} data-testid="field-qos_cycle_minutes" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="qos-save">
            {t('common.save')}
          </Button>
        </Form>
        <Table
          rowKey="trunk_id"
          size="middle"
          pagination={false}
          loading={pool.isLoading}
          dataSource={pool.data?.items ?? []}
          data-testid="qos-table"
          columns={[
            { key: 'trunk', title: t('routing.egressTrunk'), dataIndex: 'trunk_name' },
            { key: 'vendor', title: t('routing.vendor'), dataIndex: 'carrier_name' },
            { key: 'asr', title: t('routing.measuredAsr'), render: (_, e) => e.asr ?? '—' },
            { key: 'acd', title: t('routing.measuredAcd'), render: (_, e) => e.acd ?? '—' },
            {
              key: 'attempts',
              title: t('routing.measuredAttempts'),
              render: (_, e) => e.qos_attempts ?? '—',
            },
            {
              key: 'at',
              title: t('routing.measuredAt'),
              render: (_, e) => when(e.qos_updated_at) || t('routing.notMeasured'),
            },
            {
              key: 'used',
              title: t('routing.usedForOrder'),
              render: (_, e) =>
                e.override_asr !== null || e.override_acd !== null ? (
                  <Tag color="orange">
                    {t('routing.overridden', {
                      asr: e.override_asr ?? e.asr ?? '—',
                      acd: e.override_acd ?? e.acd ?? '—',
                    })}
                  </Tag>
                ) : e.asr === null && e.acd === null ? (
                  // the engine counts a trunk without figures as ASR 0 and ACD 0 (egress-order.ts)
                  <Tag color="default">{t('routing.noFiguresYet')}</Tag>
                ) : (
                  <Tag color="blue">{t('routing.measured')}</Tag>
                ),
            },
          ]}
        />
      </Space>
    </Card>
  );
}
