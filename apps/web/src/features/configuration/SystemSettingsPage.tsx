import { api, type SystemSettings } from '@tandem/contract';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useSession, useSignedIn } from '../../app/session';
import { Spinner } from '../../components/Spinner';
import { numberBounds } from './settings-bounds';
import './i18n';
import './cleansing-i18n';

type Key = keyof SystemSettings;
const { SYSTEM_FUNC, LOGIN_CONTENT_FUNC, US_IJ_RULES, systemSettings } = api.config;
const CLEANSING_FUNC = api.cleansing.FUNC;
const { TIME_ZONES, timeZoneLabel } = api.carriers;
const EMAIL_LISTS = [
  'notify_admin_emails',
  'notify_finance_emails',
  'notify_noc_emails',
  'notify_ftp_failure_emails',
] as const satisfies Key[];

/**
 * Configuration > System Setting (spec 02 "System settings"): general settings, notification
 * e-mails, decimals and CDR options, LRN. One Save sends the whole form; the server's field errors
 * show on their fields. Read-only for a role that may read the page but not change it.
 */
export default function SystemSettingsPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const { reload } = useSession();
  const { submenus } = useSignedIn();
  const editable = submenus.some((m) => m.web_url === SYSTEM_FUNC && m.is_editable);
  const current = useApi(api.config.getSystemSettings, {}, { staleTime: 0 });
  const [form] = Form.useForm<SystemSettings>();
  const [busy, setBusy] = useState(false);
  const k = (key: string) => t(`configuration.systemSettings.${key}`);

  useEffect(() => {
    if (current.data) form.setFieldsValue(current.data);
  }, [current.data, form]);

  const save = async () => {
    const values = form.getFieldsValue(true) as SystemSettings;
    form.setFields(Object.keys(values).map((name) => ({ name: name as Key, errors: [] })));
    setBusy(true);
    try {
      await call(api.config.patchSystemConfig, { body: values }, { errorMode: 'inline' });
      // The frame shows the time zone and applies the inactivity timeout: reload the session first,
      // so the success message means everything shown is up to date.
      await Promise.all([current.refetch(), reload()]);
      flash(t('common.modifiedSuccessfully'));
    } catch (e) {
      if (e instanceof ApiError && e.errors) form.setFields(fieldErrors(e.errors, values, t));
    } finally {
      setBusy(false);
    }
  };

  if (current.isLoading || !current.data) return <Spinner />;
  const ijOptions = US_IJ_RULES.map((r) => ({ value: r, label: k(`ijRules.${r}`) }));
  const tzOptions = TIME_ZONES.map((z) => ({ value: z, label: timeZoneLabel(z) }));

  const item = (name: Key, control: ReactNode, opts: { help?: string; span?: number } = {}) => (
    <Col xs={24} md={opts.span ?? 12} key={name}>
      <Form.Item
        name={name}
        label={k(`fields.${name}`)}
        extra={opts.help ? k(opts.help) : undefined}
        valuePropName={typeof current.data?.[name] === 'boolean' ? 'checked' : 'value'}
      >
        {control}
      </Form.Item>
    </Col>
  );
  const number = (name: Key, unit?: string) =>
    item(
      name,
      <InputNumber
        {...numberBounds(systemSettings.shape[name])}
        precision={0}
        style={{ width: '100%' }}
        suffix={unit ? k(`units.${unit}`) : undefined}
        data-testid={`sys-${name}`}
      />,
    );
  const text = (name: Key, placeholder?: string) =>
    item(name, <Input placeholder={placeholder} data-testid={`sys-${name}`} />);
  const toggle = (name: Key) => item(name, <Switch data-testid={`sys-${name}`} />);
  const section = (key: string, children: ReactNode) => (
    <Card type="inner" title={k(`sections.${key}`)} data-testid={`sys-section-${key}`}>
      <Row gutter={16}>{children}</Row>
    </Card>
  );

  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{k('title')}</h1>}
      style={{ maxWidth: 960 }}
      data-testid="system-settings"
    >
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        initialValues={current.data}
        onFinish={() => void save()}
      >
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          {!editable && <Alert type="info" showIcon message={k('readOnly')} data-testid="sys-read-only" />}
          {section(
            'general',
            <>
              {text('base_url', 'https://portal.example.com')}
              {text('operating_company')}
              {item(
                'timezone',
                <Select options={tzOptions} showSearch optionFilterProp="label" data-testid="sys-timezone" />,
              )}
              {number('inactivity_timeout', 'minutes')}
              {number('default_ring_timeout_s', 'seconds')}
              {number('max_call_duration_s', 'seconds')}
              {item(
                'default_us_ij_rule',
                <Select options={ijOptions} data-testid="sys-default_us_ij_rule" />,
                {
                  help: 'ijHelp',
                  span: 24,
                },
              )}
              {toggle('user_registration_enabled')}
              {text('support_link')}
              {text('help_link')}
              {toggle('hide_version')}
              {toggle('hide_license')}
              {toggle('hide_support_link')}
              {toggle('hide_help_link')}
            </>,
          )}
          {section(
            'emails',
            EMAIL_LISTS.map((name) =>
              item(
                name,
                <Select
                  mode="tags"
                  open={false}
                  suffixIcon={null}
                  tokenSeparators={[',', ' ', ';']}
                  placeholder={t('tags.placeholder')}
                  data-testid={`sys-${name}`}
                />,
                { span: 24 },
              ),
            ),
          )}
          {section(
            'decimals',
            <>
              {number('billing_decimals')}
              {number('report_decimals')}
              {toggle('cdr_include_unauthorized_ip')}
              {number('short_call_seconds')}
              <Col span={24}>
                {k('retentionHelp')} <Link to={CLEANSING_FUNC}>{t('cleansing.title')}</Link>
              </Col>
            </>,
          )}
          {section(
            'lrn',
            <>
              {text('lrn_master_ip', '192.0.2.10')}
              {number('lrn_master_port')}
              {text('lrn_slave_ip', '192.0.2.11')}
              {number('lrn_slave_port')}
              {number('lrn_timeout_s', 'seconds')}
              {number('lrn_retry_attempts')}
              <Col span={24}>
                <Alert type="warning" showIcon message={k('lrnNotUsed')} />
              </Col>
            </>,
          )}
          <Card type="inner" title={k('sections.logos')}>
            {k('logosHelp')} <Link to={LOGIN_CONTENT_FUNC}>{k('loginContent')}</Link>
          </Card>
          {editable && (
            <Button type="primary" htmlType="submit" loading={busy} data-testid="sys-save">
              {t('common.save')}
            </Button>
          )}
        </Space>
      </Form>
    </Card>
  );
}

/**
 * The server's field errors as form errors. An entry of an e-mail list comes back as
 * `notify_noc_emails.1`: it is shown on the list, naming the address.
 */
function fieldErrors(
  errors: Record<string, string>,
  values: SystemSettings,
  t: (key: string, o?: Record<string, unknown>) => string,
): { name: Key; errors: string[] }[] {
  const out = new Map<Key, string[]>();
  for (const [path, message] of Object.entries(errors)) {
    const [field, index] = path.split('.') as [Key, string | undefined];
    if (!(field in systemSettings.shape)) continue;
    const list = values[field];
    const text =
      index !== undefined && Array.isArray(list)
        ? t('tags.emailHasInvalidEmailFormat', { value: String(list[Number(index)]) })
        : message;
    out.set(field, [...(out.get(field) ?? []), text]);
  }
  return [...out].map(([name, errs]) => ({ name, errors: errs }));
}
