import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../session';
import { clientMenuEntries } from './portalMenus';
import { TopMenu } from './TopMenu';

export function ClientMenu() {
  const { user } = useSignedIn();
  const { t } = useTranslation();
  const exports = useApi(
    api.log.listExportLog,
    { query: { page: 0, per_page: 1 } },
    { callOptions: { errorMode: 'inline', quiet: true } },
  );
  if (!user.client) return null;
  return (
    <TopMenu entries={clientMenuEntries(user.client, exports.data?.total ?? 0, t)} testId="client-menu" />
  );
}
