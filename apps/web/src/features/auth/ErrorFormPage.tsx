import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { KEYS, store } from '../../lib/storage';

/** Where a failed page load lands, with the saved message. */
export default function ErrorFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const message = store.get(KEYS.errorMessage);
  return (
    <Result
      status="warning"
      title={t('auth.errorTitle')}
      subTitle={<span data-testid="error-form-message">{message}</span>}
      extra={
        <Button type="primary" onClick={() => navigate(-1)}>
          {t('auth.errorBack')}
        </Button>
      }
      style={{ background: '#fff', borderRadius: 8 }}
    />
  );
}
