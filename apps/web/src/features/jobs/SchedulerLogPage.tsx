import { RedoOutlined, StopOutlined } from '@ant-design/icons';
import { api, type Paged } from '@tandem/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Table, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { useAllowed } from '../../app/permissions';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { JobProgress, JobStatusTag } from './JobProgress';
import './i18n';

type Row = z.infer<typeof api.jobs.jobRow>;
const time = (v: string | null) => (v ? v.replace('T', ' ').slice(0, 19) : '');

const resource: ListResource<Row> = {
  key: 'scheduler-log',
  title: 'jobs.schedulerLog',
  list: api.jobs.listSchedulerLog,
  rowKey: 'id',
  csvName: 'scheduler-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  refetchMs: 2000,
  columns: [
    { key: 'id', title: 'jobs.id', width: 70 },
    { key: 'kind', title: 'jobs.kind', sortable: true },
    {
      key: 'status',
      title: 'common.status',
      sortable: true,
      render: (r, t) => <JobStatusTag status={r.status} t={t} />,
    },
    {
      key: 'progress',
      title: 'jobs.progress',
      render: (r) => <JobProgress done={r.progress_done} total={r.progress_total} status={r.status} />,
      csv: (r) => `${r.progress_done}/${r.progress_total ?? ''}`,
    },
    {
      key: 'message',
      title: 'jobs.message',
      render: (r, t) => (
        <Typography.Text type={r.error ? 'danger' : undefined} style={{ maxWidth: 320 }} ellipsis>
          {r.error ||
            (r.status === 'killed' && r.killed_by
              ? t('jobs.killedBy', { name: r.killed_by })
              : r.progress_message)}
        </Typography.Text>
      ),
      csv: (r) => r.error || r.progress_message,
    },
    { key: 'attempts', title: 'jobs.attempts', render: (r) => `${r.attempts} / ${r.max_attempts}` },
    {
      key: 'user_name',
      title: 'jobs.startedBy',
      render: (r, t) => (
        <>
          {r.schedule ? `${r.user_name} (${r.schedule})` : r.user_name}
          {r.rerun_of !== null && (
            <div style={{ fontSize: 12, color: '#888' }}>{t('jobs.rerunOf', { id: r.rerun_of })}</div>
          )}
        </>
      ),
    },
    { key: 'created_at', title: 'jobs.created', sortable: true, render: (r) => time(r.created_at) },
    { key: 'finished_at', title: 'jobs.finishedAt', sortable: true, render: (r) => time(r.finished_at) },
  ],
  filters: [
    { name: 'kind', title: 'jobs.kind', kind: 'text' },
    {
      name: 'status',
      title: 'common.status',
      kind: 'select',
      options: api.jobs.JOB_STATUSES.map((s) => ({ value: s, label: s })),
    },
  ],
};

/** Log > Scheduler Log: every background job with its state and progress; kill and run again. */
export default function SchedulerLogPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { confirm, flash } = useFeedback();
  // Kill and run again: execute on the scheduler log.
  const canExecute = useAllowed('/log/scheduler_log', 'execute');

  const act = async (row: Row, action: 'kill' | 'rerun') => {
    const ok = await confirm({
      title: t(action === 'kill' ? 'jobs.killConfirm' : 'jobs.rerunConfirm', { id: row.id, kind: row.kind }),
      danger: action === 'kill',
    });
    if (!ok) return;
    const r = await call(
      action === 'kill' ? api.jobs.killJob : api.jobs.rerunJob,
      { params: { id: row.id } },
      {
        errorMode: 'inline',
      },
    );
    flash(action === 'kill' ? t('jobs.killedDone') : t('jobs.rerunDone', { id: r.object_id }));
    await qc.invalidateQueries({
      queryKey: [api.jobs.listSchedulerLog.method, api.jobs.listSchedulerLog.path],
    });
  };

  return (
    <>
      <ResourceList
        resource={resource}
        extraActions={
          canExecute
            ? (row) =>
                row.status === 'pending' || row.status === 'running' ? (
                  <Tooltip title={t('jobs.kill')}>
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<StopOutlined />}
                      aria-label={t('jobs.kill')}
                      data-testid={`kill-${row.id}`}
                      onClick={() => void act(row, 'kill')}
                    />
                  </Tooltip>
                ) : (
                  <Tooltip title={t('jobs.rerun')}>
                    <Button
                      size="small"
                      type="text"
                      icon={<RedoOutlined />}
                      aria-label={t('jobs.rerun')}
                      data-testid={`rerun-${row.id}`}
                      onClick={() => void act(row, 'rerun')}
                    />
                  </Tooltip>
                )
            : undefined
        }
      />
      <RecurringJobs />
    </>
  );
}

function RecurringJobs() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: [api.jobs.listRecurring.method, api.jobs.listRecurring.path],
    queryFn: () => call(api.jobs.listRecurring, {}) as Promise<Paged<z.infer<typeof api.jobs.recurringRow>>>,
  });
  return (
    <Card size="small" title={t('jobs.recurring')} style={{ marginTop: 16 }}>
      <Table
        size="small"
        rowKey="kind"
        pagination={false}
        loading={q.isLoading}
        dataSource={q.data?.items ?? []}
        data-testid="recurring-jobs"
        columns={[
          { key: 'kind', dataIndex: 'kind', title: t('jobs.kind') },
          { key: 'schedule', dataIndex: 'schedule', title: t('jobs.schedule') },
          {
            key: 'last_slot',
            dataIndex: 'last_slot',
            title: t('jobs.lastRun'),
            render: (v: string | null) => time(v),
          },
        ]}
      />
    </Card>
  );
}
