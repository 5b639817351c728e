import { Progress, Tag } from 'antd';

const COLORS: Record<string, string> = {
  pending: 'default',
  running: 'processing',
  finished: 'green',
  failed: 'red',
  killed: 'orange',
};

/** A job's state as a coloured tag. */
export const JobStatusTag = ({
  status,
  t,
}: {
  status: string;
  t: (key: string, opts?: Record<string, unknown>) => string;
}) => (
  <Tag color={COLORS[status] ?? 'default'} data-testid="job-status">
    {t(`jobs.statuses.${status}`, { defaultValue: status })}
  </Tag>
);

/** done / total with a bar when the total is known, else the count alone. */
export function JobProgress({
  done,
  total,
  status,
}: {
  done: number | null;
  total: number | null;
  status: string;
}) {
  if (done === null) return null;
  if (total === null || total === 0)
    return <span data-testid="job-progress">{total === 0 && status === 'finished' ? '0 / 0' : done}</span>;
  const percent = Math.min(100, Math.floor((done / total) * 100));
  return (
    <span data-testid="job-progress" style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <Progress
        percent={percent}
        size="small"
        style={{ width: 100, margin: 0 }}
        status={
          status === 'failed' || status === 'killed'
            ? 'exception'
            : status === 'finished'
              ? 'success'
              : 'active'
        }
        showInfo={false}
      />
      <span>
        {done} / {total}
      </span>
    </span>
  );
}
