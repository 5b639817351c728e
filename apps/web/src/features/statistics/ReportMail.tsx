import {
  DeleteOutlined,
  MailOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  ScheduleOutlined,
  SendOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { api, type Endpoint, type MailedReportName } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Space,
  Table,
  Tag,
  type TableProps,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { keyOf, useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useSignedIn } from '../../app/session';
import { splitTags } from '../../components/tag-logic';
import './dashboard/i18n';
import { inZone } from './i18n';
import './reports-i18n';

type Schedule = api.reports.ScheduleRow;

/**
 * "Send by e-mail", "Schedule" and "My schedules" of a report screen (every declared report and
 * the channel report): the e-mail goes now with the screen's query; a schedule keeps its grouping
 * and filters (not the range) and mails the period before each run; the drawer lists the user's own
 * schedules of this report with pause, resume, send now and delete (portal users included).
 */
export function ReportMailButtons({
  name,
  title,
  query,
  email,
  schedule,
}: {
  name: MailedReportName;
  title: string;
  /** The screen's query as the API takes it, with `from`, `to` and `tz`. */
  query: Record<string, unknown>;
  email: Endpoint;
  schedule: Endpoint;
}) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const qc = useQueryClient();
  const { system, user } = useSignedIn();
  const tz = system.timezone;
  const [open, setOpen] = useState<'mail' | 'schedule' | 'list' | null>(null);
  const refresh = () =>
    qc.invalidateQueries({ queryKey: [api.reports.listSchedules.method, api.reports.listSchedules.path] });

  const sendMail = async (v: { to: string }) => {
    await call(email, { body: { query, to: splitTags(v.to) } } as never, { errorMode: 'inline' });
    setOpen(null);
    flash(t('reports.emailQueued'));
  };
  const save = async (v: { name: string; frequency: api.reports.Frequency; hour: number; to: string }) => {
    const { from: _f, to: _t, tz: _z, ...rest } = query;
    const r = (await call(
      schedule,
      {
        body: { name: v.name, frequency: v.frequency, hour: v.hour, tz, to: splitTags(v.to), query: rest },
      } as never,
      { errorMode: 'inline' },
    )) as Schedule;
    setOpen(null);
    await refresh();
    flash(t('reports.saved', { at: `${inZone(r.next_run_at, tz)} (GMT ${tz})` }));
  };
  return (
    <>
      <Button icon={<MailOutlined />} onClick={() => setOpen('mail')} data-testid="report-email">
        {t('reports.email')}
      </Button>
      <Button icon={<ScheduleOutlined />} onClick={() => setOpen('schedule')} data-testid="report-schedule">
        {t('reports.schedule')}
      </Button>
      <Button
        icon={<UnorderedListOutlined />}
        onClick={() => setOpen('list')}
        data-testid="report-my-schedules"
      >
        {t('dash.schedules.mine')}
      </Button>
      <Modal
        open={open === 'mail'}
        title={t('reports.emailTitle')}
        onCancel={() => setOpen(null)}
        footer={null}
        destroyOnHidden
      >
        <Form layout="vertical" onFinish={sendMail} initialValues={{ to: user.email ?? '' }}>
          <Form.Item name="to" label={t('reports.emailTo')} rules={[{ required: true }]}>
            <Input data-testid="report-email-to" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="report-email-send">
            {t('reports.send')}
          </Button>
        </Form>
      </Modal>
      <Modal
        open={open === 'schedule'}
        title={t('reports.scheduleTitle')}
        onCancel={() => setOpen(null)}
        footer={null}
        destroyOnHidden
      >
        <Form
          layout="vertical"
          onFinish={save}
          initialValues={{ name: title, frequency: 'daily', hour: 6, to: user.email ?? '' }}
        >
          <Form.Item name="name" label={t('reports.scheduleName')} rules={[{ required: true }]}>
            <Input data-testid="schedule-name" />
          </Form.Item>
          <Form.Item name="frequency" label={t('reports.frequency')}>
            <Radio.Group
              data-testid="schedule-frequency"
              options={api.reports.FREQUENCIES.map((f) => ({
                value: f,
                label: t(`reports.frequencies.${f}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="hour" label={`${t('reports.hour')} (GMT ${tz})`}>
            <InputNumber min={0} max={23} data-testid="schedule-hour" />
          </Form.Item>
          <Form.Item name="to" label={t('reports.emailTo')} rules={[{ required: true }]}>
            <Input data-testid="schedule-to" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="schedule-save">
            {t('common.save')}
          </Button>
        </Form>
      </Modal>
      <Drawer
        open={open === 'list'}
        title={t('dash.schedules.title')}
        width={760}
        onClose={() => setOpen(null)}
        destroyOnHidden
      >
        <MySchedules report={name} tz={tz} onChange={refresh} />
      </Drawer>
    </>
  );
}

/** The user's own schedules of one report, with pause or resume, send now and delete. */
function MySchedules({
  report,
  tz,
  onChange,
}: {
  report: string;
  tz: string;
  onChange: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const input = { query: { report, mine: true, page: 0, per_page: 100 } };
  const list = useApi(api.reports.listSchedules, input, { callOptions: { errorMode: 'inline' } });
  const qc = useQueryClient();
  const act = async (what: () => Promise<unknown>, done: string) => {
    await what();
    flash(done);
    await Promise.all([
      onChange(),
      qc.invalidateQueries({ queryKey: keyOf(api.reports.listSchedules, input) }),
    ]);
  };
  const columns: TableProps<Schedule>['columns'] = [
    { key: 'name', title: t('reports.scheduleName'), render: (_, r) => r.name },
    {
      key: 'frequency',
      title: t('reports.frequency'),
      render: (_, r) =>
        `${t(`reports.frequencies.${r.frequency}`)}, ${String(r.hour).padStart(2, '0')}:00 GMT ${r.tz}`,
    },
    { key: 'to', title: t('reports.recipients'), render: (_, r) => r.to.join(', ') },
    {
      key: 'next',
      title: t('reports.nextRun'),
      render: (_, r) => (r.active ? inZone(r.next_run_at, tz) : <Tag>{t('dash.schedules.paused')}</Tag>),
    },
    {
      key: 'actions',
      title: '',
      render: (_, r) => (
        <Space size={0}>
          <Button
            size="small"
            type="text"
            icon={r.active ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
            aria-label={t(r.active ? 'reports.pause' : 'reports.resume')}
            title={t(r.active ? 'reports.pause' : 'reports.resume')}
            data-testid={`my-schedule-toggle-${r.id}`}
            onClick={() =>
              void act(
                () =>
                  call(
                    api.reports.setScheduleActive,
                    { params: { id: r.id }, body: { active: !r.active } },
                    { errorMode: 'inline' },
                  ),
                t(r.active ? 'reports.paused' : 'reports.resumed'),
              )
            }
          />
          <Button
            size="small"
            type="text"
            icon={<SendOutlined />}
            aria-label={t('reports.runNow')}
            title={t('reports.runNow')}
            data-testid={`my-schedule-run-${r.id}`}
            onClick={() =>
              void act(
                () => call(api.reports.runSchedule, { params: { id: r.id } }, { errorMode: 'inline' }),
                t('reports.runQueued'),
              )
            }
          />
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('dash.schedules.remove')}
            title={t('dash.schedules.remove')}
            data-testid={`my-schedule-delete-${r.id}`}
            onClick={() =>
              void confirm({ title: t('reports.deleteSchedule', { name: r.name }), danger: true }).then(
                (ok) => {
                  if (ok)
                    void act(
                      () =>
                        call(api.reports.deleteSchedule, { params: { id: r.id } }, { errorMode: 'inline' }),
                      t('reports.deleted'),
                    );
                },
              )
            }
          />
        </Space>
      ),
    },
  ];
  return (
    <Table
      size="small"
      rowKey="id"
      dataSource={list.data?.items ?? []}
      loading={list.isLoading}
      columns={columns}
      pagination={false}
      locale={{ emptyText: t('dash.schedules.none') }}
      data-testid="my-schedules"
    />
  );
}
