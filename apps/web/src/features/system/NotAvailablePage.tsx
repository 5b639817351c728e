import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { pageNameOf } from '../../app/pageNames';

/**
 * A page a menu offers whose screen comes in a later version (named, in the user's language), or
 * an unknown path ("page not found").
 */
export default function NotAvailablePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const path = useLocation().pathname;
  const page = pageNameOf(path, t, i18n.language);
  return (
    <Result
      status={page ? 'info' : '404'}
      title={<span data-testid="page-title">{page ? page.name : t('frame.pageNotFound')}</span>}
      subTitle={
        page ? (
          <span data-testid="not-available">
            {t('frame.notAvailable', { page: page.name, module: page.area })}
          </span>
        ) : (
          path
        )
      }
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('frame.goHome')}
        </Button>
      }
    />
  );
}
