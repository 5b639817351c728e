import { api } from '@tandem/contract';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { call } from '../../api/client';
import { PublicCard } from './PublicCard';

/** Asks for a reset link by e-mail. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const submit = async (v: { email_or_name: string }) => {
    await call(
      api.auth.requestPasswordReset,
      { body: { email_or_name: v.email_or_name } },
      { errorMode: 'inline' },
    );
    setSent(true);
  };
  return (
    <PublicCard title={t('auth.resetTitle')}>
      {sent ? (
        <Alert type="success" showIcon message={t('auth.linkSent')} data-testid="reset-sent" />
      ) : (
        <>
          <p style={{ color: '#555' }}>{t('auth.resetHelp')}</p>
          <Form layout="vertical" onFinish={(v: { email_or_name: string }) => void submit(v)}>
            <Form.Item
              name="email_or_name"
              label={t('auth.nameOrEmail')}
              rules={[{ required: true, message: t('common.required', { field: t('auth.nameOrEmail') }) }]}
            >
              <Input autoFocus data-testid="reset-name" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block data-testid="reset-submit">
              {t('auth.sendLink')}
            </Button>
          </Form>
        </>
      )}
      <div style={{ marginTop: 12 }}>
        <Link to="/auth/login">{t('auth.backToLogin')}</Link>
      </div>
    </PublicCard>
  );
}
