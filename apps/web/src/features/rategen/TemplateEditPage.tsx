import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Space, type FormInstance } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';
import { serverMessage } from '../../i18n';
import { useTrunkOptions } from '../routing/shared';
import './i18n';

const LIST = '/tools/rate_generation';
const ALL = { page: 0, per_page: 9999, order_by: 'name', order_dir: 'asc' as const };

interface FormValues {
  name: string;
  rate_table_type: string;
  lcr_basis: string;
  average_count: number;
  default_rate: string;
  decimal_places: number;
  code_deck_id: number;
  egress_trunks: number[];
  margins: { rate_from: string; rate_to: string; markup_type: string; markup: string }[];
  interval: number;
  min_time: number;
}
const INITIAL: FormValues = {
  name: '',
  rate_table_type: 'a_z',
  lcr_basis: 'lcr1',
  average_count: 3,
  default_rate: '',
  decimal_places: 4,
  code_deck_id: 0,
  egress_trunks: [],
  margins: [],
  interval: 1,
  min_time: 1,
};

/** Form values -> the API body (empty texts are "none"; deck 0 is "no deck"). */
const toBody = (v: FormValues) => ({
  ...v,
  default_rate: v.default_rate?.trim() ? v.default_rate.trim() : null,
  code_deck_id: v.code_deck_id || null,
  margins: (v.margins ?? []).map((m) => ({ ...m, rate_to: m.rate_to?.trim() ? m.rate_to.trim() : null })),
});

/** Puts errors keyed 'margins.1.rate_from' or 'egress_trunks.0' on the form's (nested) fields. */
function markErrors(form: FormInstance, errors: Record<string, string>): void {
  const byName = new Map<string, { name: (string | number)[]; errors: string[] }>();
  for (const [path, message] of Object.entries(errors)) {
    const parts = path.split('.');
    const name =
      parts[0] === 'margins' && parts.length === 3 ? ['margins', Number(parts[1]), parts[2]!] : [parts[0]!];
    const key = name.join('.');
    byName.set(key, { name, errors: [...(byName.get(key)?.errors ?? []), message] });
  }
  form.setFields([...byName.values()]);
}

/** Tools > Rate Generation > New / Edit: the template, with its egress trunks and margin ranges. */
export default function TemplateEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const [loading, setLoading] = useState(Boolean(id));
  const [busy, setBusy] = useState(false);
  const trunks = useTrunkOptions('egress');
  const decks = useApi(api.rates.codeDeck.list, { query: ALL }, { callOptions: { errorMode: 'inline' } });
  const basis = Form.useWatch('lcr_basis', form) as string | undefined;

  useEffect(() => {
    if (!id) return;
    void call(api.rateGeneration.template.get, { params: { id: Number(id) } })
      .then((r) =>
        form.setFieldsValue({
          ...r,
          default_rate: r.default_rate ?? '',
          code_deck_id: r.code_deck_id ?? 0,
          margins: r.margins.map((m) => ({ ...m, rate_to: m.rate_to ?? '' })),
        }),
      )
      .finally(() => setLoading(false));
  }, [id, form]);

  const save = async () => {
    form.setFields(form.getFieldsError().map((f) => ({ name: f.name, errors: [] })));
    const body = toBody({ ...INITIAL, ...(form.getFieldsValue(true) as Partial<FormValues>) });
    const schema = id ? api.rateGeneration.template.updateBody : api.rateGeneration.template.create.body!;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const path = issue.path.map(String).join('.');
        const args = (issue as { params?: { args?: (string | number)[] } }).params?.args;
        errors[path] ??= serverMessage(issue.message, args ?? [t(`rategen.${labelKey(path)}`)]);
      }
      markErrors(form, errors);
      return;
    }
    setBusy(true);
    try {
      if (id)
        await call(
          api.rateGeneration.template.update,
          { params: { id: Number(id) }, body: parsed.data as never },
          { errorMode: 'inline' },
        );
      else
        await call(
          api.rateGeneration.template.create,
          { body: parsed.data as never },
          { errorMode: 'inline' },
        );
      flash(t(id ? 'common.modifiedSuccessfully' : 'common.createdSuccessfully'));
      navigate(LIST);
    } catch (e) {
      if (e instanceof ApiError && e.errors) markErrors(form, e.errors);
    } finally {
      setBusy(false);
    }
  };

  if (loading) return <Spinner />;
  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>{t(id ? 'rategen.editTemplate' : 'rategen.newTemplate')}</h1>
      }
      style={{ maxWidth: 960 }}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        onFinish={() => void save()}
        data-testid="form-rate-generation-template"
      >
        <Form.Item name="name" label={t('rategen.name')} required>
          <Input data-testid="field-name" />
        </Form.Item>
        <Space wrap size={16} align="start">
          <Form.Item name="rate_table_type" label={t('rategen.rateTableType')}>
            <Select
              style={{ width: 220 }}
              data-testid="field-rate_table_type"
              options={api.rates.RATE_TYPES.map((v) => ({ value: v, label: t(`rategen.rateTypes.${v}`) }))}
            />
          </Form.Item>
          <Form.Item name="lcr_basis" label={t('rategen.lcrBasis')}>
            <Select
              style={{ width: 240 }}
              data-testid="field-lcr_basis"
              options={api.rateGeneration.LCR_BASES.map((v) => ({
                value: v,
                label: t(`rategen.lcrBases.${v}`),
              }))}
            />
          </Form.Item>
          {basis === 'average' && (
            <Form.Item name="average_count" label={t('rategen.averageCount')}>
              <InputNumber min={1} max={10} data-testid="field-average_count" />
            </Form.Item>
          )}
          <Form.Item name="decimal_places" label={t('rategen.decimalPlaces')}>
            <InputNumber data-testid="field-decimal_places" />
          </Form.Item>
        </Space>
        <Form.Item name="egress_trunks" label={t('rategen.egressTrunks')} required>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            options={trunks.options}
            data-testid="field-egress_trunks"
          />
        </Form.Item>
        <Space wrap size={16} align="start">
          <Form.Item name="code_deck_id" label={t('rategen.codeDeck')}>
            <Select
              style={{ width: 300 }}
              data-testid="field-code_deck_id"
              options={[
                { value: 0, label: t('rategen.allVendorCodes') },
                ...(decks.data?.items ?? []).map((d) => ({ value: d.code_deck_id, label: d.name })),
              ]}
            />
          </Form.Item>
          <Form.Item
            name="default_rate"
            label={t('rategen.defaultRate')}
            extra={t('rategen.defaultRateHelp')}
          >
            <Input style={{ width: 200 }} data-testid="field-default_rate" />
          </Form.Item>
          <Form.Item name="min_time" label={t('rategen.minTime')}>
            <InputNumber data-testid="field-min_time" />
          </Form.Item>
          <Form.Item name="interval" label={t('rategen.interval')}>
            <InputNumber data-testid="field-interval" />
          </Form.Item>
        </Space>
        <h3>{t('rategen.margins')}</h3>
        <Alert type="info" showIcon message={t('rategen.marginsHelp')} style={{ marginBottom: 12 }} />
        <Form.List name="margins">
          {(fields, { add, remove }) => (
            <>
              {fields.length === 0 && <p data-testid="no-ranges">{t('rategen.noRanges')}</p>}
              {fields.map((f) => (
                <Space key={f.key} align="start" wrap data-testid={`range-${f.name}`}>
                  <Form.Item name={[f.name, 'rate_from']} label={t('rategen.rateFrom')}>
                    <Input style={{ width: 130 }} data-testid={`range-${f.name}-from`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'rate_to']} label={t('rategen.rateTo')}>
                    <Input style={{ width: 130 }} placeholder="∞" data-testid={`range-${f.name}-to`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'markup_type']} label={t('rategen.markupType')}>
                    <Select
                      style={{ width: 170 }}
                      data-testid={`range-${f.name}-type`}
                      options={api.rateGeneration.MARKUP_TYPES.map((v) => ({
                        value: v,
                        label: t(`rategen.markupTypes.${v}`),
                      }))}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'markup']} label={t('rategen.markup')}>
                    <Input style={{ width: 120 }} data-testid={`range-${f.name}-markup`} />
                  </Form.Item>
                  <Form.Item label=" ">
                    <Button
                      danger
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={t('common.delete')}
                      onClick={() => remove(f.name)}
                      data-testid={`range-${f.name}-remove`}
                    />
                  </Form.Item>
                </Space>
              ))}
              <div style={{ marginBottom: 16 }}>
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ rate_from: '', rate_to: '', markup_type: 'percentage', markup: '' })}
                  data-testid="add-range"
                >
                  {t('rategen.addRange')}
                </Button>
              </div>
            </>
          )}
        </Form.List>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="form-save">
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate(LIST)}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}

const LABELS: Record<string, string> = {
  name: 'name',
  default_rate: 'defaultRate',
  decimal_places: 'decimalPlaces',
  egress_trunks: 'egressTrunks',
  average_count: 'averageCount',
  interval: 'interval',
  min_time: 'minTime',
  rate_from: 'rateFrom',
  rate_to: 'rateTo',
  markup: 'markup',
};
/** The label key of a field path ('margins.0.markup' -> markup). */
const labelKey = (path: string) =>
  LABELS[path.split('.').pop() ?? ''] ?? LABELS[path.split('.')[0] ?? ''] ?? 'name';
