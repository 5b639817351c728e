import { CheckCircleFilled, CloseCircleFilled, InfoCircleFilled, SettingOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { checked, submitting, when } from './shared';
import './i18n';

type Result = z.output<typeof api.routing.simulationResult>;
type Step = Result['trace'][number];

const OUTCOME_COLOR = { ok: 'green', fail: 'red', info: 'blue' } as const;
const OUTCOME_ICON = {
  ok: <CheckCircleFilled />,
  fail: <CloseCircleFilled />,
  info: <InfoCircleFilled />,
} as const;

/** Tools > Call Simulation: a termination call through the engine, with the decision and its full trace. */
export default function CallSimulationPage() {
  const { t } = useTranslation();
  return (
    <div>
      <div className="page-head">
        <h1>{t('routing.callSimulation')}</h1>
        <Link to="/tools/call_simulation/engine">
          <Button icon={<SettingOutlined />} data-testid="to-engine">
            {t('routing.engineAndKeys')}
          </Button>
        </Link>
      </div>
      <Tabs
        items={[
          { key: 'termination', label: t('routing.terminationTab'), children: <TerminationSimulation /> },
          {
            key: 'did',
            label: t('routing.didTab'),
            children: (
              <Space direction="vertical" style={{ width: '100%' }} data-testid="did-tab">
                <Alert type="info" showIcon message={t('routing.didSimulationNote')} />
                <TerminationSimulation />
              </Space>
            ),
          },
        ]}
        data-testid="simulation-tabs"
      />
    </div>
  );
}

function TerminationSimulation() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const status = useApi(api.routing.getEngineStatus, {}, { refetchInterval: 10_000 });

  const simulate = async () => {
    const v = form.getFieldsValue(true) as {
      source_ip?: string;
      source_port?: number | null;
      ani?: string;
      dnis?: string;
      lrn?: string;
      time?: Dayjs | null;
      ocn?: string;
      origid?: string;
      attestation?: 'A' | 'B' | 'C' | null;
    };
    const body = {
      source_ip: v.source_ip ?? '',
      source_port: v.source_port ?? null,
      ani: v.ani ?? '',
      dnis: v.dnis ?? '',
      lrn: v.lrn ? v.lrn : null,
      time: v.time ? v.time.toISOString() : null,
      ocn: v.ocn ? v.ocn : null,
      origid: v.origid ? v.origid : null,
      attestation: v.attestation ?? null,
    };
    const parsed = checked(api.routing.simulationRequest, body, form, (f) =>
      t(`routing.sim.${f}`, { defaultValue: f }),
    );
    if (!parsed) return;
    setBusy(true);
    let answer: Result | null = null;
    await submitting(form, async () => {
      answer = await call(api.routing.callSimulation, { body: parsed }, { errorMode: 'inline' });
    });
    setBusy(false);
    if (answer) setResult(answer);
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ source_port: 5060, time: null }}
          onFinish={() => void simulate()}
          data-testid="form-simulation"
        >
          <Row gutter={12}>
            <Col xs={24} md={6}>
              <Form.Item name="source_ip" label={t('routing.sim.source_ip')} required>
                <Input placeholder="198.51.100.10" data-testid="sim-source-ip" />
              </Form.Item>
            </Col>
            <Col xs={12} md={3}>
              <Form.Item name="source_port" label={t('routing.sim.source_port')}>
                <InputNumber min={0} max={65535} style={{ width: '100%' }} data-testid="sim-source-port" />
              </Form.Item>
            </Col>
            <Col xs={12} md={5}>
              <Form.Item name="ani" label={t('routing.sim.ani')}>
                <Input placeholder="15550001111" data-testid="sim-ani" />
              </Form.Item>
            </Col>
            <Col xs={12} md={5}>
              <Form.Item name="dnis" label={t('routing.sim.dnis')} required>
                <Input placeholder="447700900123" data-testid="sim-dnis" />
              </Form.Item>
            </Col>
            <Col xs={12} md={5}>
              <Form.Item name="lrn" label={t('routing.sim.lrn')}>
                <Input placeholder={t('common.optional')} data-testid="sim-lrn" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="time" label={t('routing.sim.time')} extra={t('routing.sim.timeHelp')}>
                <DatePicker
                  showTime
                  style={{ width: '100%' }}
                  placeholder={t('routing.now')}
                  data-testid="sim-time"
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="ocn" label={t('routing.sim.ocn')}>
                <Input placeholder={t('common.optional')} maxLength={16} data-testid="sim-ocn" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="origid" label={t('routing.sim.origid')}>
                <Input placeholder={t('common.optional')} maxLength={64} data-testid="sim-origid" />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="attestation" label={t('routing.sim.attestation')}>
                <Select
                  allowClear
                  placeholder={t('common.optional')}
                  options={['A', 'B', 'C'].map((a) => ({ value: a, label: a }))}
                  data-testid="sim-attestation"
                />
              </Form.Item>
            </Col>
          </Row>
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="simulate">
              {t('routing.simulate')}
            </Button>
            {status.data && (
              <Typography.Text type="secondary" data-testid="engine-version">
                {status.data.ready
                  ? t('routing.snapshotLine', {
                      version: status.data.version,
                      at: when(status.data.built_at),
                    })
                  : t('routing.snapshotLoading')}
                {status.data.building && status.data.ready ? ` · ${t('routing.rebuilding')}` : ''}
              </Typography.Text>
            )}
          </Space>
        </Form>
      </Card>
      {result && <SimulationResult result={result} />}
    </Space>
  );
}

function SimulationResult({ result }: { result: Result }) {
  const { t } = useTranslation();
  const routed = result.result === 'route';
  const egress = result.trace.filter((s) => s.step === 'egress');
  const marginOf = new Map(
    egress
      .filter((s) => s.outcome === 'ok')
      .map((s) => [s.data?.trunk_id as number, s.data?.margin_percent as string | null]),
  );
  const i = result.ingress;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16} data-testid="simulation-result">
      <Alert
        type={routed ? 'success' : 'error'}
        showIcon
        data-testid="simulation-verdict"
        message={
          routed ? (
            <span>{t('routing.verdictRoute', { count: result.routes.length })}</span>
          ) : (
            <span>
              {t('routing.verdictReject', { code: result.reject_code ?? '' })}{' '}
              <Tag color="red" data-testid="reject-reason">
                {result.reject_reason}
              </Tag>
              {result.reject_reason && t(`routing.reasons.${result.reject_reason}`, { defaultValue: '' })}
            </span>
          )
        }
        description={t('routing.numbersLine', {
          ani: result.ani || '—',
          dnis: result.dnis,
          time: when(result.time),
        })}
      />
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card title={t('routing.ingressLeg')} size="small" data-testid="ingress-card">
            {i ? (
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('routing.customer')}>{i.carrier_name}</Descriptions.Item>
                <Descriptions.Item label={t('routing.ingressTrunk')}>
                  <Link to={`/routing/trunks/edit/${i.trunk_id}/ingress`}>{i.trunk_name}</Link>
                  {i.tech_prefix ? (
                    <Tag style={{ marginLeft: 8 }}>
                      {t('routing.techPrefix')} {i.tech_prefix}
                    </Tag>
                  ) : null}
                </Descriptions.Item>
                <Descriptions.Item label={t('routing.rateTable')}>
                  {i.rate_table_name ?? '—'}
                </Descriptions.Item>
                <Descriptions.Item label={t('routing.matchedCode')}>
                  {i.code ? `${i.code}${i.code_name ? ` · ${i.code_name}` : ''}` : '—'}
                </Descriptions.Item>
                <Descriptions.Item label={t('routing.customerRate')}>
                  <b data-testid="ingress-rate">{i.rate ?? '—'}</b>
                  {i.jurisdiction ? <Tag style={{ marginLeft: 8 }}>{i.jurisdiction}</Tag> : null}
                </Descriptions.Item>
                <Descriptions.Item label={t('routing.plan')}>
                  {i.routing_plan_id ? (
                    <Link to={`/routing/routing_plan/details/${i.routing_plan_id}`}>
                      {i.routing_plan_name}
                    </Link>
                  ) : (
                    '—'
                  )}
                </Descriptions.Item>
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t('routing.noIngress')}</Typography.Text>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card title={t('routing.vendorsConsidered')} size="small">
            <Table
              rowKey={(s, k) => `${String(s.data?.trunk_id)}-${k}`}
              size="small"
              pagination={false}
              dataSource={egress}
              data-testid="vendors-considered"
              locale={{ emptyText: t('routing.noVendorsConsidered') }}
              columns={[
                {
                  key: 'trunk',
                  title: t('routing.egressTrunk'),
                  render: (_, s) => (
                    <span title={result.trunk_names[String(s.data?.trunk_id)]?.carrier_name}>
                      {result.trunk_names[String(s.data?.trunk_id)]?.trunk_name ??
                        `#${String(s.data?.trunk_id)}`}
                    </span>
                  ),
                },
                {
                  key: 'status',
                  title: t('routing.outcome'),
                  render: (_, s) =>
                    s.outcome === 'ok' ? (
                      <Tag color="green">{t('routing.kept')}</Tag>
                    ) : (
                      <Tag color="red">
                        {t(`routing.drops.${String(s.data?.reason)}`, {
                          defaultValue: String(s.data?.reason),
                        })}
                      </Tag>
                    ),
                },
                {
                  key: 'rate',
                  title: t('routing.vendorRate'),
                  render: (_, s) => (s.data?.rate as string | undefined) ?? '—',
                },
                {
                  key: 'margin',
                  title: t('routing.margin'),
                  render: (_, s) =>
                    typeof s.data?.margin_percent === 'string' ? `${s.data.margin_percent} %` : '—',
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Card title={t('routing.routesInOrder')} size="small">
        <Table
          rowKey="trunk_id"
          size="small"
          pagination={false}
          dataSource={result.routes}
          data-testid="simulation-routes"
          locale={{ emptyText: t('routing.noRoutes') }}
          onRow={(r) => ({ 'data-testid': `route-${r.trunk_id}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'n', title: '#', width: 40, render: (_, _r, k) => k + 1 },
            {
              key: 'trunk',
              title: t('routing.egressTrunk'),
              render: (_, r) => <Link to={`/routing/trunks/edit/${r.trunk_id}/egress`}>{r.trunk_name}</Link>,
            },
            { key: 'vendor', title: t('routing.vendor'), dataIndex: 'carrier_name' },
            {
              key: 'code',
              title: t('routing.matchedCode'),
              render: (_, r) => `${r.code}${r.code_name ? ` · ${r.code_name}` : ''}`,
            },
            {
              key: 'rate',
              title: t('routing.vendorRate'),
              render: (_, r) => <span data-testid={`route-rate-${r.trunk_id}`}>{r.rate}</span>,
            },
            {
              key: 'profit',
              title: t('routing.profitPerMinute'),
              render: (_, r) => (
                <span
                  style={{ color: r.profit.startsWith('-') ? '#cf1322' : '#389e0d' }}
                  data-testid={`route-profit-${r.trunk_id}`}
                >
                  {r.profit}
                </span>
              ),
            },
            {
              key: 'margin',
              title: t('routing.margin'),
              render: (_, r) => (marginOf.get(r.trunk_id) != null ? `${marginOf.get(r.trunk_id)} %` : '—'),
            },
            { key: 'dnis', title: t('routing.dnisSent'), render: (_, r) => <code>{r.dnis}</code> },
            {
              key: 'hosts',
              title: t('routing.hosts'),
              render: (_, r) => r.hosts.map((h) => `${h.ip}${h.port ? `:${h.port}` : ''}`).join(', '),
            },
            {
              key: 'timers',
              title: t('routing.timers'),
              render: (_, r) => (
                <span data-testid={`route-timers-${r.trunk_id}`}>
                  {[
                    r.ring_timeout_s !== null && t('routing.timerRing', { s: r.ring_timeout_s }),
                    r.pdd_timeout_ms !== null && t('routing.timerPdd', { ms: r.pdd_timeout_ms }),
                    r.max_duration_s !== null && t('routing.timerMax', { s: r.max_duration_s }),
                  ]
                    .filter(Boolean)
                    .join(' · ') || '—'}
                </span>
              ),
            },
          ]}
        />
      </Card>
      <Card title={t('routing.decisionTrace')} size="small">
        <Timeline
          data-testid="simulation-trace"
          items={result.trace.map((s, k) => ({
            key: k,
            color: OUTCOME_COLOR[s.outcome],
            dot: OUTCOME_ICON[s.outcome],
            children: <TraceItem step={s} />,
          }))}
        />
      </Card>
    </Space>
  );
}

function TraceItem({ step }: { step: Step }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div data-testid={`trace-${step.step}`} data-outcome={step.outcome}>
      <Typography.Text strong>{t(`routing.steps.${step.step}`)}</Typography.Text>
      <span style={{ marginLeft: 8 }}>{step.detail}</span>
      {step.data && (
        <>
          <Button type="link" size="small" onClick={() => setOpen(!open)}>
            {open ? t('routing.hideFigures') : t('routing.showFigures')}
          </Button>
          {open && (
            <pre
              style={{ background: '#f6f8fa', padding: 8, borderRadius: 4, fontSize: 12, margin: '4px 0 0' }}
            >
              {JSON.stringify(step.data, null, 2)}
            </pre>
          )}
        </>
      )}
    </div>
  );
}
