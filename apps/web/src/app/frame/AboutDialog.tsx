import { api } from '@tandem/contract';
import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';

/** Program name, version, build date and start time (GET /log/versions). */
export function AboutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const v = useApi(api.config.getVersions, {}, { enabled: open, callOptions: { errorMode: 'inline' } });
  const row = v.data?.items[0];
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={t('frame.aboutTitle', { name: row?.program_name ?? t('frame.programName') })}
    >
      {row && (
        <Descriptions column={1} bordered size="small" data-testid="about">
          <Descriptions.Item label={t('frame.programName')}>{row.program_name}</Descriptions.Item>
          <Descriptions.Item label={t('frame.version', { version: '' }).trim()}>
            {row.major_ver}
          </Descriptions.Item>
          <Descriptions.Item label={t('frame.buildDate')}>
            {row.build_date.replace('T', ' ').slice(0, 19)}
          </Descriptions.Item>
          <Descriptions.Item label={t('frame.startTime')}>
            {row.start_time.replace('T', ' ').slice(0, 19)}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
