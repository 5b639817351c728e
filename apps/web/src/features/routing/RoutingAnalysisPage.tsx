import { DownloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Form,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { call } from '../../api/client';
import { downloadText, toCsv } from '../../lib/csv-export';
import { checked, submitting, useTrunkOptions } from './shared';
import './i18n';

type Result = z.output<typeof api.routing.routingAnalysis.payload>;
type AnalysisRow = Result['rows'][number];
type Vendor = AnalysisRow['vendors'][number];

/** Tools > Routing Analysis: for a customer trunk and codes or countries, the vendor order and margins per code. */
export default function RoutingAnalysisPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const trunks = useTrunkOptions('ingress');
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);

  const analyse = async () => {
    const v = form.getFieldsValue(true) as {
      trunk_id?: number;
      codes?: string[];
      countries?: string[];
      time?: Dayjs | null;
    };
    const body = {
      trunk_id: v.trunk_id,
      codes: (v.codes ?? []).map((c) => c.trim()).filter(Boolean),
      countries: (v.countries ?? []).map((c) => c.trim()).filter(Boolean),
      time: v.time ? v.time.toISOString() : null,
    };
    const parsed = checked(api.routing.analysisRequest, body, form, (f) =>
      t(`routing.analysis.${f}`, { defaultValue: f }),
    );
    if (!parsed) return;
    setBusy(true);
    let answer: Result | null = null;
    await submitting(form, async () => {
      answer = await call(api.routing.routingAnalysis, { body: parsed }, { errorMode: 'inline' });
    });
    setBusy(false);
    if (answer) setResult(answer);
  };

  const exportCsv = () => {
    if (!result) return;
    const lines = result.rows.flatMap((r) =>
      r.vendors.length
        ? r.vendors.map((v) => [
            r.code,
            r.code_name ?? '',
            r.ingress_rate ?? '',
            v.position ?? '',
            v.trunk_name,
            v.carrier_name,
            v.rate ?? '',
            v.profit ?? '',
            v.margin_percent ?? '',
            v.dropped ?? '',
          ])
        : [[r.code, r.code_name ?? '', r.ingress_rate ?? '', '', '', '', '', '', '', r.reject_reason ?? '']],
    );
    downloadText(
      'routing-analysis.csv',
      toCsv(
        [
          'code',
          'code name',
          'customer rate',
          'position',
          'trunk',
          'vendor',
          'vendor rate',
          'profit',
          'margin %',
          'dropped',
        ],
        lines,
      ),
    );
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <div className="page-head">
        <h1>{t('routing.routingAnalysis')}</h1>
        {result && (
          <Button icon={<DownloadOutlined />} onClick={exportCsv} data-testid="analysis-export">
            {t('common.exportCsv')}
          </Button>
        )}
      </div>
      <Card>
        <Form form={form} layout="vertical" onFinish={() => void analyse()} data-testid="form-analysis">
          <Row gutter={12}>
            <Col xs={24} md={8}>
              <Form.Item name="trunk_id" label={t('routing.analysis.trunk_id')} required>
                <Select
                  showSearch
                  optionFilterProp="label"
                  loading={trunks.loading}
                  options={trunks.options}
                  data-testid="analysis-trunk"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item
                name="codes"
                label={t('routing.analysis.codes')}
                extra={t('routing.analysis.codesHelp')}
              >
                <Select
                  mode="tags"
                  tokenSeparators={[',', ' ', ';']}
                  open={false}
                  data-testid="analysis-codes"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={5}>
              <Form.Item
                name="countries"
                label={t('routing.analysis.countries')}
                extra={t('routing.analysis.countriesHelp')}
              >
                <Select
                  mode="tags"
                  tokenSeparators={[',', ';']}
                  open={false}
                  data-testid="analysis-countries"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={5}>
              <Form.Item name="time" label={t('routing.sim.time')}>
                <DatePicker
                  showTime
                  style={{ width: '100%' }}
                  placeholder={t('routing.now')}
                  data-testid="analysis-time"
                />
              </Form.Item>
            </Col>
          </Row>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="analyse">
            {t('routing.analyse')}
          </Button>
        </Form>
      </Card>
      {result && (
        <Card size="small" data-testid="analysis-result">
          <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('routing.ingressTrunk')}>{result.trunk.name}</Descriptions.Item>
            <Descriptions.Item label={t('routing.customer')}>{result.trunk.carrier_name}</Descriptions.Item>
            <Descriptions.Item label={t('routing.rateTable')}>
              {result.trunk.rate_table_name ?? '—'}
            </Descriptions.Item>
          </Descriptions>
          {result.truncated && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              message={t('routing.analysis.truncated')}
            />
          )}
          <Table<AnalysisRow>
            rowKey="code"
            size="small"
            dataSource={result.rows}
            data-testid="analysis-rows"
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            onRow={(r) => ({ 'data-testid': `analysis-${r.code}` }) as React.HTMLAttributes<HTMLElement>}
            expandable={{
              expandedRowRender: (r) => <VendorTable vendors={r.vendors} />,
              rowExpandable: (r) => r.vendors.length > 0,
            }}
            columns={[
              { key: 'code', title: t('routing.code'), render: (_, r) => <code>{r.code}</code> },
              { key: 'name', title: t('routing.codeName'), render: (_, r) => r.code_name ?? '' },
              { key: 'rate', title: t('routing.customerRate'), render: (_, r) => r.ingress_rate ?? '—' },
              {
                key: 'order',
                title: t('routing.vendorOrder'),
                render: (_, r) =>
                  r.result === 'reject' ? (
                    <Tag color="red">
                      {t(`routing.reasons.${r.reject_reason ?? ''}`, { defaultValue: r.reject_reason ?? '' })}
                    </Tag>
                  ) : (
                    <Space size={[4, 4]} wrap>
                      {r.vendors
                        .filter((v) => v.position !== null)
                        .map((v) => (
                          <Tag
                            key={v.trunk_id}
                            color={v.profit?.startsWith('-') ? 'red' : 'green'}
                            title={v.carrier_name}
                          >
                            {v.position}. {v.trunk_name} {v.rate} ({v.margin_percent ?? '—'} %)
                          </Tag>
                        ))}
                    </Space>
                  ),
              },
              {
                key: 'dropped',
                title: t('routing.droppedCount'),
                render: (_, r) => r.vendors.filter((v) => v.dropped).length || '',
              },
              {
                key: 'best',
                title: t('routing.bestMargin'),
                render: (_, r) => {
                  const v = r.vendors.find((x) => x.position === 1);
                  return v ? (
                    <Typography.Text type={v.profit?.startsWith('-') ? 'danger' : 'success'}>
                      {v.profit}
                    </Typography.Text>
                  ) : (
                    '—'
                  );
                },
              },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}

function VendorTable({ vendors }: { vendors: Vendor[] }) {
  const { t } = useTranslation();
  return (
    <Table<Vendor>
      rowKey="trunk_id"
      size="small"
      pagination={false}
      dataSource={vendors}
      columns={[
        { key: 'pos', title: '#', width: 40, render: (_, v) => v.position ?? '' },
        { key: 'trunk', title: t('routing.egressTrunk'), dataIndex: 'trunk_name' },
        { key: 'vendor', title: t('routing.vendor'), dataIndex: 'carrier_name' },
        { key: 'rate', title: t('routing.vendorRate'), render: (_, v) => v.rate ?? '—' },
        { key: 'profit', title: t('routing.profitPerMinute'), render: (_, v) => v.profit ?? '—' },
        {
          key: 'margin',
          title: t('routing.margin'),
          render: (_, v) => (v.margin_percent ? `${v.margin_percent} %` : '—'),
        },
        {
          key: 'dropped',
          title: t('routing.outcome'),
          render: (_, v) =>
            v.dropped ? (
              <Tag color="red">{t(`routing.drops.${v.dropped}`, { defaultValue: v.dropped })}</Tag>
            ) : (
              <Tag color="green">{t('routing.kept')}</Tag>
            ),
        },
      ]}
    />
  );
}
