import { api } from '@tandem/contract';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { PublicCard } from './PublicCard';
import { passwordRules } from './rules';

/** Sets a new password with the token from the reset e-mail. */
export default function ResetPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (v: { password: string }) => {
    setError(null);
    try {
      await call(
        api.auth.resetPassword,
        { params: { token }, body: { password: v.password } },
        { errorMode: 'inline', quiet: true },
      );
      setDone(true);
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
    }
  };
  return (
    <PublicCard title={t('auth.resetTitle')}>
      {error && (
        <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="reset-error" />
      )}
      {done ? (
        <Alert type="success" showIcon message={t('auth.passwordChanged')} data-testid="reset-done" />
      ) : (
        <Form layout="vertical" onFinish={(v: { password: string }) => void submit(v)}>
          <Form.Item name="password" label={t('auth.newPassword')} rules={passwordRules(t)}>
            <Input.Password data-testid="reset-password" autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('auth.confirmPassword')}
            dependencies={['password']}
            rules={[
              ...passwordRules(t),
              ({ getFieldValue }) => ({
                validator: (_, v) =>
                  v === getFieldValue('password')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('auth.passwordsDoNotMatch'))),
              }),
            ]}
          >
            <Input.Password data-testid="reset-confirm" autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block data-testid="reset-save">
            {t('auth.setPassword')}
          </Button>
        </Form>
      )}
      <div style={{ marginTop: 12 }}>
        <Link to="/auth/login">{t('auth.backToLogin')}</Link>
      </div>
    </PublicCard>
  );
}
