import { api } from '@tandem/contract';

type MailEvent = api.mail.MailEvent;
import { Button, Card, Col, Form, Input, Row, Select, Space, Tag, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';
import { serverMessage } from '../../i18n';
import './i18n';

const { mail } = api;
const FIELDS = ['event', 'language', 'sender_id', 'cc', 'subject', 'content'] as const;
interface Values {
  event: MailEvent;
  language: 'en' | 'ch' | 'de';
  sender_id: number | null;
  cc: string[];
  subject: string;
  content: string;
}
const INITIAL: Values = {
  event: 'low_balance',
  language: 'en',
  sender_id: null,
  cc: [],
  subject: '',
  content: '',
};

/**
 * Configuration > Mail Template new and edit: event, language, From sender, CC, subject and content
 * with the event's tags (click to insert at the cursor) and a live preview rendered with the same
 * function the server uses, on example values. The preview is plain text, as the mail is.
 */
export default function MailTemplateEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(Boolean(id));
  const [busy, setBusy] = useState(false);
  const contentRef = useRef<TextAreaRef>(null);
  const values = (Form.useWatch([], form) ?? INITIAL) as Values;
  const senders = useApi(mail.mailSender.list, { query: { per_page: 1000 } as never });

  useEffect(() => {
    if (!id) {
      form.setFieldsValue(INITIAL);
      return;
    }
    void call(mail.mailTemplate.get, { params: { id: Number(id) } })
      .then((row) =>
        form.setFieldsValue(Object.fromEntries(FIELDS.map((f) => [f, row[f]])) as unknown as Values),
      )
      .finally(() => setLoading(false));
  }, [id, form]);

  const event = values.event ?? INITIAL.event;
  const tags = mail.MAIL_TAGS[event] as readonly string[];

  const insertTag = (tag: string) => {
    const el = contentRef.current?.resizableTextArea?.textArea;
    const text = String((form.getFieldValue('content') as string | undefined) ?? '');
    const at = el ? el.selectionStart : text.length;
    const end = el ? el.selectionEnd : text.length;
    form.setFieldValue('content', `${text.slice(0, at)}{${tag}}${text.slice(end)}`);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + tag.length + 2, at + tag.length + 2);
    });
  };

  const submit = async () => {
    const raw: Values = { ...INITIAL, ...(form.getFieldsValue(true) as Partial<Values>) };
    const body = Object.fromEntries(FIELDS.map((f) => [f, raw[f]]));
    const schema = id ? mail.mailTemplate.updateBody : mail.mailTemplate.create.body!;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => ({
          name: String(i.path[0] ?? '') as keyof Values,
          errors: [serverMessage(i.message, [t(`mail.${String(i.path[0])}`)])],
        })),
      );
      return;
    }
    setBusy(true);
    try {
      if (id)
        await call(
          mail.mailTemplate.update,
          { params: { id: Number(id) }, body: parsed.data as never },
          { errorMode: 'inline' },
        );
      else await call(mail.mailTemplate.create, { body: parsed.data as never }, { errorMode: 'inline' });
      flash(t(id ? 'common.modifiedSuccessfully' : 'common.createdSuccessfully'));
      navigate('/configuration/mail_template');
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors).map(([name, msg]) => ({ name: name as keyof Values, errors: [msg] })),
        );
    } finally {
      setBusy(false);
    }
  };

  if (loading) return <Spinner />;
  const sample = mail.SAMPLE_VALUES;
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t(id ? 'mail.editTemplate' : 'mail.newTemplate')}</h1>}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        onFinish={() => void submit()}
        data-testid="form-mail-template"
      >
        <Row gutter={24}>
          <Col xs={24} lg={13}>
            <Space wrap style={{ width: '100%' }} size="middle">
              <Form.Item name="event" label={t('mail.event')} required style={{ minWidth: 200 }}>
                <Select
                  data-testid="field-event"
                  options={mail.MAIL_EVENTS.map((e) => ({ value: e, label: t(`mail.events.${e}`) }))}
                />
              </Form.Item>
              <Form.Item name="language" label={t('mail.language')} required style={{ minWidth: 140 }}>
                <Select
                  data-testid="field-language"
                  options={(['en', 'ch', 'de'] as const).map((l) => ({
                    value: l,
                    label: t(`mail.languages.${l}`),
                  }))}
                />
              </Form.Item>
              <Form.Item name="sender_id" label={t('mail.fromSender')} style={{ minWidth: 220 }}>
                <Select
                  data-testid="field-sender_id"
                  options={[
                    { value: null as unknown as number, label: t('mail.defaultSender') },
                    ...(senders.data?.items ?? []).map((s) => ({
                      value: s.id,
                      label: `${s.name} <${s.address}>`,
                    })),
                  ]}
                />
              </Form.Item>
            </Space>
            <Form.Item name="cc" label={t('mail.cc')}>
              <Select mode="tags" tokenSeparators={[',', ' ', ';']} open={false} data-testid="field-cc" />
            </Form.Item>
            <Form.Item name="subject" label={t('mail.subject')} required>
              <Input data-testid="field-subject" />
            </Form.Item>
            <Form.Item name="content" label={t('mail.content')} required>
              <Input.TextArea
                ref={contentRef}
                rows={12}
                data-testid="field-content"
                style={{ fontFamily: 'monospace' }}
              />
            </Form.Item>
            <div style={{ marginBottom: 16 }}>
              <Typography.Text type="secondary">{t('mail.tags')}: </Typography.Text>
              {tags.map((tag) => (
                <Tag
                  key={tag}
                  style={{ cursor: 'pointer' }}
                  onClick={() => insertTag(tag)}
                  data-testid={`tag-${tag}`}
                  // A placeholder's name is code, the same in every language.
                  data-i18n-ignore
                >
                  {`{${tag}}`}
                </Tag>
              ))}
            </div>
          </Col>
          <Col xs={24} lg={11}>
            <Typography.Title level={5}>{t('mail.preview')}</Typography.Title>
            <div
              style={{ border: '1px solid #d9d9d9', borderRadius: 6, padding: 12, background: '#fafafa' }}
              data-testid="template-preview"
              // The mail as written in the template's own language, not the interface's.
              data-i18n-ignore
            >
              <div style={{ fontWeight: 600, marginBottom: 8 }} data-testid="preview-subject">
                {mail.renderMail(event, values.subject ?? '', sample, true)}
              </div>
              <pre
                style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', margin: 0 }}
                data-testid="preview-content"
              >
                {mail.renderMail(event, values.content ?? '', sample)}
              </pre>
            </div>
          </Col>
        </Row>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="form-save">
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate('/configuration/mail_template')}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
