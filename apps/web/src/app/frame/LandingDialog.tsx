import { api, LANDING_DIALOG_DELAY_MS } from '@tandem/contract';
import { useMenuLabels } from '../pageNames';
import { Button, Modal, Select, Space } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { call } from '../../api/client';
import { KEYS, store } from '../../lib/storage';
import { useSession, useSignedIn } from '../session';

/**
 * Asks an admin for a landing page two seconds after arriving from the login page, when none is
 * saved and the role has no dashboard privilege (spec 01 section 4).
 */
export function LandingDialog() {
  const { user, submenus, role } = useSignedIn();
  const { reload } = useSession();
  const { t } = useTranslation();
  const labels = useMenuLabels();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [group, setGroup] = useState<number | null>(null);
  const [page, setPage] = useState<string | null>(null);

  const hasDashboard =
    !role ||
    role.role_privilegies.some((p) => p.func_name === '/statistics/dashboard' && (p.readable || p.writable));
  useEffect(() => {
    if (store.get(KEYS.fromLogin) !== '1') return;
    store.set(KEYS.fromLogin, null);
    if (user.landing_page || hasDashboard) return;
    const timer = setTimeout(() => setOpen(true), LANDING_DIALOG_DELAY_MS);
    return () => clearTimeout(timer);
  }, [user.landing_page, hasDashboard]);

  const readable = useMemo(() => submenus.filter((m) => m.is_readable), [submenus]);
  const groups = useMemo(
    () => [...new Map(readable.map((m) => [m.main_menu_id, m.group_name])).entries()],
    [readable],
  );
  const save = async (landing: string) => {
    await call(api.user.patchOwnUser, { body: { landing_page: landing } }, { errorMode: 'inline' });
    setOpen(false);
    await reload();
    navigate(landing);
  };
  return (
    <Modal
      open={open}
      title={t('frame.landingTitle')}
      onCancel={() => setOpen(false)}
      footer={null}
      data-testid="landing-dialog"
    >
      <p>{t('frame.landingText')}</p>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Select
          placeholder={t('frame.landingMenu')}
          style={{ width: '100%' }}
          value={group}
          onChange={(v) => {
            setGroup(v);
            setPage(null);
          }}
          options={groups.map(([id, name]) => ({ value: id, label: labels.module(id, name) }))}
        />
        <Select
          placeholder={t('frame.landingSubmenu')}
          style={{ width: '100%' }}
          value={page}
          onChange={setPage}
          disabled={group === null}
          options={readable
            .filter((m) => m.main_menu_id === group)
            .map((m) => ({ value: m.web_url, label: labels.item(m.group_name, m.display_name, m.web_url) }))}
        />
        <Space wrap>
          <Button type="primary" disabled={!page} onClick={() => page && void save(page)}>
            {t('frame.goLanding')}
          </Button>
          <Button
            onClick={() => {
              setOpen(false);
              navigate('/first_time_wizard');
            }}
          >
            {t('frame.goWizard')}
          </Button>
          <Button onClick={() => void save(location.pathname)}>{t('frame.keepCurrent')}</Button>
        </Space>
      </Space>
    </Modal>
  );
}
