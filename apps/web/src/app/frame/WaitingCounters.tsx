import { api } from '@tandem/contract';
import { Badge, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';

const todayRange = () => {
  const from = new Date();
  from.setUTCHours(0, 0, 0, 0);
  const to = new Date(from.getTime() + 86_400_000);
  return { from: from.toISOString(), to: to.toISOString() };
};

/** Admin counters of waiting work: tickets, imports in progress today, DID uploads, rate imports. */
export function WaitingCounters() {
  const { t } = useTranslation();
  const { from, to } = todayRange();
  const quiet = { callOptions: { errorMode: 'inline' as const, quiet: true }, refetchInterval: 60_000 };
  const tickets = useApi(
    api.ticket.listTickets,
    { query: { ticket_status: 'waiting', order_by: 'id', order_dir: 'desc', per_page: 9999, page: 0 } },
    quiet,
  );
  const imports = useApi(
    api.log.listImportLog,
    { query: { status: 'in progress', upload_time_from: from, upload_time_to: to, page: 0, per_page: 10 } },
    quiet,
  );
  const dids = useApi(
    api.log.listDidUploadTasks,
    { query: { status: 'In Process', created_from: from, created_to: to, page: 0, per_page: 10 } },
    quiet,
  );
  const rates = useApi(
    api.log.listRateImportTasks,
    { query: { status: 'Insert new rate', created_from: from, created_to: to, page: 0, per_page: 10 } },
    quiet,
  );
  const entries = [
    {
      key: 'tickets',
      n: tickets.data?.total ?? 0,
      label: t('frame.waitingTickets'),
      to: '/origination/tickets',
    },
    {
      key: 'imports',
      n: imports.data?.total ?? 0,
      label: t('frame.importsInProgress'),
      to: '/log/import_log',
    },
    {
      key: 'dids',
      n: dids.data?.total ?? 0,
      label: t('frame.didUploads'),
      to: '/origination/did_repository_upload',
    },
    { key: 'rates', n: rates.data?.total ?? 0, label: t('frame.rateImports'), to: '/log/rate_import_log' },
  ].filter((e) => e.n > 0);
  if (!entries.length) return null;
  return (
    <Space size={14} className="waiting-counters" data-testid="waiting-counters">
      {entries.map((e) => (
        <Tooltip key={e.key} title={e.label}>
          <Link to={e.to} data-testid={`counter-${e.key}`} className="waiting-counter">
            <span>{e.label}</span>
            {/* Inline, not a corner badge: a corner badge sits outside the link's box, over the clock. */}
            <Badge count={e.n} size="small" color="#03c0fc" overflowCount={999} />
          </Link>
        </Tooltip>
      ))}
    </Space>
  );
}
