import { api } from '@tandem/contract';
import { Alert, Card, Col, Empty, List, Row, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { Figure } from '../../components/Figure';
import { useSignedIn } from '../../app/session';
import { formatMoneyText } from '../../lib/money';
import { ClientAnalytics } from '../statistics/ClientAnalytics';

/** The carrier home: balance, its traffic today and this month (analytics), unpaid invoices, alerts and messages. */
export default function ClientHomePage() {
  const { t } = useTranslation();
  const { user } = useSignedIn();
  const home = useApi(api.home.getClientHome);
  const invoices = useApi(api.home.listClientInvoices, { query: { paid: false, page: 0, per_page: 9999 } });
  const alerts = useApi(api.home.listClientAlerts, { query: { page: 0, per_page: 9999 } });
  const messages = useApi(api.home.listClientMessages, { query: { page: 0, per_page: 9999 } });
  const h = home.data;
  const isVendor = user.client?.client_type === 'vendor';
  const prepaid = h?.mode === 'prepaid';
  const money = (v: string | undefined) =>
    h && v !== undefined ? formatMoneyText(v, { currency: h.currency }) : '–';
  return (
    <div>
      <div className="page-head">
        <h1>{t('home.clientTitle')}</h1>
        <span>{h?.name}</span>
      </div>
      {(alerts.data?.items ?? []).map((a) => (
        <Alert
          key={a.id}
          type={a.level === 'error' ? 'error' : 'warning'}
          showIcon
          message={a.content}
          style={{ marginBottom: 8 }}
          data-testid="client-alert"
        />
      ))}
      {/* The figures of the carrier's mode, named as on the carrier page: a prepaid carrier spends its
          balance and the allowed credit, a postpaid one its credit limit. */}
      <Row gutter={12} style={{ marginBottom: 12 }} data-testid="client-figures">
        {!isVendor && (
          <Col xs={24} md={6}>
            <Card size="small" data-testid="client-balance">
              <Figure title={t('home.balance')} value={money(h?.balance)} />
            </Card>
          </Col>
        )}
        {!isVendor && (
          <Col xs={24} md={6}>
            <Card size="small" data-testid="client-credit">
              {prepaid ? (
                <Figure
                  title={t('home.allowedCredit')}
                  value={h?.unlimited_credit ? t('home.unlimitedCredit') : money(h?.allowed_credit)}
                />
              ) : (
                <Figure title={t('home.creditLimit')} value={money(h?.credit_limit)} />
              )}
            </Card>
          </Col>
        )}
        {!isVendor && (
          <Col xs={24} md={6}>
            <Card size="small" data-testid="client-available">
              <Figure
                title={t('home.available')}
                value={h?.unlimited_credit ? t('home.unlimitedCredit') : money(h?.available)}
              />
            </Card>
          </Col>
        )}
        <Col xs={24} md={6}>
          <Card size="small" data-testid="client-mode">
            <Figure
              title={t('home.mode')}
              value={h ? t(`home.modes.${h.mode}`, { defaultValue: h.mode }) : '–'}
            />
          </Card>
        </Col>
      </Row>
      <ClientAnalytics />
      <Row gutter={12}>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('home.unpaidInvoices')}>
            <Table
              size="small"
              rowKey="invoice_id"
              pagination={false}
              locale={{ emptyText: t('home.noUnpaid') }}
              dataSource={invoices.data?.items ?? []}
              data-testid="unpaid-invoices"
              columns={[
                { title: t('home.invoice'), dataIndex: 'invoice_number' },
                { title: t('home.dueDate'), dataIndex: 'due_date' },
                {
                  title: t('home.amount'),
                  render: (_, r) => formatMoneyText(r.amount, { currency: r.currency }),
                  align: 'right',
                },
                {
                  title: t('home.paid'),
                  render: (_, r) => formatMoneyText(r.paid_amount, { currency: r.currency }),
                  align: 'right',
                },
                {
                  title: t('common.status'),
                  render: (_, r) => (
                    <Tag color={new Date(r.due_date) < new Date() ? 'red' : 'orange'}>
                      {new Date(r.due_date) < new Date() ? t('home.overdue') : t('home.open')}
                    </Tag>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('home.messages')}>
            {(messages.data?.items.length ?? 0) === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noMessages')} />
            ) : (
              <List
                size="small"
                dataSource={messages.data?.items}
                renderItem={(m) => (
                  <List.Item data-testid="client-message">
                    <List.Item.Meta title={m.subject} description={m.content} />
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
