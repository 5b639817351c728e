import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Select, Space, Steps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';
import { issuesToFields, pathOf } from '../trunks/trunkFormLogic';
import '../trunks/i18n';
import './i18n';

type Step = (typeof api.carriers.WIZARD_STEPS)[number];
type Values = Record<string, unknown>;
const STEPS = api.carriers.WIZARD_STEPS;
const carrierStart = (mode: string): Values => ({
  name: '',
  company: '',
  main_email: '',
  mode,
  currency: 'USD',
  credit_limit: '0',
  allowed_credit: '0',
});
const trunkStart = (): Values => ({
  name: '',
  tech_prefix: '',
  hosts: [{ host_type: 'ip', host: '', port: null, netmask: 32 }],
});
const schemaOf = (step: Step): z.ZodType =>
  step === 'vendor' || step === 'customer' ? api.carriers.carrierCreate : api.carriers.wizardTrunk;
const clean = (v: Values) =>
  Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== ''));

/**
 * Termination > Wizard: vendor, vendor trunk, customer, customer trunk. Each step is checked with the
 * contract schema and the server's rules (duplicates, hosts in use) before the next; the last step
 * creates all four in one transaction.
 */
export default function WizardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  const [current, setCurrent] = useState(0);
  const [busy, setBusy] = useState(false);
  const [data, setData] = useState<Record<Step, Values>>({
    vendor: carrierStart('postpaid'),
    vendor_trunk: trunkStart(),
    customer: carrierStart('prepaid'),
    customer_trunk: trunkStart(),
  });
  const [form] = Form.useForm();
  const step = STEPS[current];
  // Each step starts from its own values (the form instance is shared by the steps).
  useEffect(() => form.resetFields(), [current, form]);
  const items = (list?: { id: number; name: string }[]) =>
    (list ?? []).map((i) => ({ value: i.id, label: i.name }));
  const labelOf = (path: (string | number)[]) =>
    String([...path].reverse().find((p) => typeof p === 'string') ?? '');

  const showErrors = (errors: Record<string, string>, prefix: string) => {
    const fields = Object.entries(errors).map(([k, msg]) => ({
      name: pathOf(k.startsWith(prefix + '.') ? k.slice(prefix.length + 1) : k),
      errors: [msg],
    }));
    form.setFields(fields);
  };

  const next = async () => {
    if (!step) return;
    const values = { ...data[step], ...(form.getFieldsValue() as Values) };
    const parsed = schemaOf(step).safeParse(clean(values));
    if (!parsed.success) {
      const fields = issuesToFields(parsed.error.issues, labelOf);
      form.setFields(fields.filter((f) => f.name.length));
      for (const f of fields.filter((x) => !x.name.length)) flash(f.errors.join(' '), 'error');
      return;
    }
    setBusy(true);
    try {
      await call(
        api.carriers.checkWizardStep,
        { body: { step, data: clean(values) } as never },
        { errorMode: 'inline' },
      );
      setData((d) => ({ ...d, [step]: values }));
      setCurrent((c) => c + 1);
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        showErrors(e.errors, Object.keys(e.errors)[0]?.startsWith('data.') ? 'data' : step);
    } finally {
      setBusy(false);
    }
  };

  const finish = async () => {
    setBusy(true);
    try {
      const body = Object.fromEntries(STEPS.map((s) => [s, clean(data[s])]));
      await call(api.carriers.runWizard, { body: body as never }, { errorMode: 'inline' });
      flash(t('carriers.wizardDone'));
      navigate('/termination/client');
    } catch (e) {
      if (e instanceof ApiError && e.errors) {
        const first = Object.keys(e.errors)[0] ?? '';
        const at = STEPS.findIndex((s) => first.startsWith(s + '.'));
        if (at >= 0) {
          setCurrent(at);
          setTimeout(() => showErrors(e.errors!, STEPS[at]!), 0);
        }
      }
    } finally {
      setBusy(false);
    }
  };

  if (lk.isLoading) return <Spinner />;
  const carrierStep = step === 'vendor' || step === 'customer';
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('carriers.wizard')}</h1>}
      style={{ maxWidth: 980 }}
    >
      <Alert type="info" showIcon message={t('carriers.wizardHelp')} style={{ marginBottom: 16 }} />
      <Steps
        current={current}
        style={{ marginBottom: 24 }}
        items={[...STEPS, 'summary' as const].map((s) => ({ title: t(`carriers.steps.${s}`) }))}
        data-testid="wizard-steps"
      />
      {step ? (
        <Form
          key={step}
          form={form}
          layout="vertical"
          initialValues={data[step]}
          data-testid={`wizard-${step}`}
        >
          {carrierStep ? (
            <Space wrap align="start">
              <Form.Item name="name" label={t('carriers.name')} required>
                <Input style={{ width: 260 }} data-testid="field-name" />
              </Form.Item>
              <Form.Item name="company" label={t('carriers.company')} required>
                <Input style={{ width: 260 }} data-testid="field-company" />
              </Form.Item>
              <Form.Item name="main_email" label={t('carriers.mainEmail')} required>
                <Input style={{ width: 260 }} data-testid="field-main_email" />
              </Form.Item>
              <Form.Item name="mode" label={t('carriers.mode')}>
                <Select
                  style={{ width: 160 }}
                  options={['prepaid', 'postpaid'].map((m) => ({
                    value: m,
                    label: t(`carriers.modes.${m}`),
                  }))}
                  data-testid="field-mode"
                />
              </Form.Item>
              <Form.Item name="credit_limit" label={t('carriers.creditLimit')}>
                <Input style={{ width: 160 }} data-testid="field-credit_limit" />
              </Form.Item>
              <Form.Item name="allowed_credit" label={t('carriers.allowedCredit')}>
                <Input style={{ width: 160 }} data-testid="field-allowed_credit" />
              </Form.Item>
              <Form.Item name="currency" label={t('carriers.currency')}>
                <Input style={{ width: 100 }} data-testid="field-currency" />
              </Form.Item>
              <Form.Item name="payment_term_id" label={t('carriers.paymentTerm')}>
                <Select
                  allowClear
                  style={{ width: 200 }}
                  options={items(lk.data?.payment_terms)}
                  data-testid="field-payment_term_id"
                />
              </Form.Item>
            </Space>
          ) : (
            <>
              <Space wrap align="start">
                <Form.Item name="name" label={t('trunks.name')} required>
                  <Input style={{ width: 260 }} data-testid="field-name" />
                </Form.Item>
                <Form.Item name="tech_prefix" label={t('trunks.techPrefix')}>
                  <Input style={{ width: 140 }} data-testid="field-tech_prefix" />
                </Form.Item>
                <Form.Item name="rate_table_id" label={t('trunks.rateTable')}>
                  <Select
                    allowClear
                    style={{ width: 220 }}
                    options={items(lk.data?.rate_tables)}
                    data-testid="field-rate_table_id"
                  />
                </Form.Item>
                {step === 'customer_trunk' && (
                  <Form.Item name="routing_plan_id" label={t('trunks.routingPlan')}>
                    <Select
                      allowClear
                      style={{ width: 220 }}
                      options={items(lk.data?.routing_plans)}
                      data-testid="field-routing_plan_id"
                    />
                  </Form.Item>
                )}
              </Space>
              <Form.List name="hosts">
                {(fields, ops) => (
                  <div data-testid="list-hosts">
                    {fields.map((f) => (
                      <Space key={f.key} align="start" data-testid={`row-hosts-${f.name}`}>
                        <Form.Item name={[f.name, 'host']} label={t('trunks.host')}>
                          <Input style={{ width: 220 }} data-testid={`field-hosts-${f.name}-host`} />
                        </Form.Item>
                        <Form.Item name={[f.name, 'port']} label={t('trunks.port')}>
                          <InputNumber style={{ width: 110 }} data-testid={`field-hosts-${f.name}-port`} />
                        </Form.Item>
                        <Form.Item name={[f.name, 'netmask']} label={t('trunks.netmask')}>
                          <InputNumber style={{ width: 90 }} data-testid={`field-hosts-${f.name}-netmask`} />
                        </Form.Item>
                        <Button
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('trunks.remove')}
                          onClick={() => ops.remove(f.name)}
                          style={{ marginTop: 30 }}
                        />
                      </Space>
                    ))}
                    <Button
                      icon={<PlusOutlined />}
                      onClick={() => ops.add({ host_type: 'ip', host: '', port: null, netmask: 32 })}
                      data-testid="add-hosts"
                    >
                      {t('trunks.addHost')}
                    </Button>
                  </div>
                )}
              </Form.List>
            </>
          )}
        </Form>
      ) : (
        <Descriptions bordered size="small" column={1} data-testid="wizard-summary">
          {STEPS.map((s) => (
            <Descriptions.Item key={s} label={t(`carriers.steps.${s}`)}>
              {String(data[s].name)}
              {s.endsWith('trunk')
                ? ` — ${((data[s].hosts as { host: string; port: number | null }[] | undefined) ?? []).map((h) => `${h.host}${h.port ? ':' + h.port : ''}`).join(', ')}`
                : ` — ${String(data[s].main_email)}`}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      <Space style={{ marginTop: 24 }}>
        {current > 0 && (
          <Button onClick={() => setCurrent((c) => c - 1)} data-testid="wizard-back">
            {t('common.back')}
          </Button>
        )}
        {step ? (
          <Button type="primary" loading={busy} onClick={() => void next()} data-testid="wizard-next">
            {t('common.next')}
          </Button>
        ) : (
          <Button type="primary" loading={busy} onClick={() => void finish()} data-testid="wizard-finish">
            {t('carriers.finish')}
          </Button>
        )}
      </Space>
    </Card>
  );
}
