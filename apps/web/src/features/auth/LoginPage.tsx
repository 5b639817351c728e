import { api, ErrorCode } from '@tandem/contract';
import { Alert, Button, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useSession } from '../../app/session';
import { PublicCard } from './PublicCard';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The account has two-factor sign-in on: the password was right, the code is asked for. */
  const [needCode, setNeedCode] = useState(false);
  const branding = useApi(
    api.config.getLoginBranding,
    {},
    { callOptions: { errorMode: 'inline', quiet: true } },
  );
  const hasUser = useApi(
    api.user.hasUser,
    {},
    { callOptions: { errorMode: 'inline', quiet: true }, staleTime: 0 },
  );

  useEffect(() => {
    if (hasUser.data) {
      session.setHasUser(hasUser.data.has_user);
      if (!hasUser.data.has_user) navigate('/setup', { replace: true });
    }
  }, [hasUser.data, navigate, session]);

  const submit = async (v: { email_or_name: string; password: string; code?: string }) => {
    setBusy(true);
    setError(null);
    const body = { ...v, code: needCode && v.code?.trim() ? v.code.trim() : undefined };
    try {
      const { token } = await call(api.auth.signIn, { body }, { errorMode: 'inline', quiet: true });
      session.clearNotice();
      await session.signIn(token);
      navigate('/', { replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.twoFactor) {
        setNeedCode(true);
        return;
      }
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicCard title={branding.data?.title || t('auth.signInTitle', { name: t('frame.programName') })}>
      {session.notice && (
        <Alert
          type="warning"
          showIcon
          message={session.notice}
          style={{ marginBottom: 12 }}
          data-testid="login-notice"
        />
      )}
      {error && (
        <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="login-error" />
      )}
      <Form
        layout="vertical"
        onFinish={(v: { email_or_name: string; password: string; code?: string }) => void submit(v)}
        requiredMark={false}
      >
        <Form.Item
          name="email_or_name"
          label={t('auth.nameOrEmail')}
          rules={[{ required: true, message: t('common.required', { field: t('auth.nameOrEmail') }) }]}
        >
          <Input autoFocus autoComplete="username" data-testid="login-name" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.password')}
          rules={[{ required: true, message: t('common.required', { field: t('auth.password') }) }]}
        >
          <Input.Password autoComplete="current-password" data-testid="login-password" />
        </Form.Item>
        {needCode && (
          <Form.Item
            name="code"
            label={t('auth.twoFactorCode')}
            extra={t('auth.twoFactorCodeHelp')}
            rules={[{ required: true, message: t('common.required', { field: t('auth.twoFactorCode') }) }]}
          >
            <Input autoFocus autoComplete="one-time-code" maxLength={32} data-testid="login-code" />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
          {t('auth.signIn')}
        </Button>
      </Form>
      <div className="public-links">
        <Link to="/auth/reset_password">{t('auth.forgotPassword')}</Link>
        {branding.data?.user_registration_enabled && (
          <span>
            {t('auth.noAccount')} <Link to="/auth/registration">{t('auth.register')}</Link>
          </span>
        )}
      </div>
    </PublicCard>
  );
}
