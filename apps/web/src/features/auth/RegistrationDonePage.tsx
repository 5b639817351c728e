import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { PublicCard } from './PublicCard';

export default function RegistrationDonePage() {
  const { t } = useTranslation();
  const waiting = useLocation().pathname.endsWith('waiting_registration');
  return (
    <PublicCard title={t('auth.registrationDone')}>
      <Alert
        type={waiting ? 'info' : 'success'}
        showIcon
        message={waiting ? t('auth.registrationWaiting') : t('auth.registrationDone')}
        data-testid="registration-done"
      />
      <div style={{ marginTop: 12 }}>
        <Link to="/auth/login">{t('auth.backToLogin')}</Link>
      </div>
    </PublicCard>
  );
}
