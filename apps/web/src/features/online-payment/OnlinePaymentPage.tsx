import { api } from '@tandem/contract';
import { Alert, Button, Card, Descriptions, Form, Input, Radio, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { Spinner } from '../../components/Spinner';
import './i18n';

type Provider = api.onlinePayment.Provider;
type Payment = api.onlinePayment.OnlinePaymentRow;

/**
 * The client's online payment (/clients/billing/online_payment?go=..&amount=.., also Pay Now): the
 * balance, an amount (minimum $25.00) and a provider; Pay goes to the provider's page. Back from it,
 * the page waits for the provider's confirmation (the balance moves only on the provider's signed
 * webhook or, for PayPal, its capture) and shows the new balance.
 */
export default function OnlinePaymentPage() {
  const { t } = useTranslation();
  const [sp, setSp] = useSearchParams();
  const options = useApi(api.onlinePayment.topUpOptions);
  const [form] = Form.useForm<{ amount: string; provider: Provider }>();
  const [busy, setBusy] = useState(false);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [error, setError] = useState('');
  const go = sp.get('go');
  const id = Number(sp.get('id') ?? 0);
  const token = sp.get('token');
  const handled = useRef(false);
  const mounted = useRef(true);
  const refetch = useRef(options.refetch);
  refetch.current = options.refetch;

  // Back from the provider: PayPal's return captures the order; otherwise wait for the webhook.
  useEffect(() => {
    if (handled.current || !id || (go !== 'done' && go !== 'paypal')) return;
    handled.current = true;
    const poll = async () => {
      try {
        let p =
          go === 'paypal' && token
            ? await call(
                api.onlinePayment.paypalReturn,
                { body: { order_id: token } },
                { errorMode: 'inline' },
              )
            : await call(api.onlinePayment.getTopUp, { params: { id } });
        for (let i = 0; i < 60 && p.status === 'initial' && mounted.current; i++) {
          setPayment(p);
          await new Promise((r) => setTimeout(r, 2000));
          p = await call(api.onlinePayment.getTopUp, { params: { id } });
        }
        setPayment(p);
        void refetch.current();
      } catch (e) {
        setError(e instanceof ApiError ? e.message : String(e));
      }
    };
    void poll();
  }, [go, id, token]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  if (!options.data) return <Spinner />;
  const o = options.data;
  const pay = async () => {
    const v = form.getFieldsValue(true) as { amount?: string; provider?: Provider };
    setBusy(true);
    setError('');
    try {
      const r = await call(
        api.onlinePayment.startTopUp,
        { body: { provider: v.provider ?? o.providers[0]!.provider, amount: String(v.amount ?? '') } },
        { errorMode: 'inline' },
      );
      window.location.assign(r.redirect_url);
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors).map(([name, msg]) => ({ name: name as 'amount', errors: [msg] })),
        );
      else if (e instanceof ApiError) setError(e.message);
      setBusy(false);
    }
  };
  const reset = () => {
    setPayment(null);
    handled.current = false;
    setSp({});
  };
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('onlinePayment.title')}</h1>}
      style={{ maxWidth: 640 }}
    >
      <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('onlinePayment.balance')}>
          <span data-testid="balance">{`${o.balance} ${o.currency}`}</span>
        </Descriptions.Item>
      </Descriptions>
      {go === 'cancel' && (
        <Alert type="warning" showIcon message={t('onlinePayment.canceled')} style={{ marginBottom: 16 }} />
      )}
      {payment?.status === 'initial' && (
        <Alert type="info" showIcon message={t('onlinePayment.waiting')} style={{ marginBottom: 16 }} />
      )}
      {payment?.status === 'succeed' && (
        <Alert
          type="success"
          showIcon
          data-testid="payment-succeed"
          message={t('onlinePayment.succeed', { amount: payment.amount, currency: payment.currency })}
          style={{ marginBottom: 16 }}
          action={
            <Button size="small" onClick={reset}>
              {t('onlinePayment.pay')}
            </Button>
          }
        />
      )}
      {(payment?.status === 'failed' || error) && (
        <Alert
          type="error"
          showIcon
          data-testid="payment-failed"
          message={payment?.status === 'failed' ? t('onlinePayment.failed', { error: payment.error }) : error}
          style={{ marginBottom: 16 }}
        />
      )}
      {o.providers.length === 0 ? (
        <Alert type="info" showIcon message={t('onlinePayment.noProvider')} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ amount: sp.get('amount') ?? o.min_amount, provider: o.providers[0]!.provider }}
          onFinish={() => void pay()}
          data-testid="form-online-payment"
        >
          <Form.Item
            name="amount"
            label={t('onlinePayment.amount')}
            extra={t('onlinePayment.minimum', { min: `$${o.min_amount}` })}
          >
            <Input addonAfter={o.currency} style={{ width: 240 }} data-testid="field-amount" />
          </Form.Item>
          <Form.Item name="provider" label={t('onlinePayment.provider')}>
            <Radio.Group data-testid="field-provider">
              <Space direction="vertical">
                {o.providers.map((p) => (
                  <Radio key={p.provider} value={p.provider} data-testid={`provider-${p.provider}`}>
                    {t(`onlinePayment.providers.${p.provider}`)}
                    {Number(p.service_charge_percent) > 0 && (
                      <span style={{ color: '#888', marginLeft: 8 }}>
                        {t('onlinePayment.chargeNote', {
                          pct: p.service_charge_percent,
                          provider: t(`onlinePayment.providers.${p.provider}`),
                        })}
                      </span>
                    )}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="pay">
            {t('onlinePayment.pay')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
