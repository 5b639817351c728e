import { api } from '@tandem/contract';
import { Button, Card, Form, InputNumber, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { checked, submitting, useTrunkOptions } from './shared';
import './i18n';

/** Routing > Dynamic Routing > trunk priority > new / {trunk_id}/edit: an egress trunk of the pool with priority and limits. */
export default function DynamicTrunkEditPage() {
  const { t } = useTranslation();
  const { id: idText, trunkId } = useParams();
  const id = Number(idText);
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const trunks = useTrunkOptions('egress');
  const pool = useApi(api.routing.listDynamicTrunks, { params: { id } });
  const existing = trunkId ? pool.data?.items.find((e) => e.trunk_id === Number(trunkId)) : undefined;
  useEffect(() => {
    if (existing)
      form.setFieldsValue({
        trunk_id: existing.trunk_id,
        priority: existing.priority,
        call_limit: existing.call_limit,
        cps_limit: existing.cps_limit,
      });
  }, [existing, form]);
  const back = `/routing/dynamic_routing/${id}/trunk_priority`;
  const label = (f: string) => t(`routing.fields.${f}`, { defaultValue: f });

  const save = async () => {
    const v = form.getFieldsValue(true) as Record<string, unknown>;
    const body = {
      trunk_id: v.trunk_id,
      priority: v.priority ?? null,
      call_limit: v.call_limit ?? null,
      cps_limit: v.cps_limit ?? null,
    };
    setBusy(true);
    let ok = false;
    if (trunkId) {
      const { trunk_id: _t, ...rest } = body;
      const parsed = checked(api.routing.updateDynamicTrunk.body!, rest, form, label);
      if (parsed)
        ok = await submitting(form, () =>
          call(
            api.routing.updateDynamicTrunk,
            { params: { id, trunk_id: Number(trunkId) }, body: parsed },
            { errorMode: 'inline' },
          ),
        );
    } else {
      const parsed = checked(api.routing.dynamicTrunkBody, body, form, label);
      if (parsed)
        ok = await submitting(form, () =>
          call(api.routing.addDynamicTrunk, { params: { id }, body: parsed }, { errorMode: 'inline' }),
        );
    }
    setBusy(false);
    if (ok) {
      flash(t(trunkId ? 'common.modifiedSuccessfully' : 'common.createdSuccessfully'));
      navigate(back);
    }
  };
  const taken = new Set((pool.data?.items ?? []).map((e) => e.trunk_id));
  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>
          {t(trunkId ? 'routing.editPoolTrunk' : 'routing.addTrunk')}
        </h1>
      }
      style={{ maxWidth: 640 }}
    >
      <Form form={form} layout="vertical" onFinish={() => void save()} data-testid="form-pool-trunk">
        <Form.Item name="trunk_id" label={t('routing.egressTrunk')} required>
          <Select
            showSearch
            optionFilterProp="label"
            disabled={Boolean(trunkId)}
            options={trunks.options.filter((o) => !taken.has(o.value) || o.value === Number(trunkId))}
            data-testid="field-trunk_id"
          />
        </Form.Item>
        <Form.Item name="priority" label={t('routing.priority')} extra={t('routing.priorityHelp')}>
          <InputNumber min={0} max={1000} style={{ width: 200 }} data-testid="field-priority" />
        </Form.Item>
        <Space size={16}>
          <Form.Item name="call_limit" label={t('routing.callLimit')}>
            <InputNumber min={0} style={{ width: 200 }} data-testid="field-call_limit" />
          </Form.Item>
          <Form.Item name="cps_limit" label={t('routing.cpsLimit')}>
            <InputNumber min={0} style={{ width: 200 }} data-testid="field-cps_limit" />
          </Form.Item>
        </Space>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="form-save">
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate(back)}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
