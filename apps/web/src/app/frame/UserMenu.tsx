import { UserOutlined } from '@ant-design/icons';
import { api, LANGUAGES, type Language } from '@tandem/contract';
import { Avatar, Badge, Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { ChangePasswordDialog } from '../../features/profile/ChangePasswordDialog';
import { SupportTicketDialog } from '../../features/tickets/SupportTicketDialog';
import { setLanguage } from '../../i18n';
import { useFeedback } from '../feedback';
import { useSignedIn } from '../session';
import { AboutDialog } from './AboutDialog';
import { copyText } from './AgentMenu';
import { referralLink } from './portalMenus';
import { SwitchIpDialog } from './SwitchIpDialog';
import { formatMoneyText } from '../../lib/money';

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ch: '中文', de: 'Deutsch' };

/** The user menu, with the entries and conditions of spec 01 section 2 for each user type. */
export function UserMenu() {
  const { user, system } = useSignedIn();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [dialog, setDialog] = useState<'password' | 'about' | 'ticket' | 'switch' | null>(null);
  const isAdmin = user.user_type === 'admin';
  const isCarrier = user.user_type === 'client' || user.user_type === 'vendor';
  const openTickets = useApi(
    api.ticket.listTickets,
    { query: { page: 0, per_page: 1, only_opened: 'true' } },
    { enabled: isAdmin, callOptions: { errorMode: 'inline', quiet: true }, refetchInterval: 60_000 },
  );
  const home = useApi(
    api.home.getClientHome,
    {},
    { enabled: isCarrier, callOptions: { errorMode: 'inline', quiet: true } },
  );
  const hosts = useApi(
    api.sw.listSipHosts,
    { query: { page: 0, per_page: 10, order_by: 'switch_id', order_dir: 'asc' } },
    { enabled: isCarrier, callOptions: { errorMode: 'inline', quiet: true } },
  );

  const open = (x: typeof dialog) => () => setDialog(x);
  const go = (path: string) => () => void navigate(path);
  const changeLanguage = (lang: Language) => {
    void setLanguage(lang);
    void call(
      api.user.patchOwnUser,
      { body: { language: lang } },
      { errorMode: 'inline', quiet: true },
    ).catch(() => undefined);
  };

  const items: MenuProps['items'] = [];
  const add = (key: string, label: React.ReactNode, onClick: () => void, show = true) => {
    if (show) items.push({ key, label: <span data-testid={`usermenu-${key}`}>{label}</span>, onClick });
  };
  if (isAdmin) {
    const count = openTickets.data?.total ?? 0;
    add(
      'open_tickets',
      <Badge count={count} size="small" offset={[10, 0]} data-testid="open-ticket-badge">
        {t('frame.openTickets')}
      </Badge>,
      go('/origination/tickets/only_opened'),
    );
    add('first_time_wizard', t('frame.firstTimeWizard'), go('/first_time_wizard'));
    add('tickets', t('frame.tickets'), go('/origination/tickets'));
    add('change_password', t('frame.changePassword'), open('password'));
    add(
      'support',
      t('frame.support'),
      () => window.open(system.support_link, '_blank', 'noopener'),
      !system.hide_support_link && Boolean(system.support_link),
    );
    add(
      'help',
      t('frame.help'),
      () => window.open(system.help_link, '_blank', 'noopener'),
      !system.hide_help_link && Boolean(system.help_link),
    );
    add('about', t('frame.about'), open('about'));
    add('my_profile', t('frame.myProfile'), go('/my_profile'));
    add('capacity', t('frame.capacity'), go('/switch/capacity'));
    add('voip_gateway', t('frame.voipGateway'), go('/switch/voip_gateway'));
    add('license', t('frame.license'), go('/license'), !system.hide_license);
    add('server_admin', t('frame.serverAdmin'), go('/server_admin'), user.is_server_admin);
  } else if (isCarrier) {
    const balance = home.data?.balance;
    add(
      'balance',
      <span data-testid="balance">
        {t('frame.balance')}:{' '}
        {balance !== undefined ? formatMoneyText(balance, { currency: home.data?.currency ?? 'USD' }) : '…'}
      </span>,
      go('/clients/management/analytics_dashboard'),
      user.client?.client_type !== 'vendor',
    );
    add('support_ticket', t('frame.supportTicket'), open('ticket'), user.client?.ticket_menu !== 'false');
    add('my_profile', t('frame.myProfile'), go('/my_profile'));
    add('change_password', t('frame.changePassword'), open('password'));
    add('switch_ip', t('frame.switchIp'), open('switch'), (hosts.data?.items.length ?? 0) > 0);
  } else {
    add('change_password', t('frame.changePassword'), open('password'));
    add('copy_referral', t('frame.copyReferral'), () => {
      if (!user.referal_key) return;
      void copyText(referralLink(window.location.origin, user.referal_key).href).then(() =>
        flash(t('frame.linkCopied')),
      );
    });
    add('my_profile', t('frame.myProfile'), go('/my_profile'));
  }
  items.push({
    key: 'language',
    label: t('frame.language'),
    children: LANGUAGES.map((l) => ({
      key: `lang-${l}`,
      label: (
        <span data-testid={`lang-${l}`}>
          {LANGUAGE_NAMES[l]}
          {i18n.language === l ? ' ✓' : ''}
        </span>
      ),
      onClick: () => changeLanguage(l),
    })),
  });
  add('logout', t('frame.logout'), go('/logout'));

  const avatar = user.avatar_id ? `/api/config/export/public/${user.avatar_id}` : undefined;
  return (
    <>
      <Dropdown menu={{ items, triggerSubMenuAction: 'click' }} trigger={['click']} placement="bottomRight">
        <Button
          type="text"
          style={{ color: '#fff', display: 'flex', alignItems: 'center', gap: 6 }}
          data-testid="user-menu"
          aria-label={t('frame.userMenu')}
        >
          <Badge dot={isAdmin && (openTickets.data?.total ?? 0) > 0}>
            <Avatar size="small" src={avatar} icon={<UserOutlined />} />
          </Badge>
          <span data-testid="user-name">{user.first_name || user.name}</span>
        </Button>
      </Dropdown>
      <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      <AboutDialog open={dialog === 'about'} onClose={() => setDialog(null)} />
      <SupportTicketDialog open={dialog === 'ticket'} onClose={() => setDialog(null)} />
      <SwitchIpDialog
        open={dialog === 'switch'}
        onClose={() => setDialog(null)}
        hosts={hosts.data?.items ?? []}
      />
    </>
  );
}
