import { api } from '@tandem/contract';
import { Alert, Button, Form, Input, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '../../i18n';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { PublicCard } from './PublicCard';
import { passwordRules } from './rules';

const decodeAgentId = (v: string | undefined): number | undefined => {
  if (!v) return undefined;
  try {
    const n = Number(atob(v));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
};

/** Self sign-up of a carrier, optionally through an agent's referral link; pending until approved. */
export default function RegistrationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const agentId = decodeAgentId(params.agentId);
  const refKey = params.refKey;
  const [error, setError] = useState<string | null>(null);
  const branding = useApi(
    api.config.getLoginBranding,
    {},
    { callOptions: { errorMode: 'inline', quiet: true } },
  );
  const agent = useApi(
    api.signup.getAgent,
    { params: { id: agentId ?? 0 }, query: { ref_key: refKey } },
    { enabled: Boolean(agentId && refKey), callOptions: { errorMode: 'inline', quiet: true } },
  );

  if (branding.data && !branding.data.user_registration_enabled) {
    return (
      <PublicCard title={t('auth.registerTitle')}>
        <Alert type="info" message={t('auth.registrationClosed')} />
        <Link to="/auth/login">{t('auth.backToLogin')}</Link>
      </PublicCard>
    );
  }

  const submit = async (v: Record<string, string>) => {
    setError(null);
    try {
      const r = await call(
        api.signup.createCarrierBasic,
        {
          body: {
            name: v.name!,
            company: v.company!,
            email: v.email!,
            first_name: v.first_name ?? '',
            last_name: v.last_name ?? '',
            login_name: v.login_name!,
            passwd: v.passwd!,
            client_type: (v.client_type as 'client' | 'vendor') ?? 'client',
            company_type: (v.company_type as 'termination' | 'origination') ?? 'termination',
            ...(refKey ? { ref_key: refKey } : {}),
            ...(agentId ? { agent_id: agentId } : {}),
          },
        },
        { errorMode: 'inline' },
      );
      navigate(r.status === 'pending' ? '/auth/waiting_registration' : '/auth/successful_registration');
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
    }
  };
  const letters = [{ pattern: /^[\p{L} ]*$/u, message: t('profile.lettersAndSpaces') }];
  const req = (k: string) => [{ required: true, message: t('common.required', { field: t(k) }) }];
  return (
    <PublicCard title={t('auth.registerTitle')} width={520}>
      {agent.data && (
        <Alert
          type="info"
          showIcon
          message={t('auth.referredBy', { name: agent.data.agent_name })}
          style={{ marginBottom: 12 }}
          data-testid="referred-by"
        />
      )}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form
        layout="vertical"
        onFinish={(v) => void submit(v as Record<string, string>)}
        initialValues={{ client_type: 'client', company_type: 'termination' }}
      >
        <Form.Item name="name" label={t('auth.carrierName')} rules={req('auth.carrierName')}>
          <Input data-testid="reg-name" />
        </Form.Item>
        <Form.Item name="company" label={t('auth.company')} rules={req('auth.company')}>
          <Input data-testid="reg-company" />
        </Form.Item>
        <Form.Item name="client_type" label={t('auth.clientType')}>
          <Radio.Group
            options={[
              { value: 'client', label: t('auth.buyTraffic') },
              { value: 'vendor', label: t('auth.sellTraffic') },
            ]}
          />
        </Form.Item>
        <Form.Item name="company_type" label={t('auth.companyType')}>
          <Radio.Group
            options={[
              { value: 'termination', label: t('menu.termination') },
              { value: 'origination', label: t('menu.origination') },
            ]}
          />
        </Form.Item>
        <Form.Item name="first_name" label={t('auth.firstName')} rules={letters}>
          <Input />
        </Form.Item>
        <Form.Item name="last_name" label={t('auth.lastName')} rules={letters}>
          <Input />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('auth.email')}
          rules={[
            ...req('auth.email'),
            { type: 'email', message: serverMessage('invalidEmail', [t('auth.email')]) },
          ]}
        >
          <Input data-testid="reg-email" />
        </Form.Item>
        <Form.Item name="login_name" label={t('auth.userName')} rules={req('auth.userName')}>
          <Input data-testid="reg-login" />
        </Form.Item>
        <Form.Item name="passwd" label={t('auth.password')} rules={passwordRules(t)}>
          <Input.Password data-testid="reg-password" autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block data-testid="reg-submit">
          {t('auth.register')}
        </Button>
      </Form>
      <div style={{ marginTop: 12 }}>
        <Link to="/auth/login">{t('auth.backToLogin')}</Link>
      </div>
    </PublicCard>
  );
}
