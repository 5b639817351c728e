import { CloudDownloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import './i18n';

/**
 * Starts a background export of a registered kind (services.exports) with the page's filter and
 * opens the export log, where the file's progress shows and its owner downloads it. `format` xlsx
 * writes an Excel file (label "Export XLSX"); the default is CSV.
 */
export function BackgroundExportButton({
  kind,
  filter,
  format,
}: {
  kind: string;
  filter: Record<string, unknown>;
  format?: 'csv' | 'xlsx';
}) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      await call(
        api.jobs.startExport,
        { body: { kind, filter, format: format ?? 'csv' } },
        { errorMode: 'inline' },
      );
      flash(t('jobs.exportStarted'));
      navigate('/log/export_log?mine=true');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon={<CloudDownloadOutlined />}
      loading={busy}
      onClick={() => void start()}
      data-testid={format === 'xlsx' ? 'export-background-xlsx' : 'export-background'}
    >
      {format === 'xlsx' ? t('jobs.exportXlsx') : t('jobs.exportBackground')}
    </Button>
  );
}
