import { Alert, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../app/session';
import { PublicCard } from '../auth/PublicCard';
import { TwoFactorCard } from './TwoFactorCard';

/**
 * /auth/two_factor: the two-factor setup a user's role requires (issue 18, docs/security.md). After
 * sign-in the guard sends such a user here, and every other page back here, until it is on; the
 * server refuses everything else meanwhile (code 210). Once the recovery codes are put away, the
 * session is read again and the user goes home.
 */
export default function TwoFactorSetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session, reload, signOut } = useSession();
  const [enabled, setEnabled] = useState(false);
  const roleName = session?.user.role_name ?? '';

  const finish = async () => {
    await reload();
    navigate('/', { replace: true });
  };

  return (
    <PublicCard title={t('auth.twoFactorRequiredTitle')} width={560}>
      <Alert
        type={enabled ? 'success' : 'warning'}
        showIcon
        message={enabled ? t('auth.twoFactorRequiredDone') : t('auth.twoFactorRequiredNotice')}
        description={enabled ? undefined : t('auth.twoFactorRequiredWhy', { role: roleName })}
        data-testid="two-factor-required-notice"
      />
      <TwoFactorCard
        enabled={enabled}
        requiredByRole
        onChange={() => {
          setEnabled(true);
          return Promise.resolve();
        }}
        onRecoveryDone={() => void finish()}
      />
      <div className="public-links">
        <Button
          type="link"
          style={{ padding: 0 }}
          onClick={() => void signOut()}
          data-testid="two-factor-logout"
        >
          {t('frame.logout')}
        </Button>
      </div>
    </PublicCard>
  );
}
