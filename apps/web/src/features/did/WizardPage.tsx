import { api } from '@tandem/contract';
import { Button, Card, Form, Input, InputNumber, Radio, Select, Space, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useRuleOptions } from './RulesPages';
import { errorText } from './shared';
import './i18n';

/**
 * Origination > Wizard: vendor (existing or new with its IPs), numbers (list or range) with the
 * vendor billing rule, client (existing or new with its IPs and billing rule): one call, one
 * transaction; the numbers end assigned to the client.
 */
export default function WizardPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const vendors = useApi(api.did.listVendors, { query: { per_page: 999, order_by: 'name' } as never });
  const clients = useApi(api.did.listClients, { query: { per_page: 999, order_by: 'name' } as never });
  const ruleOptions = useRuleOptions();
  const vendorMode = (Form.useWatch('vendor_mode', form) as string | undefined) ?? 'new';
  const clientMode = (Form.useWatch('client_mode', form) as string | undefined) ?? 'new';
  const method = (Form.useWatch('method', form) as string | undefined) ?? 'range';
  const split = (v: unknown) => (typeof v === 'string' ? v : '').split(/[\s,;]+/).filter(Boolean);
  const finish = async () => {
    const v = form.getFieldsValue(true) as Record<string, unknown>;
    setBusy(true);
    try {
      const r = await call(
        api.did.wizard,
        {
          body: {
            vendor_id: vendorMode === 'existing' ? v.vendor_id : null,
            vendor:
              vendorMode === 'new'
                ? { name: v.vendor_name, hosts: split(v.vendor_hosts), tech_prefix: v.tech_prefix ?? '' }
                : null,
            billing_rule_id: v.billing_rule_id,
            ...(method === 'range'
              ? { start: v.start ?? '', count: v.count ?? 0 }
              : { numbers: v.numbers ?? '' }),
            client_id: clientMode === 'existing' ? v.client_id : null,
            client:
              clientMode === 'new'
                ? {
                    name: v.client_name,
                    hosts: split(v.client_hosts),
                    billing_rule_id: v.client_rule_id ?? null,
                    mode: 'postpaid',
                  }
                : null,
          } as never,
        },
        { errorMode: 'inline' },
      );
      flash(t('did.wizardDone', { count: r.assigned }));
      navigate(`/origination/did_repository?client_id=${r.client_id}`);
    } catch (e) {
      flash(errorText(e), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <div className="page-head">
        <h1>{t('did.wizard')}</h1>
      </div>
      <Steps
        current={step}
        style={{ marginBottom: 16 }}
        items={(['vendor', 'numbers', 'client'] as const).map((k) => ({ title: t(`did.step.${k}`) }))}
      />
      <Card>
        <Form
          form={form}
          layout="vertical"
          style={{ maxWidth: 560 }}
          initialValues={{ vendor_mode: 'new', client_mode: 'new', method: 'range' }}
        >
          <div style={{ display: step === 0 ? 'block' : 'none' }}>
            <Form.Item name="vendor_mode">
              <Radio.Group
                options={[
                  { value: 'new', label: t('common.new') },
                  { value: 'existing', label: t('did.existing') },
                ]}
              />
            </Form.Item>
            {vendorMode === 'existing' ? (
              <Form.Item name="vendor_id" label={t('did.vendor')}>
                <Select
                  options={(vendors.data?.items ?? []).map((x) => ({ value: x.carrier_id, label: x.name }))}
                />
              </Form.Item>
            ) : (
              <>
                <Form.Item name="vendor_name" label={t('did.name')}>
                  <Input data-testid="wizard-vendor-name" />
                </Form.Item>
                <Form.Item name="vendor_hosts" label={t('did.hosts')}>
                  <Input data-testid="wizard-vendor-hosts" />
                </Form.Item>
                <Form.Item name="tech_prefix" label={t('did.techPrefix')}>
                  <Input />
                </Form.Item>
              </>
            )}
          </div>
          <div style={{ display: step === 1 ? 'block' : 'none' }}>
            <Form.Item name="billing_rule_id" label={t('did.vendorRule')}>
              <Select options={ruleOptions} data-testid="wizard-rule" />
            </Form.Item>
            <Form.Item name="method">
              <Radio.Group
                options={(['range', 'list'] as const).map((m) => ({
                  value: m,
                  label: t(`did.methods.${m}`),
                }))}
              />
            </Form.Item>
            {method === 'range' ? (
              <Space>
                <Form.Item name="start" label={t('did.start')}>
                  <Input data-testid="wizard-start" />
                </Form.Item>
                <Form.Item name="count" label={t('did.count')}>
                  <InputNumber min={1} max={5000} data-testid="wizard-count" />
                </Form.Item>
              </Space>
            ) : (
              <Form.Item name="numbers" label={t('did.numbers')}>
                <Input.TextArea rows={6} />
              </Form.Item>
            )}
          </div>
          <div style={{ display: step === 2 ? 'block' : 'none' }}>
            <Form.Item name="client_mode">
              <Radio.Group
                options={[
                  { value: 'new', label: t('common.new') },
                  { value: 'existing', label: t('did.existing') },
                ]}
              />
            </Form.Item>
            {clientMode === 'existing' ? (
              <Form.Item name="client_id" label={t('did.client')}>
                <Select
                  options={(clients.data?.items ?? []).map((x) => ({ value: x.carrier_id, label: x.name }))}
                />
              </Form.Item>
            ) : (
              <>
                <Form.Item name="client_name" label={t('did.name')}>
                  <Input data-testid="wizard-client-name" />
                </Form.Item>
                <Form.Item name="client_hosts" label={t('did.hosts')}>
                  <Input data-testid="wizard-client-hosts" />
                </Form.Item>
                <Form.Item name="client_rule_id" label={t('did.clientRule')}>
                  <Select allowClear options={ruleOptions} data-testid="wizard-client-rule" />
                </Form.Item>
              </>
            )}
          </div>
          <Space>
            {step > 0 && <Button onClick={() => setStep(step - 1)}>{t('did.back')}</Button>}
            {step < 2 && (
              <Button type="primary" onClick={() => setStep(step + 1)} data-testid="wizard-next">
                {t('common.next')}
              </Button>
            )}
            {step === 2 && (
              <Button type="primary" loading={busy} onClick={finish} data-testid="wizard-finish">
                {t('did.finish')}
              </Button>
            )}
          </Space>
        </Form>
      </Card>
    </div>
  );
}
