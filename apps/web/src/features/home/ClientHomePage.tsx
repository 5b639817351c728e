import { api } from '@tandem/contract';
import { Alert, Card, Col, Empty, List, Row, Statistic, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
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
      <Row gutter={12} style={{ marginBottom: 12 }}>
        {!isVendor && (
          <Col xs={24} md={8}>
            <Card size="small" data-testid="client-balance">
              <Statistic
                title={t('home.balance')}
                prefix={h?.currency}
                value={h ? Number(h.balance).toFixed(2) : '–'}
              />
            </Card>
          </Col>
        )}
        <Col xs={24} md={8}>
          <Card size="small">
            <Statistic
              title={t('home.creditLimit')}
              prefix={h?.currency}
              value={h ? Number(h.credit_limit).toFixed(2) : '–'}
            />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small">
            <Statistic title={t('home.mode')} value={h?.mode ?? '–'} />
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
                  render: (_, r) => `${r.currency} ${Number(r.amount).toFixed(2)}`,
                  align: 'right',
                },
                {
                  title: t('home.paid'),
                  render: (_, r) => `${Number(r.paid_amount).toFixed(2)}`,
                  align: 'right',
                },
                {
                  title: t('common.status'),
                  render: (_, r) => (
                    <Tag color={new Date(r.due_date) < new Date() ? 'red' : 'orange'}>
                      {new Date(r.due_date) < new Date() ? 'overdue' : 'open'}
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
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
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
