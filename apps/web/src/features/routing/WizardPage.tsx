import { api } from '@tandem/contract';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Steps,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { checked, submitting, usePlanOptions, useTimeProfileOptions, useTrunkOptions } from './shared';
import { TrunkListEditor, type TrunkEntry } from './TrunkListEditor';
import './i18n';

interface Values {
  plan_mode: 'new' | 'existing';
  route_plan_id: number | null;
  plan_name: string;
  prefix: string;
  ani_prefix: string;
  dnis_min_length: number | null;
  dnis_max_length: number | null;
  time_profile_id: number | null;
  route_type: 'static' | 'dynamic';
  route_name: string;
  rule: 'lcr' | 'largest_asr' | 'largest_acd';
  qos_cycle_minutes: number;
  pool: number[];
  defined_by: 'code' | 'code_name' | 'country';
  route_by: 'dnis' | 'lrn';
  item_key: string;
  strategy: 'top_down' | 'percentage' | 'round_robin';
  item_trunks: TrunkEntry[];
  ingress_trunk_ids: number[];
}
const INITIAL: Values = {
  plan_mode: 'new',
  route_plan_id: null,
  plan_name: '',
  prefix: '',
  ani_prefix: '',
  dnis_min_length: null,
  dnis_max_length: null,
  time_profile_id: null,
  route_type: 'dynamic',
  route_name: '',
  rule: 'lcr',
  qos_cycle_minutes: 60,
  pool: [],
  defined_by: 'code',
  route_by: 'dnis',
  item_key: '',
  strategy: 'top_down',
  item_trunks: [],
  ingress_trunk_ids: [],
};
/** Which step shows each field (server errors go back to their step). */
const STEP_OF: Record<string, number> = {
  route_plan_id: 0,
  plan_name: 0,
  prefix: 1,
  ani_prefix: 1,
  dnis_min_length: 1,
  dnis_max_length: 1,
  time_profile_id: 1,
  route_name: 2,
  trunks: 2,
  item: 2,
  rule: 2,
  ingress_trunk_ids: 3,
};

/** Routing > Wizard: a routing plan (new or existing), a prefix row, its static or dynamic route and the ingress trunks that use the plan, in one go. */
export default function WizardPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const [step, setStep] = useState(0);
  const [done, setDone] = useState<{
    route_plan_id: number;
    static_route_id: number | null;
    dynamic_route_id: number | null;
  } | null>(null);
  const [busy, setBusy] = useState(false);
  const plans = usePlanOptions();
  const profiles = useTimeProfileOptions();
  const egress = useTrunkOptions('egress');
  const ingress = useTrunkOptions('ingress');
  const v = { ...INITIAL, ...((Form.useWatch([], form) as Partial<Values> | undefined) ?? {}) } as Values;

  const bodyOf = (x: Values) => ({
    route_plan_id: x.plan_mode === 'existing' ? x.route_plan_id : null,
    plan_name: x.plan_mode === 'new' ? x.plan_name : '',
    prefix: x.prefix ?? '',
    ani_prefix: x.ani_prefix ?? '',
    dnis_min_length: x.dnis_min_length ?? null,
    dnis_max_length: x.dnis_max_length ?? null,
    time_profile_id: x.time_profile_id ?? null,
    route_type: x.route_type,
    route_name: x.route_name ?? '',
    ...(x.route_type === 'dynamic'
      ? {
          rule: x.rule,
          qos_cycle_minutes: x.qos_cycle_minutes,
          trunks: (x.pool ?? []).map((trunk_id) => ({ trunk_id })),
        }
      : {
          defined_by: x.defined_by,
          route_by: x.route_by,
          item: {
            code: x.defined_by === 'code' ? (x.item_key ?? '') : '',
            code_name: x.defined_by === 'code_name' ? (x.item_key ?? '') : '',
            country: x.defined_by === 'country' ? (x.item_key ?? '') : '',
            strategy: x.strategy,
            trunks: (x.item_trunks ?? [])
              .filter((e) => e.trunk_id !== null)
              .map((e) => ({
                trunk_id: e.trunk_id,
                percentage: x.strategy === 'percentage' ? e.percentage : null,
              })),
          },
        }),
    ingress_trunk_ids: x.ingress_trunk_ids ?? [],
  });

  const create = async () => {
    const x = { ...INITIAL, ...(form.getFieldsValue(true) as Partial<Values>) };
    const parsed = checked(api.routing.wizardBody, bodyOf(x), form, (f) =>
      t(`routing.fields.${f}`, { defaultValue: f }),
    );
    const firstError = form.getFieldsError().find((f) => f.errors.length)?.name[0];
    if (!parsed) {
      if (typeof firstError === 'string' && STEP_OF[firstError] !== undefined) setStep(STEP_OF[firstError]);
      return;
    }
    setBusy(true);
    let created: typeof done = null;
    await submitting(form, async () => {
      created = await call(api.routing.routingWizard, { body: parsed }, { errorMode: 'inline' });
    });
    setBusy(false);
    if (created) {
      flash(t('common.createdSuccessfully'));
      setDone(created);
    } else {
      const name = form.getFieldsError().find((f) => f.errors.length)?.name[0];
      if (typeof name === 'string' && STEP_OF[name] !== undefined) setStep(STEP_OF[name]);
    }
  };

  if (done) {
    return (
      <Card>
        <Result
          status="success"
          title={t('routing.wizardDone')}
          data-testid="wizard-done"
          extra={[
            <Link key="plan" to={`/routing/routing_plan/details/${done.route_plan_id}`}>
              <Button type="primary">{t('routing.openPlan')}</Button>
            </Link>,
            <Link
              key="route"
              to={
                done.static_route_id
                  ? `/routing/static_routing/${done.static_route_id}`
                  : `/routing/dynamic_routing/${done.dynamic_route_id}/trunk_priority`
              }
            >
              <Button>{t('routing.openRoute')}</Button>
            </Link>,
            <Link key="sim" to="/tools/call_simulation">
              <Button>{t('routing.callSimulation')}</Button>
            </Link>,
            <Button
              key="again"
              onClick={() => {
                form.resetFields();
                setDone(null);
                setStep(0);
              }}
            >
              {t('routing.wizardAgain')}
            </Button>,
          ]}
        />
      </Card>
    );
  }

  const steps = [
    t('routing.wizardSteps.plan'),
    t('routing.wizardSteps.prefix'),
    t('routing.wizardSteps.route'),
    t('routing.wizardSteps.assign'),
  ];
  const show = (n: number) => ({ display: step === n ? undefined : 'none' });
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.wizard')}</h1>}
      style={{ maxWidth: 960 }}
    >
      <Steps
        current={step}
        onChange={setStep}
        items={steps.map((title) => ({ title }))}
        style={{ marginBottom: 24 }}
        data-testid="wizard-steps"
      />
      <Form form={form} layout="vertical" initialValues={INITIAL} data-testid="form-wizard">
        <div style={show(0)}>
          <Form.Item name="plan_mode">
            <Radio.Group
              optionType="button"
              options={[
                { value: 'new', label: t('routing.newPlanOption') },
                { value: 'existing', label: t('routing.existingPlan') },
              ]}
              data-testid="wizard-plan-mode"
            />
          </Form.Item>
          {v.plan_mode === 'new' ? (
            <Form.Item name="plan_name" label={t('routing.fields.plan_name')} required>
              <Input style={{ maxWidth: 400 }} data-testid="wizard-plan-name" />
            </Form.Item>
          ) : (
            <Form.Item name="route_plan_id" label={t('routing.plan')} required>
              <Select
                showSearch
                optionFilterProp="label"
                style={{ maxWidth: 400 }}
                options={plans}
                data-testid="wizard-plan"
              />
            </Form.Item>
          )}
        </div>
        <div style={show(1)}>
          <Row gutter={12}>
            <Col span={8}>
              <Form.Item name="prefix" label={t('routing.fields.prefix')} extra={t('routing.prefixHelp')}>
                <Input data-testid="wizard-prefix" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="ani_prefix" label={t('routing.fields.ani_prefix')}>
                <Input data-testid="wizard-ani-prefix" />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="dnis_min_length" label={t('routing.fields.dnis_min_length')}>
                <InputNumber min={0} max={32} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="dnis_max_length" label={t('routing.fields.dnis_max_length')}>
                <InputNumber min={0} max={32} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="time_profile_id" label={t('routing.timeProfile')}>
            <Select
              allowClear
              placeholder={t('routing.allTime')}
              style={{ maxWidth: 400 }}
              options={profiles}
            />
          </Form.Item>
        </div>
        <div style={show(2)}>
          <Space size={16} wrap>
            <Form.Item name="route_type" label={t('routing.routeType')}>
              <Radio.Group
                optionType="button"
                options={(['dynamic', 'static'] as const).map((x) => ({
                  value: x,
                  label: t(`routing.routeTypes.${x}`),
                }))}
                data-testid="wizard-route-type"
              />
            </Form.Item>
            <Form.Item name="route_name" label={t('routing.fields.route_name')} required>
              <Input style={{ width: 300 }} data-testid="wizard-route-name" />
            </Form.Item>
          </Space>
          {v.route_type === 'dynamic' ? (
            <>
              <Space size={16} wrap>
                <Form.Item name="rule" label={t('routing.rule')}>
                  <Select
                    style={{ width: 200 }}
                    options={api.routing.DYNAMIC_RULES.map((x) => ({
                      value: x,
                      label: t(`routing.rules.${x}`),
                    }))}
                    data-testid="wizard-rule"
                  />
                </Form.Item>
                <Form.Item name="qos_cycle_minutes" label={t('routing.qosCycleMinutes')}>
                  <InputNumber min={1} max={10080} />
                </Form.Item>
              </Space>
              <Form.Item
                name="pool"
                label={t('routing.egressTrunks')}
                extra={t('routing.poolHelp')}
                validateStatus={form.getFieldError('trunks').length ? 'error' : undefined}
                help={form.getFieldError('trunks')[0]}
              >
                <Select
                  mode="multiple"
                  showSearch
                  optionFilterProp="label"
                  options={egress.options}
                  data-testid="wizard-pool"
                />
              </Form.Item>
              <Form.Item name="trunks" hidden>
                <Input />
              </Form.Item>
            </>
          ) : (
            <>
              <Space size={16} wrap>
                <Form.Item name="defined_by" label={t('routing.definedBy')}>
                  <Select
                    style={{ width: 160 }}
                    options={api.routing.DEFINED_BY.map((x) => ({
                      value: x,
                      label: t(`routing.definedByValues.${x}`),
                    }))}
                  />
                </Form.Item>
                <Form.Item name="route_by" label={t('routing.routeBy')}>
                  <Select
                    style={{ width: 110 }}
                    options={api.routing.ROUTE_BY.map((x) => ({ value: x, label: x.toUpperCase() }))}
                  />
                </Form.Item>
                <Form.Item name="item_key" label={t(`routing.definedByValues.${v.defined_by}`)}>
                  <Input style={{ width: 200 }} data-testid="wizard-item-key" />
                </Form.Item>
                <Form.Item name="strategy" label={t('routing.strategy')}>
                  <Select
                    style={{ width: 180 }}
                    options={api.routing.STATIC_STRATEGIES.map((x) => ({
                      value: x,
                      label: t(`routing.strategies.${x}`),
                    }))}
                    data-testid="wizard-strategy"
                  />
                </Form.Item>
              </Space>
              <Form.Item
                name="item_trunks"
                label={t('routing.trunksInOrder')}
                validateStatus={form.getFieldError('item').length ? 'error' : undefined}
                help={form.getFieldError('item')[0]}
              >
                <TrunkListEditor options={egress.options} percentages={v.strategy === 'percentage'} />
              </Form.Item>
              <Form.Item name="item" hidden>
                <Input />
              </Form.Item>
            </>
          )}
        </div>
        <div style={show(3)}>
          <Form.Item name="ingress_trunk_ids" label={t('routing.assignTo')} extra={t('routing.assignHelp')}>
            <Select
              mode="multiple"
              showSearch
              optionFilterProp="label"
              options={ingress.options}
              data-testid="wizard-ingress"
            />
          </Form.Item>
          <Descriptions bordered size="small" column={1} title={t('routing.summary')}>
            <Descriptions.Item label={t('routing.plan')}>
              {v.plan_mode === 'new' ? v.plan_name : plans.find((p) => p.value === v.route_plan_id)?.label}
            </Descriptions.Item>
            <Descriptions.Item label={t('routing.fields.prefix')}>
              {v.prefix || '*'}
              {v.ani_prefix ? ` · ANI ${v.ani_prefix}` : ''}
            </Descriptions.Item>
            <Descriptions.Item label={t('routing.route')}>
              {t(`routing.routeTypes.${v.route_type}`)} · {v.route_name} ·{' '}
              {v.route_type === 'dynamic'
                ? `${t(`routing.rules.${v.rule}`)}, ${v.pool?.length ?? 0} ${t('routing.trunks')}`
                : `${t(`routing.strategies.${v.strategy}`)}, ${v.item_trunks?.length ?? 0} ${t('routing.trunks')}`}
            </Descriptions.Item>
          </Descriptions>
        </div>
      </Form>
      <Space style={{ marginTop: 24 }}>
        <Button disabled={step === 0} onClick={() => setStep(step - 1)} data-testid="wizard-back">
          {t('common.back')}
        </Button>
        {step < 3 ? (
          <Button type="primary" onClick={() => setStep(step + 1)} data-testid="wizard-next">
            {t('common.next')}
          </Button>
        ) : (
          <Button type="primary" loading={busy} onClick={() => void create()} data-testid="wizard-create">
            {t('common.create')}
          </Button>
        )}
      </Space>
    </Card>
  );
}
