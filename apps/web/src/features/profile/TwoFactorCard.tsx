import { api } from '@tandem/contract';
import { Alert, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { useFeedback } from '../../app/feedback';

/**
 * Two-factor sign-in on My Profile (issue 18): set up (the secret and its otpauth:// link to copy into
 * an authenticator app; no QR library is installed), confirm with a code, the recovery codes shown
 * once, turn off with the current password, unless the user's role requires it (`requiredByRole`).
 * The setup page a role requires uses it too, continuing once the recovery codes are put away
 * (`onRecoveryDone`).
 */
export function TwoFactorCard({
  enabled,
  onChange,
  requiredByRole = false,
  onRecoveryDone,
}: {
  enabled: boolean;
  onChange: () => Promise<unknown>;
  requiredByRole?: boolean;
  onRecoveryDone?: () => void;
}) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    run(async () => {
      setSetup(await call(api.auth.twoFactorSetup, {}, { errorMode: 'inline', quiet: true }));
    });
  const confirm = (v: { code: string }) =>
    run(async () => {
      const r = await call(
        api.auth.twoFactorEnable,
        { body: { code: v.code } },
        { errorMode: 'inline', quiet: true },
      );
      setSetup(null);
      setRecovery(r.recovery_codes);
      flash(t('profile.twoFactorEnabled'));
      await onChange();
    });
  const disable = (v: { password: string }) =>
    run(async () => {
      await call(
        api.auth.twoFactorDisable,
        { body: { password: v.password } },
        { errorMode: 'inline', quiet: true },
      );
      setDisabling(false);
      flash(t('profile.twoFactorDisabled'));
      await onChange();
    });

  return (
    <Card title={t('profile.twoFactor')} style={{ marginTop: 16 }} data-testid="two-factor-card">
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          style={{ marginBottom: 12 }}
          data-testid="two-factor-error"
        />
      )}
      {recovery && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('profile.twoFactorRecovery')}
          description={
            <>
              <pre data-testid="two-factor-recovery" style={{ margin: '8px 0' }}>
                {recovery.join('\n')}
              </pre>
              <Button
                size="small"
                onClick={() => {
                  setRecovery(null);
                  onRecoveryDone?.();
                }}
                data-testid="two-factor-recovery-done"
              >
                {t('profile.twoFactorRecoveryDone')}
              </Button>
            </>
          }
        />
      )}
      <Typography.Paragraph data-testid="two-factor-status">
        {enabled ? t('profile.twoFactorOn') : t('profile.twoFactorOff')}
      </Typography.Paragraph>
      {!enabled && !setup && (
        <Button type="primary" loading={busy} onClick={() => void start()} data-testid="two-factor-start">
          {t('profile.twoFactorStart')}
        </Button>
      )}
      {!enabled && setup && (
        <>
          <Typography.Paragraph>{t('profile.twoFactorScan')}</Typography.Paragraph>
          <Typography.Paragraph>
            {t('profile.twoFactorSecret')}:{' '}
            <Typography.Text code copyable data-testid="two-factor-secret">
              {setup.secret}
            </Typography.Text>
          </Typography.Paragraph>
          <Typography.Paragraph>
            {t('profile.twoFactorUri')}:{' '}
            <Typography.Text copyable style={{ wordBreak: 'break-all' }} data-testid="two-factor-uri">
              {setup.otpauth_url}
            </Typography.Text>
          </Typography.Paragraph>
          <Form layout="inline" onFinish={(v: { code: string }) => void confirm(v)} requiredMark={false}>
            <Form.Item
              name="code"
              label={t('profile.twoFactorCode')}
              rules={[
                { required: true, message: t('common.required', { field: t('profile.twoFactorCode') }) },
              ]}
            >
              <Input autoComplete="one-time-code" maxLength={32} data-testid="two-factor-code" />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={busy} data-testid="two-factor-confirm">
                {t('profile.twoFactorConfirm')}
              </Button>
              <Button onClick={() => setSetup(null)}>{t('common.cancel')}</Button>
            </Space>
          </Form>
        </>
      )}
      {enabled && requiredByRole && (
        <Typography.Paragraph type="secondary" data-testid="two-factor-required-by-role">
          {t('profile.twoFactorRequiredByRole')}
        </Typography.Paragraph>
      )}
      {enabled && !requiredByRole && !disabling && (
        <Button danger onClick={() => setDisabling(true)} data-testid="two-factor-disable">
          {t('profile.twoFactorDisable')}
        </Button>
      )}
      {enabled && disabling && (
        <Form layout="inline" onFinish={(v: { password: string }) => void disable(v)} requiredMark={false}>
          <Form.Item
            name="password"
            label={t('profile.twoFactorDisablePassword')}
            rules={[
              {
                required: true,
                message: t('common.required', { field: t('profile.twoFactorDisablePassword') }),
              },
            ]}
          >
            <Input.Password autoComplete="current-password" data-testid="two-factor-password" />
          </Form.Item>
          <Space>
            <Button danger htmlType="submit" loading={busy} data-testid="two-factor-disable-confirm">
              {t('profile.twoFactorDisable')}
            </Button>
            <Button onClick={() => setDisabling(false)}>{t('common.cancel')}</Button>
          </Space>
        </Form>
      )}
    </Card>
  );
}
