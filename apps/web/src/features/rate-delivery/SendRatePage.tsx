import { api, MESSAGE_KEYS } from '@tandem/contract';
import { Alert, Button, Card, DatePicker, Form, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { Dropdown } from '../../components/Dropdown';
import { Spinner } from '../../components/Spinner';
import { serverMessage } from '../../i18n';
import './i18n';

const { sendRateBody, FILE_FORMATS } = api.rateDelivery;
type Send = api.rateDelivery.RateSendRow;
type TemplateRow = api.rateDelivery.RateEmailTemplateRow;

interface Values {
  template_id?: number | null;
  client_ids: number[];
  emails: string[];
  file_format?: 'csv' | 'xlsx';
  effective_from?: Dayjs | null;
  download_deadline?: Dayjs | null;
}
const FIELDS = ['template_id', 'client_ids', 'emails', 'file_format', 'effective_from', 'download_deadline'];

/** Follows a send until its background job has mailed everyone. */
function SendProgress({ id, tableId }: { id: number; tableId: number }) {
  const { t } = useTranslation();
  const send = useApi(
    api.rateDelivery.getRateSend,
    { params: { id } },
    { refetchInterval: (q) => (q.state.data?.status === 'running' ? 1000 : false) },
  );
  const s: Send | undefined = send.data ?? undefined;
  if (!s) return null;
  const type =
    s.status === 'running' ? 'info' : s.status === 'failed' || s.failed > 0 ? 'warning' : 'success';
  const text =
    s.status === 'running'
      ? t('rateDelivery.sending', { count: s.total })
      : s.status === 'failed'
        ? t('rateDelivery.sendFailed', { message: s.message })
        : t('rateDelivery.sendDone', { ok: s.succeeded, failed: s.failed });
  return (
    <Alert
      type={type}
      showIcon
      data-testid="send-status"
      data-status={s.status}
      title={text}
      action={
        <Link
          to={`/routing/rate_table/send_rate_log?rate_table_id=${tableId}&send_id=${id}`}
          data-testid="send-log-link"
        >
          {t('rateDelivery.sendLog')}
        </Link>
      }
    />
  );
}

/**
 * /template/send_rate/{type}/{name}/{rate_type}/{id}: send a rate table with a rate e-mail template to
 * carriers (those whose trunks use it are preselected) or other addresses, as a background job.
 */
export default function SendRatePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const [form] = Form.useForm<Values>();
  const table = useApi(api.rates.rateTable.get, { params: { id } });
  const candidates = useApi(api.rateDelivery.listSendCandidates, { params: { id } });
  const templates = useApi(
    api.rateDelivery.rateEmailTemplate.list,
    { query: { per_page: 2 } },
    { callOptions: { errorMode: 'inline', quiet: true } },
  );
  const [busy, setBusy] = useState(false);
  const [sendId, setSendId] = useState<number | null>(null);

  useEffect(() => {
    if (!candidates.data) return;
    form.setFieldValue(
      'client_ids',
      candidates.data.items.filter((c) => c.uses_rate_table && c.email).map((c) => c.client_id),
    );
  }, [candidates.data, form]);

  // With a single rate e-mail template there is nothing to choose: take it (and its file format).
  useEffect(() => {
    const only = templates.data?.total === 1 ? templates.data.items[0] : undefined;
    if (only && !form.getFieldValue('template_id'))
      form.setFieldsValue({ template_id: only.id, file_format: only.file_format });
  }, [templates.data, form]);

  const options = useMemo(
    () =>
      (candidates.data?.items ?? []).map((c) => ({
        value: c.client_id,
        disabled: !c.email,
        label: `${c.name} <${c.email || t('rateDelivery.noEmail')}>${c.uses_rate_table ? ` · ${t('rateDelivery.usesTable')}` : ''}`,
      })),
    [candidates.data, t],
  );

  const submit = async () => {
    const v = form.getFieldsValue(true) as Values;
    const body = {
      template_id: v.template_id ?? undefined,
      client_ids: v.client_ids ?? [],
      emails: v.emails ?? [],
      file_format: v.file_format,
      effective_from: v.effective_from ? v.effective_from.startOf('day').format('YYYY-MM-DD') : null,
      download_deadline: v.download_deadline ? v.download_deadline.toISOString() : undefined,
    };
    const parsed = sendRateBody.safeParse(body);
    form.setFields(FIELDS.map((name) => ({ name: name as keyof Values, errors: [] })));
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => {
          const name = String(i.path[0] ?? 'template_id') as keyof Values;
          const key = (MESSAGE_KEYS as string[]).includes(i.message)
            ? i.message
            : body[name] === undefined || body[name] === null
              ? 'required'
              : 'invalidValue';
          return { name, errors: [serverMessage(key, [t(`rateDelivery.${labelKey(name)}`)])] };
        }),
      );
      return;
    }
    setBusy(true);
    try {
      const r = await call(
        api.rateDelivery.sendRate,
        { params: { id }, body: parsed.data },
        { errorMode: 'inline' },
      );
      setSendId(r.send_id);
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors)
            .map(([k, msg]) => ({ name: k.split('.')[0] as keyof Values, errors: [msg] }))
            .filter((f) => FIELDS.includes(f.name)),
        );
    } finally {
      setBusy(false);
    }
  };

  if (table.isLoading || candidates.isLoading) return <Spinner />;
  const name = table.data?.name ?? '';
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('rateDelivery.sendRateOf', { name })}</h1>}
      extra={
        <Link to={`/routing/rate_table/send_rate_log?rate_table_id=${id}`} data-testid="open-send-log">
          {t('rateDelivery.sendLog')}
        </Link>
      }
      style={{ maxWidth: 860 }}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          client_ids: [],
          emails: [],
          download_deadline: dayjs().add(7, 'day').startOf('hour'),
        }}
        onFinish={() => void submit()}
        data-testid="form-send-rate"
      >
        <Form.Item name="template_id" label={t('rateDelivery.template')} required>
          <Dropdown
            endpoint={api.rateDelivery.rateEmailTemplate.list}
            valueField="id"
            labelField="name"
            testId="field-template_id"
            onChange={(_v, item) => {
              if (item) form.setFieldValue('file_format', (item as TemplateRow).file_format);
            }}
          />
        </Form.Item>
        <Form.Item
          name="client_ids"
          label={t('rateDelivery.carriers')}
          extra={t('rateDelivery.carriersHint')}
        >
          <Select
            mode="multiple"
            allowClear
            showSearch
            optionFilterProp="label"
            options={options}
            data-testid="field-client_ids"
          />
        </Form.Item>
        <Form.Item name="emails" label={t('rateDelivery.emails')}>
          <Select
            mode="tags"
            open={false}
            tokenSeparators={[',', ' ', ';']}
            placeholder={t('rateDelivery.emailsPlaceholder')}
            data-testid="field-emails"
          />
        </Form.Item>
        <Space wrap size="large" align="start">
          <Form.Item name="file_format" label={t('rateDelivery.fileFormat')}>
            <Select
              style={{ width: 140 }}
              options={FILE_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))}
              placeholder={t('rateDelivery.templateFormat')}
              data-testid="field-file_format"
            />
          </Form.Item>
          <Form.Item
            name="effective_from"
            label={t('rateDelivery.effectiveFrom')}
            extra={t('rateDelivery.effectiveFromHint')}
          >
            <DatePicker data-testid="field-effective_from" />
          </Form.Item>
          <Form.Item name="download_deadline" label={t('rateDelivery.deadline')} required>
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              data-testid="field-download_deadline"
            />
          </Form.Item>
        </Space>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="send-rate">
            {t('rateDelivery.send')}
          </Button>
          {sendId !== null && <SendProgress id={sendId} tableId={id} />}
          <Typography.Text type="secondary">{t('rateDelivery.sendRateHint')}</Typography.Text>
        </Space>
      </Form>
    </Card>
  );
}

function labelKey(field: keyof Values): string {
  switch (field) {
    case 'template_id':
      return 'template';
    case 'client_ids':
      return 'carriers';
    case 'emails':
      return 'emails';
    case 'file_format':
      return 'fileFormat';
    case 'effective_from':
      return 'effectiveFrom';
    case 'download_deadline':
      return 'deadline';
  }
}
