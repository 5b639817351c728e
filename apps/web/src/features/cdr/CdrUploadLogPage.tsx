import { api, type CdrUploadRow } from '@tandem/contract';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { JobProgress } from '../jobs/JobProgress';
import { CdrUploadButton } from './CdrUploadDialog';
import './i18n';
import { formatBytes } from '../../lib/money';

const COLORS: Record<string, string> = {
  refused: 'red',
  queued: 'default',
  running: 'processing',
  finished: 'green',
  failed: 'red',
  killed: 'orange',
};

/** An upload's state as a coloured tag, in the user's language. */
export function CdrUploadStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status] ?? 'default'} data-testid="cdr-upload-state">
      {t(`cdr.upload.statuses.${status}`)}
    </Tag>
  );
}

const resource: ListResource<CdrUploadRow> = {
  key: 'cdr-upload-log',
  title: 'cdr.upload.log',
  list: api.cdrUpload.listUploads,
  rowKey: 'id',
  csvName: 'cdr-upload-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  refetchMs: 2000,
  columns: [
    {
      key: 'created_at',
      title: 'cdr.upload.uploaded',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    { key: 'file_name', title: 'cdr.upload.file', sortable: true },
    { key: 'size', title: 'cdr.upload.size', render: (r) => formatBytes(r.size) },
    { key: 'user_name', title: 'cdr.upload.by' },
    {
      key: 'status',
      title: 'cdr.upload.status',
      render: (r) => <CdrUploadStatusTag status={r.status} />,
      csv: (r) => r.status,
    },
    {
      key: 'progress',
      title: 'cdr.upload.progress',
      render: (r) => <JobProgress done={r.done} total={r.cdrs} status={r.status} />,
      csv: (r) => `${r.done}/${r.cdrs}`,
    },
    { key: 'stored', title: 'cdr.upload.stored' },
    { key: 'duplicates', title: 'cdr.upload.duplicates' },
    { key: 'unpriced', title: 'cdr.upload.unpriced' },
    {
      key: 'problems',
      title: 'cdr.upload.problems',
      render: (r) =>
        r.problems.length > 0 ? (
          <Typography.Text type="danger" style={{ fontSize: 12 }}>
            {r.problems.join('; ')}
          </Typography.Text>
        ) : null,
      csv: (r) => r.problems.join('; '),
    },
  ],
  filters: [
    {
      name: 'status',
      title: 'cdr.upload.status',
      kind: 'select',
      options: api.cdrUpload.CDR_UPLOAD_STATUSES.map((s) => ({
        value: s,
        label: `cdr.upload.statuses.${s}`,
      })),
    },
  ],
};

/** The CDR upload log: every CDR file uploaded on the CDR screen, refused or ingested, with progress and totals. */
export default function CdrUploadLogPage() {
  return <ResourceList resource={resource} toolbar={<CdrUploadButton />} />;
}
