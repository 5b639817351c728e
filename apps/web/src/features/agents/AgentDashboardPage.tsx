import { api } from '@tandem/contract';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useApi } from '../../api/queries';
import { Figure } from '../../components/Figure';
import { formatMoneyText, formatNumberText, formatPercentText } from '../../lib/money';
import './i18n';

/**
 * The agent's home (/agents/management/agent_dashboard): its clients and their balances, the
 * traffic of the open commission period and the commission it has earned so far, what it is owed,
 * and its clients' revenue of the last 30 days. Every figure covers its own clients only.
 */
export default function AgentDashboardPage() {
  const { t } = useTranslation();
  const d = useApi(api.agents.dashboard).data;
  if (!d) return null;
  const money = (v: string) => formatMoneyText(v);
  const day = (iso: string) => iso.slice(0, 10);
  const endDay = new Date(Date.parse(d.period.end) - 86_400_000).toISOString();
  return (
    <div>
      <div className="page-head">
        <h1>{t('agents.dashboard')}</h1>
        <span>
          {t('agents.terms', {
            method: t(`agents.methods.${d.method}`),
            percent: formatPercentText(d.percent),
            frequency: t(`agents.frequencies.${d.frequency}`),
          })}
        </span>
      </div>
      <div className="stat-grid" data-testid="agent-dashboard">
        <Card size="small">
          <Link to="/agents/client/client_list">
            <Figure title={t('agents.clients')} value={d.clients} />
          </Link>
        </Card>
        <Card size="small">
          <Figure title={t('agents.activeClients')} value={d.active_clients} />
        </Card>
        <Card size="small">
          <Figure title={t('agents.clientsBalance')} value={money(d.clients_balance)} />
        </Card>
        <Card size="small">
          <Link to="/agents/statistics/commission_history">
            <Figure title={t('agents.owed')} value={money(d.owed)} />
          </Link>
        </Card>
      </div>
      <Card
        size="small"
        title={t('agents.thisPeriod', { from: day(d.period.start), to: day(endDay) })}
        style={{ marginTop: 12 }}
      >
        <div className="stat-grid" data-testid="agent-period">
          <Figure title={t('agents.revenue')} value={money(d.period.revenue)} />
          <Figure title={t('agents.calls')} value={d.period.calls} />
          <Figure title={t('agents.minutes')} value={formatNumberText(d.period.minutes, { decimals: 2 })} />
          <Figure title={t('agents.earned')} value={money(d.period.commission)} />
        </div>
      </Card>
      <Card size="small" title={t('agents.last30')} style={{ marginTop: 12 }}>
        <div data-testid="agent-chart" style={{ width: '100%', height: 240 }}>
          <ResponsiveContainer>
            <BarChart data={d.daily.map((x) => ({ day: x.day.slice(5), revenue: Number(x.revenue) }))}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" minTickGap={16} />
              <YAxis />
              <Tooltip formatter={(v) => money(String(v))} />
              <Bar dataKey="revenue" name={t('agents.revenue')} fill="#1677ff" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Card>
    </div>
  );
}
