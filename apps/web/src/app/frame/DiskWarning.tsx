import { api, DISK_WARNING_PERCENT, SERVER_STATUS_POLL_MS } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';

/** Warns when the server's free disk space is under 10 %; polled hourly while shown. */
export function DiskWarning() {
  const { t } = useTranslation();
  const status = useApi(
    api.config.watchdogStatus,
    { params: { server: 'local' } },
    {
      callOptions: { errorMode: 'inline', quiet: true },
      refetchInterval: (q) => {
        const free = q.state.data?.disk[0]?.percent;
        return free !== undefined && free < DISK_WARNING_PERCENT ? SERVER_STATUS_POLL_MS : false;
      },
    },
  );
  const free = status.data?.disk[0]?.percent;
  if (free === undefined || free >= DISK_WARNING_PERCENT) return null;
  return (
    <div className="disk-banner" role="alert" data-testid="disk-warning">
      {t('frame.diskWarning', { percent: free })} <Link to="/server_admin">{t('frame.diskWarningLink')}</Link>
    </div>
  );
}
