import { PROGRAM_NAME, VERSION } from '@tandem/contract';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSignedIn } from '../../app/session';

export default function LicensePage() {
  const { t } = useTranslation();
  const { system } = useSignedIn();
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('system.licenseTitle')}</h1>}>
      <p data-testid="license-text">
        {t('system.licenseText', { name: PROGRAM_NAME, version: VERSION, company: system.operating_company })}
      </p>
    </Card>
  );
}
