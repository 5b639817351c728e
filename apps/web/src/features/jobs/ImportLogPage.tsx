import { api } from '@tandem/contract';
import { Tag } from 'antd';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import './i18n';

type Row = z.infer<typeof api.log.importLogRow>;
const COLORS = { 'in progress': 'blue', finished: 'green', failed: 'red' } as const;
/** Each import's own log, with its details (rows, errors, what changed). */
const DETAILS: Record<Row['entity'], (id: number) => string> = {
  rate_table: (id) => `/log/rate_import_log?task=${id}`,
  did: () => '/log/DID_import_log',
  cdr: () => '/log/cdr_upload_log',
};
const time = (v: string | null) => (v ? v.replace('T', ' ').slice(0, 19) : '');

/**
 * Log > Import Log: every file import (rate tables, DID numbers, CDRs) in one list with one status,
 * newest first; each row links to its area's own log with the details.
 */
const resource: ListResource<Row> = {
  key: 'import-log',
  title: 'jobs.importLog',
  list: api.log.listImportLog,
  rowKey: 'key',
  csvName: 'import-log',
  defaultSort: { by: 'upload_time', dir: 'desc' },
  refetchMs: 5000,
  columns: [
    { key: 'upload_time', title: 'jobs.created', sortable: true, render: (r) => time(r.upload_time) },
    {
      key: 'entity',
      title: 'jobs.entity',
      sortable: true,
      render: (r, t) => t(`jobs.importEntities.${r.entity}`),
    },
    { key: 'file_name', title: 'jobs.file' },
    { key: 'user_name', title: 'jobs.startedBy' },
    {
      key: 'status',
      title: 'common.status',
      sortable: true,
      render: (r, t) => <Tag color={COLORS[r.status]}>{t(`jobs.importStatuses.${r.status}`)}</Tag>,
    },
    { key: 'total_rows', title: 'jobs.totalRows' },
    { key: 'error_rows', title: 'jobs.errorRows' },
    { key: 'finished_time', title: 'jobs.finishedAt', render: (r) => time(r.finished_time) },
    {
      key: 'details',
      title: 'jobs.details',
      render: (r, t) => (
        <Link to={DETAILS[r.entity](r.id)} data-testid="import-details">
          {t('jobs.details')}
        </Link>
      ),
    },
  ],
  filters: [
    {
      name: 'status',
      title: 'common.status',
      kind: 'select',
      options: api.log.IMPORT_LOG_STATUSES.map((s) => ({ value: s, label: `jobs.importStatuses.${s}` })),
    },
  ],
};

export default function ImportLogPage() {
  return <ResourceList resource={resource} />;
}
