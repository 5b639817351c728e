import { Button, Card, Form, Input, InputNumber, Select, Space, Switch, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { ApiError } from '../../api/client';
import { serverMessage } from '../../i18n';
import { useFeedback } from '../../app/feedback';
import { ImageField } from '../ImageField';
import { Spinner } from '../Spinner';

/** One field of a resource form. Validation rules come from the contract schema given to the form. */
export interface FieldSpec {
  name: string;
  /** i18n key */
  label: string;
  kind:
    | 'text'
    | 'email'
    | 'password'
    | 'select'
    | 'multiselect'
    | 'switch'
    | 'tags'
    | 'number'
    | 'textarea'
    /** A PNG or JPEG image kept as a data URL (ImageField). */
    | 'image';
  required?: boolean;
  options?: { value: string | number; label: string }[];
  /** Only on the create page. */
  createOnly?: boolean;
  /** i18n key of a hint under the field. */
  help?: string;
  visible?: (values: Record<string, unknown>) => boolean;
  disabled?: boolean;
}
export interface FormTab {
  key: string;
  title: string;
  fields: FieldSpec[];
}

export interface FormResource<V extends Record<string, unknown>> {
  key: string;
  titleNew: string;
  titleEdit: string;
  listPath: string;
  tabs: FormTab[];
  initial: V;
  /** The contract schema of the create / update body: the same rules the server enforces. */
  createSchema: z.ZodType;
  updateSchema: z.ZodType;
  load?: (id: number) => Promise<V>;
  create: (values: V) => Promise<unknown>;
  update: (id: number, values: V) => Promise<unknown>;
}

/** The generic create/edit page with tabs, driven by one resource declaration. */
export function ResourceForm<V extends Record<string, unknown>>({
  resource,
  id,
  initialTab,
}: {
  resource: FormResource<V>;
  id: number | null;
  initialTab?: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const [loading, setLoading] = useState(Boolean(id && resource.load));
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState(
    initialTab && resource.tabs.some((tb) => tb.key === initialTab) ? initialTab : resource.tabs[0]?.key,
  );
  const values = (Form.useWatch([], form) ?? resource.initial) as Record<string, unknown>;

  useEffect(() => {
    if (!id || !resource.load) {
      form.setFieldsValue(resource.initial);
      return;
    }
    setLoading(true);
    void resource
      .load(id)
      .then((v) => form.setFieldsValue(v))
      .finally(() => setLoading(false));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  const allFields = resource.tabs.flatMap((tb) => tb.fields.map((f) => ({ ...f, tab: tb.key })));
  const labelOf = (name: string) => t(allFields.find((f) => f.name === name)?.label ?? name);

  const submit = async () => {
    const raw = { ...resource.initial, ...(form.getFieldsValue(true) as V) };
    const schema = id ? resource.updateSchema : resource.createSchema;
    const parsed = schema.safeParse(
      stripUnknown(
        raw,
        allFields.filter((f) => !(id && f.createOnly)).map((f) => f.name),
      ),
    );
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => {
        const name = String(i.path[0] ?? '');
        const args = (i as { params?: { args?: (string | number)[] } }).params?.args;
        return { name, errors: [serverMessage(i.message, args ?? [labelOf(name)])] };
      });
      form.setFields(fields.filter((f) => allFields.some((x) => x.name === f.name)));
      const first = allFields.find((f) => fields.some((x) => x.name === f.name));
      if (first) setTab(first.tab);
      return;
    }
    setBusy(true);
    try {
      if (id) await resource.update(id, parsed.data as V);
      else await resource.create(parsed.data as V);
      flash(t(id ? 'common.modifiedSuccessfully' : 'common.createdSuccessfully'));
      navigate(resource.listPath);
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors)
            .filter(([k]) => allFields.some((f) => f.name === k))
            .map(([name, msg]) => ({ name, errors: [msg] })),
        );
    } finally {
      setBusy(false);
    }
  };

  if (loading) return <Spinner />;
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t(id ? resource.titleEdit : resource.titleNew)}</h1>}
      style={{ maxWidth: 860 }}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={resource.initial}
        onFinish={() => void submit()}
        data-testid={`form-${resource.key}`}
      >
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={resource.tabs.map((tb) => ({
            key: tb.key,
            label: t(tb.title),
            forceRender: true,
            children: tb.fields
              .filter((f) => !(id && f.createOnly) && (!f.visible || f.visible(values)))
              .map((f) => (
                <Form.Item
                  key={f.name}
                  name={f.name}
                  label={t(f.label)}
                  required={f.required}
                  extra={f.help ? t(f.help) : undefined}
                  valuePropName={f.kind === 'switch' ? 'checked' : 'value'}
                >
                  {renderInput(f, t)}
                </Form.Item>
              )),
          }))}
        />
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="form-save">
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate(resource.listPath)}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}

function renderInput(f: FieldSpec, t: (k: string) => string) {
  const testId = `field-${f.name}`;
  switch (f.kind) {
    case 'password':
      return <Input.Password data-testid={testId} autoComplete="new-password" disabled={f.disabled} />;
    case 'select':
      return (
        <Select
          options={f.options}
          data-testid={testId}
          disabled={f.disabled}
          showSearch
          optionFilterProp="label"
        />
      );
    case 'multiselect':
      return (
        <Select
          mode="multiple"
          options={f.options}
          data-testid={testId}
          disabled={f.disabled}
          showSearch
          optionFilterProp="label"
          allowClear
        />
      );
    case 'switch':
      return <Switch data-testid={testId} disabled={f.disabled} />;
    case 'tags':
      return (
        <Select
          mode="tags"
          tokenSeparators={[',', ' ', ';']}
          data-testid={testId}
          disabled={f.disabled}
          placeholder={t('tags.placeholder')}
          open={false}
        />
      );
    case 'number':
      return <InputNumber data-testid={testId} disabled={f.disabled} style={{ width: '100%' }} />;
    case 'textarea':
      return <Input.TextArea rows={4} data-testid={testId} disabled={f.disabled} />;
    case 'image':
      return <ImageField testId={testId} disabled={f.disabled} />;
    case 'email':
    case 'text':
      return <Input data-testid={testId} disabled={f.disabled} />;
  }
}

/** Only the declared fields go to the schema (strict schemas refuse others). */
function stripUnknown(v: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (v[n] !== undefined) out[n] = v[n];
  return out;
}
