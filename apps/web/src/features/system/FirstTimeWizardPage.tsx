import { api } from '@tandem/contract';
import { Button, Card, Form, Input, InputNumber, Select, Space, Steps, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useSession } from '../../app/session';
import { BrandingImages } from './BrandingImages';

const OFFSETS = api.carriers.TIME_ZONES.map((z) => ({ value: z, label: api.carriers.timeZoneLabel(z) }));

/** First steps of a new installation: a few system settings (the rest on Configuration > System Setting), login page branding, users and roles. */
export default function FirstTimeWizardPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const { reload } = useSession();
  const [step, setStep] = useState(0);
  const system = useApi(api.config.getSystemConfig, {}, { staleTime: 0 });
  const branding = useApi(api.config.getLoginBranding, {}, { staleTime: 0 });

  const saveSystem = async (v: {
    timezone: string;
    inactivity_timeout: number;
    operating_company: string;
    user_registration_enabled: boolean;
  }) => {
    await call(api.config.patchSystemConfig, { body: v }, { errorMode: 'inline' });
    flash(t('common.modifiedSuccessfully'));
    await reload();
    setStep(1);
  };
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('system.wizardTitle')}</h1>}
      style={{ maxWidth: 760 }}
    >
      <Steps
        current={step}
        onChange={setStep}
        items={[
          { title: t('system.wizardSystem') },
          { title: t('system.wizardBranding') },
          { title: t('system.wizardUsers') },
        ]}
        style={{ marginBottom: 24 }}
      />
      {step === 0 && system.data && (
        <Form
          layout="vertical"
          initialValues={system.data}
          onFinish={(v: Parameters<typeof saveSystem>[0]) => void saveSystem(v)}
        >
          <Form.Item name="operating_company" label={t('system.company')}>
            <Input data-testid="wizard-company" />
          </Form.Item>
          <Form.Item name="timezone" label={t('system.timezone')}>
            <Select options={OFFSETS} data-testid="wizard-timezone" />
          </Form.Item>
          <Form.Item name="inactivity_timeout" label={t('system.inactivity')}>
            <InputNumber min={1} max={1440} data-testid="wizard-inactivity" />
          </Form.Item>
          <Form.Item
            name="user_registration_enabled"
            label={t('system.registration')}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="wizard-save-system">
            {t('common.save')}
          </Button>
        </Form>
      )}
      {step === 1 && (
        <Space direction="vertical" size="large">
          <BrandingImages branding={branding.data} onChanged={() => branding.refetch()} testPrefix="wizard" />
          <Button type="primary" onClick={() => setStep(2)}>
            {t('common.next')}
          </Button>
        </Space>
      )}
      {step === 2 && (
        <Space>
          <Link to="/configuration/roles/new">
            <Button>{t('roles.newRole')}</Button>
          </Link>
          <Link to="/configuration/user_management/system/new">
            <Button type="primary">{t('users.newUser')}</Button>
          </Link>
          <Link to="/">
            <Button>{t('system.done')}</Button>
          </Link>
        </Space>
      )}
    </Card>
  );
}
