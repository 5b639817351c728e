import { DownloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Descriptions, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { urlOf } from '../../api/client';
import { useApi } from '../../api/queries';
import { Spinner } from '../../components/Spinner';
import { PublicCard } from '../auth/PublicCard';
import '../rate-delivery/i18n';
import { formatBytes } from '../../lib/money';

const when = (s: string) => `${s.replace('T', ' ').slice(0, 16)} UTC`;

/**
 * /download/rate/{token} (public): the rate deck a carrier was sent a link to. Shows what the link
 * offers and downloads the file without signing in; an unknown or expired link says so.
 */
export default function RateDownloadPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? '';
  const info = useApi(
    api.rateDelivery.downloadInfo,
    { params: { token } },
    { retry: false, callOptions: { errorMode: 'inline', quiet: true } },
  );
  if (info.isLoading) return <Spinner />;
  if (info.isError || !info.data)
    return (
      <PublicCard title={t('rateDelivery.downloadTitle')}>
        <Result
          status="warning"
          title={t('rateDelivery.linkUnusable')}
          subTitle={<span data-testid="download-error">{info.error?.message ?? ''}</span>}
        />
      </PublicCard>
    );
  const d = info.data;
  return (
    <PublicCard title={t('rateDelivery.downloadFrom', { company: d.operating_company })} width={520}>
      <Descriptions column={1} size="small" bordered data-testid="download-info">
        <Descriptions.Item label={t('rateDelivery.rateTable')}>{d.rate_table_name}</Descriptions.Item>
        <Descriptions.Item label={t('rateDelivery.downloadFor')}>{d.carrier_name}</Descriptions.Item>
        <Descriptions.Item label={t('rateDelivery.file')}>{d.file_name}</Descriptions.Item>
        <Descriptions.Item label={t('rateDelivery.size')}>{formatBytes(d.size_bytes)}</Descriptions.Item>
        <Descriptions.Item label={t('rateDelivery.validUntil')}>
          {when(d.download_deadline)}
        </Descriptions.Item>
        {d.downloaded_at && (
          <Descriptions.Item label={t('rateDelivery.firstDownloaded')}>
            {when(d.downloaded_at)}
          </Descriptions.Item>
        )}
      </Descriptions>
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <Button
          type="primary"
          size="large"
          icon={<DownloadOutlined />}
          href={urlOf(api.rateDelivery.downloadFile, { params: { token } })}
          download={d.file_name}
          data-testid="download-rate-file"
        >
          {t('rateDelivery.downloadButton')}
        </Button>
      </div>
    </PublicCard>
  );
}
