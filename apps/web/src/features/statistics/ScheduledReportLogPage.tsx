import { PauseCircleOutlined, PlayCircleOutlined, SendOutlined } from '@ant-design/icons';
import { api, type ReportName } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { useSignedIn } from '../../app/session';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { inZone } from './i18n';
import './reports-i18n';

type Log = api.reports.LogRow;
type Schedule = api.reports.ScheduleRow;
type T = (key: string, opts?: Record<string, unknown>) => string;

const reportTitle = (name: string, t: T) =>
  name in api.reports.REPORTS
    ? t(api.reports.REPORTS[name as ReportName].title)
    : name === api.reports.CHANNEL_REPORT
      ? t('reports.titles.daily_channel_usage_report')
      : name;
const STATUS_COLOR = { pending: 'blue', sent: 'green', failed: 'red' } as const;

function useResources(tz: string) {
  const time = (v: string | null) => (v ? inZone(v, tz) : '');
  const log: ListResource<Log> = {
    key: 'scheduled-report-log',
    title: 'reports.logTitle',
    list: api.reports.listLog,
    rowKey: 'id',
    csvName: 'scheduled-report-log',
    defaultSort: { by: 'created_at', dir: 'desc' },
    refetchMs: 3000,
    columns: [
      { key: 'report', title: 'reports.report', sortable: true, render: (r, t) => reportTitle(r.report, t) },
      { key: 'schedule_name', title: 'reports.scheduleName' },
      { key: 'owner', title: 'reports.owner', sortable: true },
      { key: 'period', title: 'reports.period', render: (r) => `${r.period_from} – ${r.period_to}` },
      { key: 'to', title: 'reports.recipients', render: (r) => r.to.join(', '), csv: (r) => r.to.join(' ') },
      {
        key: 'status',
        title: 'common.status',
        sortable: true,
        render: (r, t) => <Tag color={STATUS_COLOR[r.status]}>{t(`reports.statuses.${r.status}`)}</Tag>,
      },
      { key: 'rows', title: 'reports.rows' },
      {
        key: 'error',
        title: 'reports.error',
        render: (r) => (
          <Typography.Text type="danger" style={{ maxWidth: 280 }} ellipsis>
            {r.error}
          </Typography.Text>
        ),
      },
      { key: 'created_at', title: 'reports.createdAt', sortable: true, render: (r) => time(r.created_at) },
      { key: 'sent_at', title: 'reports.sentAt', render: (r) => time(r.sent_at) },
    ],
    filters: [
      {
        name: 'status',
        title: 'common.status',
        kind: 'select',
        options: (['pending', 'sent', 'failed'] as const).map((s) => ({ value: s, label: s })),
      },
    ],
  };
  const schedules: ListResource<Schedule> = {
    key: 'report-schedules',
    title: 'reports.schedules',
    list: api.reports.listSchedules,
    rowKey: 'id',
    csvName: 'report-schedules',
    defaultSort: { by: 'created_at', dir: 'desc' },
    columns: [
      { key: 'name', title: 'reports.scheduleName', sortable: true },
      { key: 'report', title: 'reports.report', sortable: true, render: (r, t) => reportTitle(r.report, t) },
      {
        key: 'frequency',
        title: 'reports.frequency',
        render: (r, t) =>
          `${t(`reports.frequencies.${r.frequency}`)}, ${String(r.hour).padStart(2, '0')}:00 GMT ${r.tz}`,
      },
      { key: 'to', title: 'reports.recipients', render: (r) => r.to.join(', '), csv: (r) => r.to.join(' ') },
      { key: 'owner', title: 'reports.owner' },
      {
        key: 'active',
        title: 'common.active',
        render: (r, t) =>
          r.active ? <Tag color="green">{t('common.active')}</Tag> : <Tag>{t('reports.pause')}</Tag>,
      },
      {
        key: 'next_run_at',
        title: 'reports.nextRun',
        sortable: true,
        render: (r) => (r.active ? time(r.next_run_at) : ''),
      },
      { key: 'last_run_at', title: 'reports.lastRun', render: (r) => time(r.last_run_at) },
    ],
    remove: { endpoint: api.reports.deleteSchedule, name: (r) => r.name },
  };
  return { log, schedules };
}

/**
 * Log > Scheduled Report Log: each report mailed (by a schedule or sent now) with its period,
 * recipients and result; and the saved schedules (pause, resume, send now, delete). Portal users
 * reach their own schedules here too (the sent-report log is for admins).
 */
export default function ScheduledReportLogPage() {
  const { t } = useTranslation();
  const { system, user } = useSignedIn();
  const { flash } = useFeedback();
  const qc = useQueryClient();
  const [sp, setSp] = useSearchParams();
  const { log, schedules } = useResources(system.timezone);
  const isAdmin = user.user_type === 'admin';
  const tab = isAdmin ? (sp.get('tab') ?? 'log') : 'schedules';
  const refresh = () =>
    Promise.all(
      [api.reports.listSchedules, api.reports.listLog].map((e) =>
        qc.invalidateQueries({ queryKey: [e.method, e.path] }),
      ),
    );
  const setActive = async (r: Schedule, active: boolean) => {
    await call(
      api.reports.setScheduleActive,
      { params: { id: r.id }, body: { active } },
      { errorMode: 'inline' },
    );
    flash(t(active ? 'reports.resumed' : 'reports.paused'));
    await refresh();
  };
  const runNow = async (r: Schedule) => {
    await call(api.reports.runSchedule, { params: { id: r.id } }, { errorMode: 'inline' });
    flash(t('reports.runQueued'));
    await refresh();
  };
  const scheduleList = (
    <ResourceList
      resource={schedules}
      extraActions={(r) => (
        <>
          <Tooltip title={t(r.active ? 'reports.pause' : 'reports.resume')}>
            <Button
              size="small"
              type="text"
              icon={r.active ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
              aria-label={t(r.active ? 'reports.pause' : 'reports.resume')}
              data-testid={`schedule-toggle-${r.id}`}
              onClick={() => void setActive(r, !r.active)}
            />
          </Tooltip>
          <Tooltip title={t('reports.runNow')}>
            <Button
              size="small"
              type="text"
              icon={<SendOutlined />}
              aria-label={t('reports.runNow')}
              data-testid={`schedule-run-${r.id}`}
              onClick={() => void runNow(r)}
            />
          </Tooltip>
        </>
      )}
    />
  );
  if (!isAdmin) return scheduleList;
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setSp({ tab: k }, { replace: true })}
      items={[
        { key: 'log', label: t('reports.log'), children: <ResourceList resource={log} /> },
        { key: 'schedules', label: t('reports.schedules'), children: scheduleList },
      ]}
    />
  );
}
