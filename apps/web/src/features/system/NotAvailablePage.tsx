import { menuDisplayName, MENU_MODULES } from '@tandem/contract';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';

/** A catalogue page whose screen belongs to a later area, or an unknown path. */
export default function NotAvailablePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const path = useLocation().pathname;
  const hit = MENU_MODULES.flatMap((m) => m.items.map((i) => ({ m, i }))).find(
    ({ i }) => path === i.web_url || path.startsWith(i.web_url + '/'),
  );
  const area =
    hit?.m.group_name ??
    (path.startsWith('/clients') ? 'Client portal' : path.startsWith('/agent') ? 'Agent portal' : null);
  return (
    <Result
      status={area ? 'info' : '404'}
      title={hit ? menuDisplayName(hit.m.group_name, hit.i.display_name) : t('frame.pageNotFound')}
      subTitle={
        area ? <span data-testid="not-available">{t('frame.notAvailable', { module: area })}</span> : path
      }
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('frame.goHome')}
        </Button>
      }
    />
  );
}
