import { api } from '@tandem/contract';
import { Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { Figure } from '../../components/Figure';
import { formatMoneyText } from '../../lib/money';

/** The portal's live counts and the latest sign-ins (a part of the admin dashboard, /statistics/dashboard). */
export function PortalCounts() {
  const { t } = useTranslation();
  const home = useApi(api.home.adminHome, {}, { refetchInterval: 60_000 });
  const signins = useApi(
    api.log.listSigninHistory,
    { query: { page: 0, per_page: 8 } },
    { callOptions: { errorMode: 'inline', quiet: true } },
  );
  const d = home.data;
  const stat = (key: string, title: string, value: number | string | undefined, to?: string) => (
    <Card key={key} size="small" data-testid={`stat-${key}`}>
      <Figure title={to ? <Link to={to}>{t(title)}</Link> : t(title)} value={value} />
    </Card>
  );
  return (
    <div>
      <div className="stat-grid">
        {stat('users', 'home.users', d?.users, '/configuration/users')}
        {stat('clients', 'home.clients', d?.clients)}
        {stat('vendors', 'home.vendors', d?.vendors)}
        {stat('agents', 'home.agents', d?.agents)}
        {stat('waiting', 'home.waitingTickets', d?.waiting_tickets, '/origination/tickets')}
        {stat('signins', 'home.signinsToday', d?.signins_today, '/log/user_signin_history')}
        {stat('failed', 'home.failedSigninsToday', d?.failed_signins_today, '/log/user_signin_history')}
        {stat(
          'balance',
          'home.totalBalance',
          d ? formatMoneyText(d.total_balance, { currency: 'USD' }) : undefined,
        )}
      </div>
      {signins.data && (
        <Card size="small" title={t('home.recentSignins')}>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={signins.data.items}
            columns={[
              {
                title: t('system.time'),
                dataIndex: 'created_at',
                render: (v: string) => v.replace('T', ' ').slice(0, 19),
              },
              { title: t('users.name'), dataIndex: 'name' },
              { title: t('system.ip'), dataIndex: 'ip' },
              {
                title: t('system.result'),
                dataIndex: 'result',
                render: (v: string) => (
                  <Tag color={v === 'success' ? 'green' : v === 'failed' ? 'orange' : 'red'}>{v}</Tag>
                ),
              },
            ]}
          />
        </Card>
      )}
    </div>
  );
}
