import { api, type CdrPartition, type CleansingSettings, type CleansingState } from '@tandem/contract';
import { Alert, Button, Card, Col, Descriptions, Form, InputNumber, Row, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useAllowed } from '../../app/permissions';
import { Figure } from '../../components/Figure';
import { Spinner } from '../../components/Spinner';
import { formatBytes, formatNumberText } from '../../lib/money';
import { JobStatusTag } from '../jobs/JobProgress';
import { when } from '../routing/shared';
import { numberBounds } from './settings-bounds';
import './cleansing-i18n';
import '../jobs/i18n';

const { FUNC, cleansingSettings } = api.cleansing;
type Key = keyof CleansingSettings;
const KEYS = Object.keys(cleansingSettings.shape) as Key[];
const STATE_COLORS: Record<CdrPartition['state'], string> = { ahead: 'blue', kept: 'green', drops: 'red' };

/** What the next run removes of an area from when (a warning), or that the area is kept for good. */
const Cutoff = ({ when: text, keepAll, drops }: { when: string | null; keepAll: string; drops: number }) => (
  <Alert
    type={text && drops > 0 ? 'warning' : 'info'}
    showIcon
    style={{ marginBottom: 12 }}
    message={text ?? keepAll}
  />
);

/**
 * Configuration > DB Cleansing (`/configuration/auto_rotation_and_cleaning`, docs/cdr.md
 * "Retention"): the three retentions, when the daily job runs and how its last run went, and per
 * area what the database holds and what the next run removes, counted by the server with the cut-offs
 * the job uses. "Run now" queues the job; the page follows it until it ends.
 */
export default function DbCleansingPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const k = (key: string, o?: Record<string, unknown>) => t(`cleansing.${key}`, o);
  const { flash } = useFeedback();
  const canWrite = useAllowed(FUNC, 'write');
  const canRun = useAllowed(FUNC, 'execute');
  // The run started here (its job id): the page polls until that run, not an earlier one, has ended.
  const [following, setFollowing] = useState<number | null>(null);
  const current = useApi(
    api.cleansing.getCleansing,
    {},
    { staleTime: 0, refetchInterval: following !== null ? 1000 : false },
  );
  const [form] = Form.useForm<CleansingSettings>();
  const [busy, setBusy] = useState(false);
  const data = current.data;
  const running = data?.last_run?.status === 'pending' || data?.last_run?.status === 'running';

  useEffect(() => {
    if (data) form.setFieldsValue(data.settings);
  }, [data, form]);
  useEffect(() => {
    if (following !== null && data?.last_run?.job_id === following && !running) setFollowing(null);
  }, [following, data, running]);

  const save = async () => {
    const values = form.getFieldsValue(true) as CleansingSettings;
    form.setFields(KEYS.map((name) => ({ name, errors: [] })));
    setBusy(true);
    try {
      await call(api.cleansing.putCleansing, { body: values }, { errorMode: 'inline' });
      await current.refetch();
      flash(t('common.modifiedSuccessfully'));
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors)
            .filter(([f]) => (KEYS as string[]).includes(f))
            .map(([name, msg]) => ({ name: name as Key, errors: [msg] })),
        );
    } finally {
      setBusy(false);
    }
  };
  const runNow = async () => {
    const started = await call(api.cleansing.runCleansing, {});
    flash(k('runQueued'));
    setFollowing(started.job_id);
    await current.refetch();
  };

  if (current.isLoading || !data) return <Spinner />;
  const n = (v: number) => formatNumberText(v, { lang });
  const totals = data.cdr_totals;

  return (
    <Space
      direction="vertical"
      size={16}
      style={{ width: '100%', maxWidth: 1100 }}
      data-testid="db-cleansing"
    >
      <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{k('title')}</h1>}>
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Alert type="info" showIcon message={k('intro')} />
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Card type="inner" title={k('retention')}>
                <Form form={form} layout="vertical" disabled={!canWrite} onFinish={() => void save()}>
                  {!canWrite && (
                    <Alert type="info" showIcon message={k('readOnly')} style={{ marginBottom: 12 }} />
                  )}
                  {KEYS.map((name) => (
                    <Form.Item key={name} name={name} label={k(`fields.${name}`)} extra={k('keepAll')}>
                      <InputNumber
                        {...numberBounds(cleansingSettings.shape[name])}
                        precision={0}
                        style={{ width: 200 }}
                        addonAfter={k('days')}
                        data-testid={`clean-${name}`}
                      />
                    </Form.Item>
                  ))}
                  {canWrite && (
                    <Button type="primary" htmlType="submit" loading={busy} data-testid="clean-save">
                      {t('common.save')}
                    </Button>
                  )}
                </Form>
              </Card>
            </Col>
            <Col xs={24} md={12}>
              <Card type="inner" title={k('schedule')}>
                <Descriptions column={1} size="small" data-testid="clean-schedule">
                  <Descriptions.Item label={k('schedule')}>
                    {k('dailyAt', { time: data.next_run_at.slice(11, 16) })}
                  </Descriptions.Item>
                  <Descriptions.Item label={k('nextRun')}>{when(data.next_run_at)} UTC</Descriptions.Item>
                  <Descriptions.Item label={k('lastRun')}>
                    {data.last_run ? (
                      <Space direction="vertical" size={2} data-testid="clean-last-run">
                        <span>
                          <JobStatusTag status={data.last_run.status} t={t} />
                          {when(data.last_run.finished_at ?? data.last_run.started_at)}
                          {(data.last_run.finished_at ?? data.last_run.started_at) ? ' UTC' : ''}
                        </span>
                        <span style={{ fontSize: 12 }}>
                          {data.last_run.error ||
                            (data.last_run.done
                              ? k('runDone', {
                                  made: n(data.last_run.done.partitions_made),
                                  dropped: n(data.last_run.done.partitions_dropped),
                                  logs: n(data.last_run.done.log_entries_deleted),
                                  exports: n(data.last_run.done.exports_deleted),
                                })
                              : data.last_run.progress_message)}
                        </span>
                      </Space>
                    ) : (
                      k('never')
                    )}
                  </Descriptions.Item>
                </Descriptions>
                <Space>
                  {canRun && (
                    <Button onClick={() => void runNow()} loading={running} data-testid="clean-run">
                      {k('runNow')}
                    </Button>
                  )}
                  <Link to="/log/scheduler_log?kind=db.cleansing">{k('schedulerLog')}</Link>
                </Space>
              </Card>
            </Col>
          </Row>
        </Space>
      </Card>

      <Card title={k('cdrs')} data-testid="clean-cdrs">
        <Row gutter={16} style={{ marginBottom: 12 }}>
          <Col xs={12} md={4}>
            <Figure title={k('partitions')} value={totals.partitions} />
          </Col>
          <Col xs={12} md={4}>
            <Figure title={k('cdrCount')} value={totals.cdrs} />
          </Col>
          <Col xs={12} md={4}>
            <Figure title={k('size')} value={formatBytes(totals.bytes, lang)} />
          </Col>
          <Col xs={24} md={12}>
            <Figure
              title={k('nextRunDrops')}
              value={`${n(totals.drop_partitions)} ${k('partitions')} · ${n(totals.drop_cdrs)} ${k('cdrCount')} · ${formatBytes(totals.drop_bytes, lang)}`}
              data-testid="clean-cdr-drops"
            />
          </Col>
        </Row>
        <Cutoff
          when={data.cdr_cutoff && k('cdrCutoff', { day: data.cdr_cutoff })}
          keepAll={k('cdrKeepAll')}
          drops={totals.drop_partitions}
        />
        <Table<CdrPartition>
          size="small"
          rowKey="name"
          dataSource={data.partitions}
          pagination={{ pageSize: 31, showSizeChanger: false, hideOnSinglePage: true }}
          data-testid="clean-partitions"
          columns={[
            { title: k('day'), dataIndex: 'day' },
            { title: k('partition'), dataIndex: 'name' },
            { title: k('cdrCount'), dataIndex: 'cdrs', align: 'right', render: (v: number) => n(v) },
            {
              title: k('size'),
              dataIndex: 'bytes',
              align: 'right',
              render: (v: number) => formatBytes(v, lang),
            },
            {
              title: k('state'),
              dataIndex: 'state',
              render: (s: CdrPartition['state']) => (
                <Tag color={STATE_COLORS[s]} data-testid={`partition-${s}`}>
                  {k(`states.${s}`)}
                </Tag>
              ),
            },
          ]}
        />
      </Card>

      <Row gutter={16}>
        <Col xs={24} lg={14}>
          <Card title={k('logs')} data-testid="clean-logs" style={{ height: '100%' }}>
            <Cutoff
              when={data.log_cutoff && k('logCutoff', { at: when(data.log_cutoff) })}
              keepAll={k('logKeepAll')}
              drops={data.logs.reduce((a, l) => a + l.drops, 0)}
            />
            <Table<CleansingState['logs'][number]>
              size="small"
              rowKey="log"
              pagination={false}
              dataSource={data.logs}
              columns={[
                { title: k('log'), dataIndex: 'log', render: (l: string) => k(`logNames.${l}`) },
                { title: k('entries'), dataIndex: 'rows', align: 'right', render: (v: number) => n(v) },
                { title: k('oldest'), dataIndex: 'oldest', render: (v: string | null) => when(v) },
                {
                  title: k('nextRunDrops'),
                  dataIndex: 'drops',
                  align: 'right',
                  render: (v: number, r) => <span data-testid={`log-drops-${r.log}`}>{n(v)}</span>,
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={k('exports')} data-testid="clean-exports" style={{ height: '100%' }}>
            <Cutoff
              when={data.export_cutoff && k('exportCutoff', { at: when(data.export_cutoff) })}
              keepAll={k('exportKeepAll')}
              drops={data.exports.drops}
            />
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={k('files')}>{n(data.exports.rows)}</Descriptions.Item>
              <Descriptions.Item label={k('size')}>{formatBytes(data.exports.bytes, lang)}</Descriptions.Item>
              <Descriptions.Item label={k('oldest')}>{when(data.exports.oldest)}</Descriptions.Item>
              <Descriptions.Item label={k('nextRunDrops')}>
                <span data-testid="export-drops">
                  {n(data.exports.drops)} · {formatBytes(data.exports.drop_bytes, lang)}
                </span>
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
