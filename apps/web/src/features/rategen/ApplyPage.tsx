import { api } from '@tandem/contract';
import { Button, Card, Form, Input, InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';
import { serverMessage } from '../../i18n';
import './i18n';

const ALL = { page: 0, per_page: 9999, order_by: 'name', order_dir: 'asc' as const };
const LABELS: Record<string, string> = {
  rate_table_id: 'rategen.rateTable',
  effective_date: 'rategen.effectiveDate',
  interval: 'rategen.interval',
  min_time: 'rategen.minTime',
  code_deck_id: 'rategen.codeDeckApply',
  end_date_of_existing_codes: 'rategen.endExisting',
  email_template_id: 'rategen.emailTemplate',
  download_deadline: 'rategen.downloadDeadline',
};

/**
 * Tools > Rate Generation > apply_to_rate_table/{id}: a rate table of the generation's type, the
 * effective date, interval and min time (empty: the template's), the code deck for code names, and
 * the end date of the table's codes the generation lacks.
 */
export default function ApplyPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const run = useApi(api.rateGeneration.getHistory, { params: { id } });
  const type = run.data?.rate_table_type;
  const tables = useApi(
    api.rates.rateTable.list,
    { query: { ...ALL, rate_type: type } },
    { enabled: Boolean(type), callOptions: { errorMode: 'inline' } },
  );
  const decks = useApi(api.rates.codeDeck.list, { query: ALL }, { callOptions: { errorMode: 'inline' } });
  const mailTemplates = useApi(
    api.rateDelivery.rateEmailTemplate.list,
    { query: ALL },
    { callOptions: { errorMode: 'inline', quiet: true } },
  );
  const sending = Boolean(Form.useWatch('email_template_id', form));

  const save = async () => {
    const v = form.getFieldsValue(true) as Record<string, unknown>;
    const text = (k: string) =>
      typeof v[k] === 'string' && (v[k] as string).trim() ? (v[k] as string).trim() : null;
    const body = {
      rate_table_id: v.rate_table_id,
      effective_date: text('effective_date') ?? '',
      interval: v.interval ?? undefined,
      min_time: v.min_time ?? undefined,
      code_deck_id: v.code_deck_id || null,
      end_date_of_existing_codes: text('end_date_of_existing_codes'),
      email_template_id: v.email_template_id || null,
      download_deadline: v.email_template_id ? text('download_deadline') : null,
    };
    const parsed = api.rateGeneration.applyBody.safeParse(body);
    form.setFields(Object.keys(LABELS).map((name) => ({ name, errors: [] })));
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => {
          const name = String(i.path[0] ?? '');
          return { name, errors: [serverMessage(i.message, [t(LABELS[name] ?? name)])] };
        }),
      );
      return;
    }
    setBusy(true);
    try {
      const r = await call(
        api.rateGeneration.apply,
        { params: { id }, body: parsed.data },
        { errorMode: 'inline' },
      );
      flash(
        r.send_id === null
          ? t('rategen.applyDone', r)
          : `${t('rategen.applyDone', r)} · ${t('rategen.sentTo', { count: r.recipients })}`,
      );
      navigate(
        `/tools/rate_generation/view_rate_result/${parsed.data.rate_table_id}?rate_generation_id=${id}`,
      );
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors)
            .filter(([k]) => k in LABELS)
            .map(([name, m]) => ({ name, errors: [m] })),
        );
    } finally {
      setBusy(false);
    }
  };

  if (run.isLoading) return <Spinner />;
  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>
          {t('rategen.applyTitle')}: #{id} {run.data?.template_name}
        </h1>
      }
      style={{ maxWidth: 720 }}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ code_deck_id: 0, email_template_id: 0 }}
        onFinish={() => void save()}
        data-testid="form-apply"
      >
        <Form.Item name="rate_table_id" label={t('rategen.rateTable')} required>
          <Select
            showSearch
            optionFilterProp="label"
            data-testid="field-rate_table_id"
            options={(tables.data?.items ?? []).map((x) => ({ value: x.rate_table_id, label: x.name }))}
          />
        </Form.Item>
        <Form.Item name="effective_date" label={t('rategen.effectiveDate')} required>
          <Input placeholder="YYYY-MM-DD" data-testid="field-effective_date" />
        </Form.Item>
        <Space size={16}>
          <Form.Item name="interval" label={t('rategen.interval')}>
            <InputNumber data-testid="field-interval" />
          </Form.Item>
          <Form.Item name="min_time" label={t('rategen.minTime')}>
            <InputNumber data-testid="field-min_time" />
          </Form.Item>
        </Space>
        <Form.Item name="code_deck_id" label={t('rategen.codeDeckApply')}>
          <Select
            data-testid="field-code_deck_id"
            options={[
              { value: 0, label: t('rategen.tableDeck') },
              ...(decks.data?.items ?? []).map((d) => ({ value: d.code_deck_id, label: d.name })),
            ]}
          />
        </Form.Item>
        <Form.Item
          name="end_date_of_existing_codes"
          label={t('rategen.endExisting')}
          extra={t('rategen.endExistingHelp')}
        >
          <Input placeholder="YYYY-MM-DD" data-testid="field-end_date_of_existing_codes" />
        </Form.Item>
        <Form.Item
          name="email_template_id"
          label={t('rategen.emailTemplate')}
          extra={t('rategen.emailTemplateHelp')}
        >
          <Select
            data-testid="field-email_template_id"
            options={[
              { value: 0, label: t('rategen.noEmail') },
              ...(mailTemplates.data?.items ?? []).map((m) => ({ value: m.id, label: m.name })),
            ]}
          />
        </Form.Item>
        {sending && (
          <Form.Item
            name="download_deadline"
            label={t('rategen.downloadDeadline')}
            extra={t('rategen.downloadDeadlineHelp')}
          >
            <Input placeholder="YYYY-MM-DD HH:mm" data-testid="field-download_deadline" />
          </Form.Item>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="form-save">
            {t('rategen.apply')}
          </Button>
          <Button onClick={() => navigate(`/tools/rate_generation/history_detail/${id}`)}>
            {t('common.cancel')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
