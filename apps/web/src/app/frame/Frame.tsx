import { api, VERSION, PROGRAM_NAME } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../session';
import { AdminMenu } from './AdminMenu';
import { AgentMenu, ReferralBox } from './AgentMenu';
import { ClientMenu } from './ClientMenu';
import { Clock } from './Clock';
import { DiskWarning } from './DiskWarning';
import { InactivityTimer } from './InactivityTimer';
import { LandingDialog } from './LandingDialog';
import { UserMenu } from './UserMenu';
import { WaitingCounters } from './WaitingCounters';

/** The signed-in frame: header (brand, menu per user type, counters, clock, user menu), content, footer. */
export function Frame({ children }: { children: React.ReactNode }) {
  const { user, system } = useSignedIn();
  const { t } = useTranslation();
  const branding = useApi(
    api.config.getLoginBranding,
    {},
    { callOptions: { errorMode: 'inline', quiet: true }, staleTime: 300_000 },
  );
  const logo = branding.data?.logo_image_id;
  const isAdmin = user.user_type === 'admin';
  return (
    <div>
      <header className="frame-header" data-testid="frame-header">
        <Link to="/" className="brand">
          {logo ? (
            <img src={`/api/config/export/public/${logo}`} alt="" style={{ height: 28 }} />
          ) : (
            <img src="/favicon.svg" alt="" style={{ height: 24 }} />
          )}
          {t('frame.programName')}
        </Link>
        {isAdmin && <AdminMenu />}
        {(user.user_type === 'client' || user.user_type === 'vendor') && <ClientMenu />}
        {user.user_type === 'agent' && <AgentMenu />}
        {user.user_type === 'agent' && <ReferralBox />}
        {isAdmin && <WaitingCounters />}
        <Clock offset={system.timezone} />
        <UserMenu />
      </header>
      {isAdmin && <DiskWarning />}
      <InactivityTimer minutes={system.inactivity_timeout} />
      {isAdmin && <LandingDialog />}
      <main className="frame-content">{children}</main>
      <footer className="frame-footer" data-testid="footer">
        {!system.hide_version && `${PROGRAM_NAME} · ${t('frame.version', { version: VERSION })}`}
      </footer>
    </div>
  );
}
