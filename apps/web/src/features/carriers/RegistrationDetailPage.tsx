import { api } from '@tandem/contract';
import { Button, Card, Descriptions, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { Spinner } from '../../components/Spinner';
import { useRegistrationDecision } from './RegistrationPage';
import './i18n';

/** /termination/registration/user_description/{id}: what the carrier entered, with approve and reject. */
export default function RegistrationDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const q = useApi(api.carriers.getRegistration, { params: { id } });
  const decide = useRegistrationDecision(() => q.refetch());
  if (q.isLoading || !q.data) return <Spinner />;
  const r = q.data;
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('carriers.registrationDetail')}</h1>}
      style={{ maxWidth: 860 }}
    >
      <Descriptions bordered column={1} size="small" data-testid="registration-detail">
        <Descriptions.Item label={t('carriers.name')}>{r.name}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.company')}>{r.company}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.clientType')}>
          {t(`carriers.types.${r.client_type}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('carriers.companyType')}>
          {t(`carriers.companyTypes.${r.company_type}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('carriers.mainEmail')}>{r.main_email}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.loginName')}>{r.login_name}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.firstName')}>{r.first_name}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.lastName')}>{r.last_name}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.userEmail')}>{r.user_email}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.agent')}>{r.agent_name ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('carriers.createdAt')}>
          {r.created_at.replace('T', ' ').slice(0, 19)}
        </Descriptions.Item>
        <Descriptions.Item label={t('carriers.status')}>
          <Tag data-testid="registration-status">{t(`carriers.statuses.${r.registration_status}`)}</Tag>
        </Descriptions.Item>
      </Descriptions>
      <Space style={{ marginTop: 16 }}>
        {r.registration_status === 'pending' && (
          <>
            <Button type="primary" onClick={() => void decide(r, true)} data-testid="approve">
              {t('carriers.approve')}
            </Button>
            <Button danger onClick={() => void decide(r, false)} data-testid="reject">
              {t('carriers.reject')}
            </Button>
          </>
        )}
        <Button onClick={() => navigate('/termination/registration')}>{t('common.back')}</Button>
      </Space>
    </Card>
  );
}
