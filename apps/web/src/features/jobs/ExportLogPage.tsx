import { DownloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useFeedback } from '../../app/feedback';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { downloadExport } from './exportFile';
import { entityLabel } from './entityLabel';
import { JobProgress, JobStatusTag } from './JobProgress';
import './i18n';
import '../statistics/i18n';
import '../statistics/reports-i18n';
import { formatBytes } from '../../lib/money';
import { i18next } from '../../i18n';

type Row = z.infer<typeof api.log.exportLogRow>;

const resource: ListResource<Row> = {
  key: 'export-log',
  title: 'jobs.exportLog',
  list: api.log.listExportLog,
  rowKey: 'id',
  csvName: 'export-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  refetchMs: 2000,
  columns: [
    {
      key: 'created_at',
      title: 'jobs.created',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    {
      key: 'entity',
      title: 'jobs.entity',
      sortable: true,
      render: (r, t) => entityLabel(r.entity, t),
      csv: (r) => entityLabel(r.entity, (k, o) => i18next.t(k, o)),
    },
    { key: 'file_name', title: 'jobs.file' },
    { key: 'user_name', title: 'jobs.startedBy' },
    {
      key: 'status',
      title: 'common.status',
      render: (r, t) => (
        <>
          <JobStatusTag status={r.status} t={t} />
          {r.error && (
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {r.error}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      key: 'progress',
      title: 'jobs.progress',
      render: (r) => <JobProgress done={r.progress_done} total={r.progress_total} status={r.status} />,
      csv: (r) => (r.progress_done === null ? '' : `${r.progress_done}/${r.progress_total ?? ''}`),
    },
    { key: 'row_count', title: 'jobs.rows' },
    { key: 'size_bytes', title: 'jobs.size', render: (r) => formatBytes(r.size_bytes) },
  ],
  filters: [
    {
      name: 'status',
      title: 'common.status',
      kind: 'select',
      options: api.jobs.JOB_STATUSES.map((s) => ({ value: s, label: s })),
    },
    { name: 'mine', title: 'jobs.mine', kind: 'select', options: [{ value: 'true', label: '✓' }] },
  ],
};

/**
 * Log > Export Log: every export (downloads made at once and background exports with their
 * progress); a background export's file is downloaded here by the user who started it.
 */
export default function ExportLogPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  return (
    <ResourceList
      resource={resource}
      extraActions={(row) =>
        row.downloadable ? (
          <Tooltip title={t('jobs.download')}>
            <Button
              size="small"
              type="text"
              icon={<DownloadOutlined />}
              aria-label={t('jobs.download')}
              data-testid={`download-${row.id}`}
              onClick={() =>
                void downloadExport(row.id).then((err) => {
                  if (err) flash(err, 'error');
                })
              }
            />
          </Tooltip>
        ) : null
      }
    />
  );
}
