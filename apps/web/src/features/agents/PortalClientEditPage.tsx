import { api } from '@tandem/contract';
import { Alert, Button, Card, Form, Input, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { checked, submitting } from '../routing/shared';
import './i18n';

const FIELDS = [
  ['company', 'agents.company'],
  ['main_email', 'agents.mainEmail'],
  ['noc_email', 'agents.nocEmail'],
  ['billing_email', 'agents.billingEmail'],
  ['rates_email', 'agents.ratesEmail'],
  ['address', 'agents.address'],
] as const;

/**
 * Agent portal > Client edit (/agents/client/edit/{id}): one of the agent's clients; its company
 * and contact data can be changed when the agent has the portal edit permission (read-only
 * otherwise). Another carrier's id is "not found".
 */
export default function PortalClientEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const client = useApi(api.agents.portalClient, { params: { id: Number(id) } });
  const save = useApiMutation(api.agents.portalUpdateClient, [
    api.agents.portalClients,
    api.agents.portalClient,
  ]);
  const c = client.data;
  useEffect(() => {
    if (c) form.setFieldsValue(Object.fromEntries(FIELDS.map(([k]) => [k, c[k]])));
  }, [c, form]);
  if (!c) return null;
  const label = (f: string) => t(FIELDS.find(([k]) => k === f)?.[1] ?? f);
  const submit = async () => {
    const body = checked(api.agents.portalClientBody, form.getFieldsValue(true), form, label);
    if (!body) return;
    if (await submitting(form, () => save.mutateAsync({ params: { id: Number(id) }, body }))) {
      flash(t('common.modifiedSuccessfully'));
      navigate('/agents/client/client_list');
    }
  };
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{`${t('agents.editClient')}: ${c.name}`}</h1>}
      style={{ maxWidth: 640 }}
    >
      {!c.portal_edit && (
        <Alert type="info" showIcon message={t('agents.readOnly')} style={{ marginBottom: 12 }} />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={() => void submit()}
        data-testid="form-portal-client"
        disabled={!c.portal_edit}
      >
        {FIELDS.map(([k, l]) => (
          <Form.Item key={k} name={k} label={t(l)}>
            {k === 'address' ? (
              <Input.TextArea data-testid={`field-${k}`} />
            ) : (
              <Input data-testid={`field-${k}`} />
            )}
          </Form.Item>
        ))}
        <Space>
          {c.portal_edit && (
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="form-save">
              {t('common.save')}
            </Button>
          )}
          <Button disabled={false} onClick={() => navigate('/agents/client/client_list')}>
            {t('common.cancel')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
