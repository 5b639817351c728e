import { api } from '@tandem/contract';
import { Card, Statistic, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { formatMoneyText } from '../../lib/money';

/** The agent home: its clients and their balances. */
export default function AgentHomePage() {
  const { t } = useTranslation();
  const balances = useApi(api.home.agentClientBalances);
  const items = balances.data?.items ?? [];
  return (
    <div>
      <div className="page-head">
        <h1>{t('home.agentTitle')}</h1>
      </div>
      <div className="stat-grid">
        <Card size="small">
          <Statistic title={t('home.clients')} value={items.length} />
        </Card>
      </div>
      <Card size="small" title={t('home.clientBalances')}>
        <Table
          size="small"
          rowKey="client_id"
          dataSource={items}
          data-testid="agent-clients"
          columns={[
            { title: t('auth.carrierName'), dataIndex: 'name' },
            {
              title: t('home.balance'),
              align: 'right',
              render: (_, r) => formatMoneyText(r.balance, { currency: r.currency }),
            },
            {
              title: t('home.creditLimit'),
              align: 'right',
              render: (_, r) => formatMoneyText(r.credit_limit),
            },
            {
              title: t('common.status'),
              render: (_, r) => (
                <Tag color={r.is_active ? 'green' : 'default'}>
                  {r.is_active ? t('common.active') : t('common.inactive')}
                </Tag>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
