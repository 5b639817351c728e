import { UploadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useApi } from '../../api/queries';
import { UploadWidget } from '../../components/UploadWidget';
import { JobProgress } from '../jobs/JobProgress';
import { CdrUploadStatusTag } from './CdrUploadLogPage';
import './i18n';

const ENDED = new Set(['refused', 'finished', 'failed', 'killed']);

/**
 * The CDR screen's "Upload CDR" button and dialog (docs/cdr.md "Upload on the CDR screen"): a CSV
 * or JSON Lines file of switch CDRs, checked whole by the server (a malformed row refuses it,
 * naming row and field), then ingested by a job whose progress and totals the dialog follows.
 */
export function CdrUploadButton() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [uploadId, setUploadId] = useState<number | null>(null);
  const [refused, setRefused] = useState<{ message: string; rows: string[] } | null>(null);
  const upload = useApi(
    api.cdrUpload.getUpload,
    { params: { id: uploadId ?? 0 } },
    {
      enabled: uploadId !== null,
      refetchInterval: (q) => (q.state.data && ENDED.has(q.state.data.status) ? false : 1000),
    },
  );
  const u = uploadId === null ? undefined : upload.data;
  const close = () => {
    setOpen(false);
    setUploadId(null);
    setRefused(null);
    if (u?.status === 'finished') void qc.invalidateQueries();
  };
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="cdr-upload-open">
        {t('cdr.upload.button')}
      </Button>
      <Modal
        open={open}
        title={t('cdr.upload.title')}
        footer={[
          <Link key="log" to="/log/cdr_upload_log" onClick={close} data-testid="cdr-upload-log-link">
            {t('cdr.upload.log')}
          </Link>,
          <Button key="close" onClick={close} style={{ marginLeft: 16 }} data-testid="cdr-upload-close">
            {t('cdr.upload.close')}
          </Button>,
        ]}
        onCancel={close}
        width={640}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('cdr.upload.help')}</Typography.Paragraph>
          {uploadId === null && (
            <UploadWidget
              url={api.cdrUpload.uploadCdrs.path}
              accept={api.cdrUpload.CDR_UPLOAD_EXTENSIONS}
              maxFiles={1}
              showStartButton
              thumbnails={false}
              testId="cdr-upload"
              onAdded={() => setRefused(null)}
              onSuccess={(_f, r) => setUploadId(r.object_id)}
              onError={(_f, message, err) =>
                setRefused({
                  message,
                  rows: err instanceof ApiError && err.errors ? Object.values(err.errors) : [],
                })
              }
            />
          )}
          {refused && (
            <Alert
              type="error"
              showIcon
              message={refused.message}
              data-testid="cdr-upload-refused"
              description={
                refused.rows.length > 0 && (
                  <ul style={{ margin: 0, paddingLeft: 18 }}>
                    {refused.rows.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                )
              }
            />
          )}
          {u && (
            <Descriptions column={1} size="small" bordered data-testid="cdr-upload-status">
              <Descriptions.Item label={t('cdr.upload.file')}>{u.file_name}</Descriptions.Item>
              <Descriptions.Item label={t('cdr.upload.status')}>
                <CdrUploadStatusTag status={u.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('cdr.upload.progress')}>
                <JobProgress done={u.done} total={u.cdrs} status={u.status} />
              </Descriptions.Item>
              {u.stored !== null && (
                <Descriptions.Item label={t('cdr.upload.result')}>
                  <span data-testid="cdr-upload-result">
                    {t('cdr.upload.totals', {
                      stored: u.stored,
                      duplicates: u.duplicates ?? 0,
                      unpriced: u.unpriced ?? 0,
                    })}
                  </span>
                </Descriptions.Item>
              )}
              {u.problems.length > 0 && (
                <Descriptions.Item label={t('cdr.upload.problems')}>
                  <Typography.Text type="danger">{u.problems.join('; ')}</Typography.Text>
                </Descriptions.Item>
              )}
            </Descriptions>
          )}
        </Space>
      </Modal>
    </>
  );
}
