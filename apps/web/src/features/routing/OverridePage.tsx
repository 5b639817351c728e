import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import './i18n';

type Values = Record<number, { override_asr: string; override_acd: string }>;

/** Routing > Dynamic Routing > override: fixed ASR / ACD figures per trunk that replace the measured ones for this route's ordering. */
export default function OverridePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const qc = useQueryClient();
  const { flash } = useFeedback();
  const route = useApi(api.routing.dynamicRoute.get, { params: { id } });
  const pool = useApi(api.routing.listDynamicTrunks, { params: { id } });
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (pool.data)
      setValues(
        Object.fromEntries(
          pool.data.items.map((e) => [
            e.trunk_id,
            { override_asr: e.override_asr ?? '', override_acd: e.override_acd ?? '' },
          ]),
        ),
      );
  }, [pool.data]);
  const items = pool.data?.items ?? [];
  const save = async () => {
    setErrors({});
    const trunks = items.map((e) => ({
      trunk_id: e.trunk_id,
      override_asr: values[e.trunk_id]?.override_asr || null,
      override_acd: values[e.trunk_id]?.override_acd || null,
    }));
    try {
      await call(
        api.routing.setDynamicOverride,
        { params: { id }, body: { trunks } },
        { errorMode: 'inline' },
      );
      flash(t('common.modifiedSuccessfully'));
      await qc.invalidateQueries({ queryKey: ['GET', api.routing.listDynamicTrunks.path] });
    } catch (e) {
      if (e instanceof ApiError && e.errors) setErrors(e.errors);
    }
  };
  const input = (
    i: number,
    trunkId: number,
    field: 'override_asr' | 'override_acd',
    placeholder: string | null,
  ) => {
    const error = errors[`trunks.${i}.${field}`];
    return (
      <Space direction="vertical" size={0}>
        <Input
          style={{ width: 130 }}
          status={error ? 'error' : undefined}
          placeholder={placeholder ?? t('routing.measured')}
          value={values[trunkId]?.[field] ?? ''}
          onChange={(ev) =>
            setValues({ ...values, [trunkId]: { ...values[trunkId]!, [field]: ev.target.value } })
          }
          data-testid={`${field}-${trunkId}`}
        />
        {error && <span style={{ color: '#cf1322', fontSize: 12 }}>{error}</span>}
      </Space>
    );
  };
  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>
          {t('routing.overrideOf', { name: route.data?.name ?? '' })}
        </h1>
      }
      extra={<Link to={`/routing/dynamic_routing/${id}/qos_parameters`}>{t('routing.qosParameters')}</Link>}
    >
      <Space direction="vertical" style={{ width: '100%' }} size={16}>
        <Alert type="info" showIcon message={t('routing.overrideHelp')} />
        <Table
          rowKey="trunk_id"
          size="middle"
          pagination={false}
          loading={pool.isLoading}
          dataSource={items}
          data-testid="override-table"
          columns={[
            { key: 'trunk', title: t('routing.egressTrunk'), dataIndex: 'trunk_name' },
            { key: 'vendor', title: t('routing.vendor'), dataIndex: 'carrier_name' },
            {
              key: 'asr',
              title: t('routing.overrideAsr'),
              render: (_, e, i) => input(i, e.trunk_id, 'override_asr', e.asr),
            },
            {
              key: 'acd',
              title: t('routing.overrideAcd'),
              render: (_, e, i) => input(i, e.trunk_id, 'override_acd', e.acd),
            },
          ]}
        />
        <Button
          type="primary"
          onClick={() => void save()}
          disabled={items.length === 0}
          data-testid="override-save"
        >
          {t('common.save')}
        </Button>
      </Space>
    </Card>
  );
}
