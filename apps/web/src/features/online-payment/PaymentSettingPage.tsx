import { api } from '@tandem/contract';
import { Button, Card, Form, Input, Switch, Tabs, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';
import './i18n';

type Provider = api.onlinePayment.Provider;
type Row = api.onlinePayment.GatewayRow;

function ProviderForm({ row }: { row: Row }) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const save = useApiMutation(api.onlinePayment.updateGateway, [api.onlinePayment.listGateways]);
  const p: Provider = row.provider;
  useEffect(() => {
    form.setFieldsValue({ ...row, secret: '', webhook_secret: '' });
  }, [row, form]);
  const submit = async () => {
    const v = form.getFieldsValue(true) as Record<string, string | boolean | undefined>;
    const body = {
      enabled: Boolean(v.enabled),
      public_key: String(v.public_key ?? ''),
      secret: String(v.secret ?? ''),
      webhook_secret: String(v.webhook_secret ?? ''),
      api_url: String(v.api_url ?? ''),
      currency: String(v.currency ?? ''),
      fee_percent: String(v.fee_percent ?? '0'),
      fee_fixed: String(v.fee_fixed ?? '0'),
      service_charge_percent: String(v.service_charge_percent ?? '0'),
    };
    try {
      await save.mutateAsync({ params: { provider: p }, body });
      flash(t('common.modifiedSuccessfully'));
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(Object.entries(e.errors).map(([name, msg]) => ({ name, errors: [msg] })));
    }
  };
  const stored = (has: boolean) => (
    <Tag color={has ? 'green' : 'default'}>{t(has ? 'onlinePayment.stored' : 'onlinePayment.notStored')}</Tag>
  );
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 640 }}
      onFinish={() => void submit()}
      data-testid={`form-gateway-${p}`}
    >
      <Form.Item name="enabled" label={t('onlinePayment.enabled')} valuePropName="checked">
        <Switch data-testid="field-enabled" />
      </Form.Item>
      <Form.Item name="public_key" label={t(`onlinePayment.publicKey.${p}`)}>
        <Input data-testid="field-public_key" />
      </Form.Item>
      <Form.Item
        name="secret"
        label={
          <>
            {t(`onlinePayment.secret.${p}`)}&nbsp;{stored(row.has_secret)}
          </>
        }
        extra={t('onlinePayment.secretKeep')}
      >
        <Input.Password autoComplete="new-password" data-testid="field-secret" />
      </Form.Item>
      <Form.Item
        name="webhook_secret"
        label={
          <>
            {t(`onlinePayment.webhookSecret.${p}`)}&nbsp;{stored(row.has_webhook_secret)}
          </>
        }
        extra={t('onlinePayment.secretKeep')}
      >
        <Input.Password autoComplete="new-password" data-testid="field-webhook_secret" />
      </Form.Item>
      <Form.Item name="api_url" label={t('onlinePayment.apiUrl')}>
        <Input data-testid="field-api_url" />
      </Form.Item>
      <Form.Item name="currency" label={t('onlinePayment.currency')}>
        <Input style={{ width: 120 }} data-testid="field-currency" />
      </Form.Item>
      <Form.Item name="fee_percent" label={t('onlinePayment.feePercent')}>
        <Input style={{ width: 160 }} data-testid="field-fee_percent" />
      </Form.Item>
      <Form.Item name="fee_fixed" label={t('onlinePayment.feeFixed')}>
        <Input style={{ width: 160 }} data-testid="field-fee_fixed" />
      </Form.Item>
      <Form.Item name="service_charge_percent" label={t('onlinePayment.serviceCharge')}>
        <Input style={{ width: 160 }} data-testid="field-service_charge_percent" />
      </Form.Item>
      <Typography.Paragraph type="secondary">
        {t('onlinePayment.webhookUrl')}:{' '}
        <Typography.Text
          code
          copyable
        >{`${window.location.origin}/api${p === 'stripe' ? api.onlinePayment.stripeWebhook.path : api.onlinePayment.paypalWebhook.path}`}</Typography.Text>
      </Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="form-save">
        {t('common.save')}
      </Button>
    </Form>
  );
}

/** Configuration > Payment Setting: the card provider (Stripe) and the wallet provider (PayPal). */
export default function PaymentSettingPage() {
  const { t } = useTranslation();
  const list = useApi(api.onlinePayment.listGateways);
  if (!list.data) return <Spinner />;
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('onlinePayment.settings')}</h1>}>
      <Tabs
        items={list.data.items.map((row) => ({
          key: row.provider,
          label: t(`onlinePayment.providerTabs.${row.provider}`),
          children: <ProviderForm row={row} />,
        }))}
      />
    </Card>
  );
}
