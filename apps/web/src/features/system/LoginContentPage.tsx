import { api } from '@tandem/contract';
import { Button, Card, Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { BrandingImages } from './BrandingImages';

/**
 * Configuration > Login Page Content: what every visitor sees before signing in: the title and
 * the text under the logo (an announcement, a maintenance window, the NOC's number), and the logo,
 * favicon and background image. A preview beside the form shows the card as it will look.
 */
export default function LoginContentPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const branding = useApi(api.config.getLoginBranding, {}, { staleTime: 0 });
  const [form] = Form.useForm<{ title: string; content: string }>();
  const title = Form.useWatch('title', form) ?? branding.data?.title ?? '';
  const content = Form.useWatch('content', form) ?? branding.data?.content ?? '';
  const b = branding.data;

  const save = async (v: { title: string; content: string }) => {
    await call(api.config.patchLoginBranding, { body: v }, { errorMode: 'inline' });
    await branding.refetch();
    flash(t('common.modifiedSuccessfully'));
  };

  return (
    <div>
      <div className="page-head">
        <h1>{t('system.loginContent')}</h1>
      </div>
      <Row gutter={24}>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('system.loginTexts')} style={{ marginBottom: 16 }}>
            {b && (
              <Form
                form={form}
                layout="vertical"
                initialValues={{ title: b.title, content: b.content }}
                onFinish={(v) => void save(v)}
              >
                <Form.Item name="title" label={t('system.loginTitle')} rules={[{ max: 200 }]}>
                  <Input maxLength={200} data-testid="login-content-title" />
                </Form.Item>
                <Form.Item name="content" label={t('system.loginText')} extra={t('system.loginTextHelp')}>
                  <Input.TextArea rows={5} maxLength={5000} data-testid="login-content-text" />
                </Form.Item>
                <Button type="primary" htmlType="submit" data-testid="login-content-save">
                  {t('common.save')}
                </Button>
              </Form>
            )}
          </Card>
          <Card size="small" title={t('system.loginImages')}>
            <BrandingImages branding={b} onChanged={() => branding.refetch()} testPrefix="login-content" />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('system.preview')}>
            <div
              data-testid="login-content-preview"
              style={{
                padding: 24,
                borderRadius: 8,
                background: b?.image_url ? `center / cover url(${b.image_url})` : '#eef2f6',
              }}
            >
              <div style={{ background: '#fff', borderRadius: 8, padding: 20, textAlign: 'center' }}>
                <img
                  src={b?.logo_image_id ? `/api/config/export/public/${b.logo_image_id}` : '/favicon.svg'}
                  alt=""
                  style={{ height: 40 }}
                />
                <h3 style={{ margin: '8px 0 0' }}>
                  {title || t('auth.signInTitle', { name: t('frame.programName') })}
                </h3>
                {content ? <p style={{ color: '#666', whiteSpace: 'pre-wrap' }}>{content}</p> : null}
              </div>
            </div>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
