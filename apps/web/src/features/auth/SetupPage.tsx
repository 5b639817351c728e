import { api } from '@tandem/contract';
import { Alert, Button, Form, Input } from 'antd';
import { startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '../../i18n';
import { useNavigate } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useSession } from '../../app/session';
import { PublicCard } from './PublicCard';
import { passwordRules } from './rules';

/** First-admin setup: only while no user exists. */
export default function SetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  const hasUser = useApi(
    api.user.hasUser,
    {},
    { callOptions: { errorMode: 'inline', quiet: true }, staleTime: 0 },
  );
  useEffect(() => {
    if (hasUser.data?.has_user) {
      session.setHasUser(true);
      navigate('/auth/login', { replace: true });
    }
  }, [hasUser.data, navigate, session]);

  const submit = async (v: {
    name: string;
    email: string;
    first_name?: string;
    last_name?: string;
    passwd: string;
    setup_code: string;
  }) => {
    setError(null);
    try {
      await call(
        api.user.createUser,
        {
          body: {
            name: v.name,
            email: v.email,
            first_name: v.first_name ?? '',
            last_name: v.last_name ?? '',
            passwd: v.passwd,
            setup_code: v.setup_code,
          },
        },
        { errorMode: 'inline' },
      );
      const { token } = await call(
        api.auth.signIn,
        { body: { email_or_name: v.name, password: v.passwd } },
        { errorMode: 'inline' },
      );
      await session.signIn(token);
      navigate('/first_time_wizard', { replace: true });
      // Only now, and in the same transition as the router's update: were the guard to learn that a user
      // exists while this page is still shown, it would send the new admin away from /setup (to the
      // login page or home) before the wizard opens.
      startTransition(() => session.setHasUser(true));
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
    }
  };
  return (
    <PublicCard title={t('auth.setupTitle')}>
      <p style={{ color: '#555' }}>{t('auth.setupHelp')}</p>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form
        layout="vertical"
        onFinish={(v: {
          name: string;
          email: string;
          first_name?: string;
          last_name?: string;
          passwd: string;
          setup_code: string;
        }) => void submit(v)}
      >
        <Form.Item
          name="setup_code"
          label={t('auth.setupCode')}
          extra={t('auth.setupCodeHelp')}
          rules={[{ required: true, message: t('common.required', { field: t('auth.setupCode') }) }]}
        >
          <Input data-testid="setup-code" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('auth.userName')}
          rules={[{ required: true, message: t('common.required', { field: t('auth.userName') }) }]}
        >
          <Input autoFocus data-testid="setup-name" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('auth.email')}
          rules={[
            { required: true, type: 'email', message: serverMessage('invalidEmail', [t('auth.email')]) },
          ]}
        >
          <Input data-testid="setup-email" />
        </Form.Item>
        <Form.Item
          name="first_name"
          label={t('auth.firstName')}
          rules={[{ pattern: /^[\p{L} ]*$/u, message: t('profile.lettersAndSpaces') }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="last_name"
          label={t('auth.lastName')}
          rules={[{ pattern: /^[\p{L} ]*$/u, message: t('profile.lettersAndSpaces') }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="passwd" label={t('auth.password')} rules={passwordRules(t)}>
          <Input.Password data-testid="setup-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('auth.confirmPassword')}
          dependencies={['passwd']}
          rules={[
            ...passwordRules(t),
            ({ getFieldValue }) => ({
              validator: (_, v) =>
                v === getFieldValue('passwd')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('auth.passwordsDoNotMatch'))),
            }),
          ]}
        >
          <Input.Password data-testid="setup-confirm" autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block data-testid="setup-submit">
          {t('common.create')}
        </Button>
      </Form>
    </PublicCard>
  );
}
