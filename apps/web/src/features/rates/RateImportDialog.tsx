import { api } from '@tandem/contract';
import { Alert, Button, Checkbox, Form, Input, Modal, Progress, Select, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { Dropdown } from '../../components/Dropdown';
import { UploadWidget } from '../../components/UploadWidget';
import { formatNumberText } from '../../lib/money';
import './i18n';

interface Options {
  template_id: number;
  duplicate_mode: string;
  default_effective_date: string;
  effective_date_format: string;
  end_previous: boolean;
  end_absent: boolean;
  delete_existing: boolean;
  has_code_deck: boolean;
}
/** The rate file columns, then names for columns to leave out (the server ignores headers it does not know). */
const EXPECTED_HEADERS = [...api.rates.RATE_FILE_COLUMNS, 'ignore', 'ignore_2', 'ignore_3', 'ignore_4'];
const INITIAL: Options = {
  template_id: 0,
  duplicate_mode: 'reject',
  default_effective_date: '',
  effective_date_format: 'YYYY-MM-DD',
  end_previous: true,
  end_absent: false,
  delete_existing: false,
  has_code_deck: true,
};

/** The multipart fields of the import: the template's options unless chosen here ('Use no template' = 0). */
function fieldsOf(o: Options): Record<string, string> {
  const f: Record<string, string> = { template_id: String(o.template_id) };
  if (o.template_id === 0) {
    Object.assign(f, {
      duplicate_mode: o.duplicate_mode,
      effective_date_format: o.effective_date_format,
      end_previous: String(o.end_previous),
      end_absent: String(o.end_absent),
      delete_existing: String(o.delete_existing),
      has_code_deck: String(o.has_code_deck),
    });
  } else f.duplicate_mode = o.duplicate_mode;
  if (o.default_effective_date?.trim()) f.default_effective_date = o.default_effective_date.trim();
  return f;
}

/**
 * Rate import of a rate table (or through an auto rate import rule): the options, the file (CSV
 * columns mapped to the rate file columns in the upload widget, or XLSX), then the background job's
 * progress and outcome with the rows in error.
 */
export function RateImportDialog({
  open,
  onClose,
  title,
  url,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  url: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Options>();
  const values: Options = { ...INITIAL, ...(Form.useWatch([], form) as Partial<Options> | undefined) };
  const [taskId, setTaskId] = useState<number | null>(null);
  const task = useApi(
    api.rates.getImportTask,
    { params: { id: taskId ?? 0 } },
    {
      enabled: taskId !== null,
      refetchInterval: (q) => (q.state.data?.status === api.rates.IMPORT_STATUS.running ? 1000 : false),
      callOptions: { errorMode: 'inline' },
    },
  );
  const done = task.data && task.data.status !== api.rates.IMPORT_STATUS.running;
  const errors = useApi(
    api.rates.listImportErrors,
    { params: { id: taskId ?? 0 }, query: { per_page: 100 } },
    { enabled: Boolean(done && task.data?.error_rows), callOptions: { errorMode: 'inline', quiet: true } },
  );
  useEffect(() => {
    if (done) onDone();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done]);
  const reset = () => {
    setTaskId(null);
    form.setFieldsValue(INITIAL);
  };
  const noTemplate = values.template_id === 0 || values.template_id === undefined;

  return (
    <Modal
      open={open}
      title={title}
      width={760}
      footer={null}
      onCancel={() => {
        onClose();
        reset();
      }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        disabled={taskId !== null}
        data-testid="import-form"
      >
        <Form.Item name="template_id" label={t('rates.template')}>
          <Dropdown
            endpoint={api.rates.uploadTemplate.list}
            valueField="id"
            labelField="name"
            useNoTemplate
            testId="import-template"
          />
        </Form.Item>
        <Form.Item name="duplicate_mode" label={t('rates.duplicateMode')}>
          <Select
            data-testid="import-duplicate-mode"
            options={api.rates.DUPLICATE_MODES.map((m) => ({
              value: m,
              label: t(`rates.duplicateModes.${m}`),
            }))}
          />
        </Form.Item>
        <Space wrap style={{ width: '100%' }} size="large">
          <Form.Item
            name="default_effective_date"
            label={t('rates.defaultEffectiveDate')}
            extra={t('rates.defaultEffectiveHelp')}
          >
            <Input
              placeholder="YYYY-MM-DD HH:mm"
              data-testid="import-default-effective"
              style={{ width: 220 }}
            />
          </Form.Item>
          {noTemplate && (
            <Form.Item name="effective_date_format" label={t('rates.dateFormat')}>
              <Select<api.rates.DateFormat>
                data-testid="import-date-format"
                style={{ width: 180 }}
                options={api.rates.DATE_FORMATS.map((f) => ({ value: f, label: f }))}
              />
            </Form.Item>
          )}
        </Space>
        {noTemplate ? (
          <>
            <Form.Item name="end_previous" valuePropName="checked" style={{ marginBottom: 4 }}>
              <Checkbox data-testid="import-end-previous">{t('rates.endPrevious')}</Checkbox>
            </Form.Item>
            <Form.Item name="end_absent" valuePropName="checked" style={{ marginBottom: 4 }}>
              <Checkbox data-testid="import-end-absent">{t('rates.endAbsent')}</Checkbox>
            </Form.Item>
            <Form.Item name="delete_existing" valuePropName="checked" style={{ marginBottom: 4 }}>
              <Checkbox data-testid="import-delete-existing">{t('rates.deleteExisting')}</Checkbox>
            </Form.Item>
            <Form.Item name="has_code_deck" valuePropName="checked">
              <Checkbox data-testid="import-has-code-deck">{t('rates.hasCodeDeck')}</Checkbox>
            </Form.Item>
          </>
        ) : (
          <Alert type="info" showIcon title={t('rates.fromTemplate')} style={{ marginBottom: 12 }} />
        )}
      </Form>
      {taskId === null ? (
        <>
          <p style={{ color: '#888' }}>{t('rates.fileHint')}</p>
          <UploadWidget
            url={url}
            accept={['csv', 'xlsx']}
            maxFiles={1}
            fields={fieldsOf(values)}
            expectedHeaders={EXPECTED_HEADERS}
            showStartButton
            testId="rate-upload"
            onSuccess={(_f, r) => setTaskId(r.object_id)}
          />
        </>
      ) : (
        <>
          <ImportOutcome
            task={task.data}
            errors={errors.data?.items ?? []}
            errorTotal={errors.data?.total ?? 0}
          />
          {done && (
            <Button onClick={reset} data-testid="import-again">
              {t('rates.importAgain')}
            </Button>
          )}
        </>
      )}
    </Modal>
  );
}

function ImportOutcome({
  task,
  errors,
  errorTotal,
}: {
  task: api.rates.RateImportTask | undefined;
  errors: { id: number; line: number; code: string; field: string; message: string }[];
  errorTotal: number;
}) {
  const { t } = useTranslation();
  if (!task) return <Progress percent={0} />;
  const running = task.status === api.rates.IMPORT_STATUS.running;
  const failed = task.status === api.rates.IMPORT_STATUS.failed;
  return (
    <div data-testid="import-outcome" data-status={task.status}>
      <Progress
        percent={task.progress}
        status={running ? 'active' : failed ? 'exception' : 'success'}
        data-testid="import-progress"
      />
      {running ? (
        <>
          <p>{t('rates.importRunning', { progress: task.progress })}</p>
          {task.live && <p data-testid="import-live">{liveText(task.live, t)}</p>}
        </>
      ) : (
        <Alert
          type={failed ? 'error' : task.error_rows ? 'warning' : 'success'}
          showIcon
          data-testid="import-result"
          title={
            failed
              ? t('rates.importFailed', { message: task.message })
              : t('rates.importFinished', {
                  inserted: task.inserted_rows,
                  updated: task.updated_rows,
                  skipped: task.skipped_rows,
                  ended: task.ended_rows,
                  errors: task.error_rows,
                })
          }
        />
      )}
      {errors.length > 0 && (
        <>
          <h3 style={{ marginTop: 16 }}>
            {t('rates.rowErrors')} ({errorTotal})
          </h3>
          <Table
            size="small"
            rowKey="id"
            dataSource={errors}
            pagination={{ pageSize: 10 }}
            data-testid="import-errors"
            onRow={(r) => ({ 'data-testid': `import-error-${r.line}` }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              { key: 'line', title: t('rates.line'), dataIndex: 'line', width: 70 },
              { key: 'code', title: t('rates.code'), dataIndex: 'code', width: 110 },
              { key: 'field', title: t('rates.field'), dataIndex: 'field', width: 120 },
              { key: 'message', title: t('rates.message'), dataIndex: 'message' },
            ]}
          />
        </>
      )}
      {!running && (
        <p style={{ marginTop: 12 }}>
          <Link to={`/log/rate_import_log?task=${task.id}`} data-testid="open-import-log">
            {t('rates.openLog')}
          </Link>
        </p>
      )}
    </div>
  );
}

/** Where a running import is, in rows (read and staged, then written). */
function liveText(live: NonNullable<api.rates.RateImportTask['live']>, t: TFunction) {
  const n = (x: number) => formatNumberText(x);
  switch (live.phase) {
    case 'reading':
      return t('rates.importReading', { parsed: n(live.rows_parsed), staged: n(live.rows_staged) });
    case 'applying':
      return t('rates.importApplying', { applied: n(live.rows_applied), total: n(live.rows_to_apply) });
    case 'finishing':
      return t('rates.importFinishing', { total: n(live.rows_to_apply) });
  }
}
