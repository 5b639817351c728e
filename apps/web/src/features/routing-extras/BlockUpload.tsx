import { UploadOutlined } from '@ant-design/icons';
import type { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useFeedback } from '../../app/feedback';
import { UploadWidget } from '../../components/UploadWidget';
import './i18n';

type Result = z.output<typeof api.routingExtras.blockUploadResult>;

/** The Upload button of a block list and its dialog: duplicate handling, then a CSV or XLSX file. */
export function BlockUpload({
  url,
  list,
  expectedHeaders,
  help,
  testId,
  defaultOpen = false,
}: {
  url: string;
  /** The list endpoint to refresh after an upload. */
  list: { method: string; path: string };
  expectedHeaders: string[];
  help: string;
  testId: string;
  /** Open the dialog at once (a page's own upload address). */
  defaultOpen?: boolean;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { flash } = useFeedback();
  const [open, setOpen] = useState(defaultOpen);
  const [onDuplicate, setOnDuplicate] = useState<'refuse' | 'skip'>('refuse');
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid={`${testId}-open`}>
        {t('routingx.upload')}
      </Button>
      <Modal
        open={open}
        title={t('routingx.uploadTitle')}
        footer={null}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t(help)}</Typography.Text>
          <Space>
            <span>{t('routingx.onDuplicate')}</span>
            <Select
              value={onDuplicate}
              onChange={setOnDuplicate}
              style={{ width: 200 }}
              data-testid={`${testId}-duplicates`}
              options={(['refuse', 'skip'] as const).map((d) => ({
                value: d,
                label: t(`routingx.duplicates.${d}`),
              }))}
            />
          </Space>
          <UploadWidget
            url={url}
            accept={['csv', 'xlsx']}
            maxFiles={1}
            fields={{ on_duplicate: onDuplicate }}
            expectedHeaders={expectedHeaders}
            showStartButton
            testId={testId}
            onSuccess={(_f, r) => {
              const c = r as unknown as Result;
              flash(t('routingx.uploaded', { inserted: c.inserted_rows, skipped: c.skipped_rows }));
              setOpen(false);
              void qc.invalidateQueries({ queryKey: [list.method, list.path] });
            }}
          />
        </Space>
      </Modal>
    </>
  );
}
