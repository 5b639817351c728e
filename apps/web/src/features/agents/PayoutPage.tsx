import { api } from '@tandem/contract';
import { Button, Card, DatePicker, Form, Input, Space } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { formatMoneyText } from '../../lib/money';
import { checked, submitting } from '../routing/shared';
import { AgentFilter } from './CommissionReportPage';
import './i18n';

/**
 * Agent > Commission History > New Payout Record: a payout lowers what the agent is owed by one
 * ledger row. The form carries a key made when it opens, so a double click or a resend records
 * the payout once; the server refuses more than is owed.
 */
export default function PayoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const [sp] = useSearchParams();
  const [form] = Form.useForm();
  const requestKey = useMemo(() => `payout-${crypto.randomUUID()}`, []);
  const save = useApiMutation(api.agents.createPayout, [
    api.agents.commissionHistory,
    api.agents.agents.list,
  ]);
  const label = (f: string) =>
    t(
      { agent_id: 'agents.agent', amount: 'agents.payoutAmount', paid_on: 'agents.paidOn' }[f] ??
        `agents.${f === 'method' ? 'payMethod' : f === 'reference' ? 'payReference' : f}`,
    );
  const submit = async () => {
    const v = form.getFieldsValue(true) as Record<string, unknown>;
    const body = checked(
      api.agents.payoutBody,
      {
        ...v,
        agent_id: v.agent_id ? Number(v.agent_id) : undefined,
        paid_on: v.paid_on ? dayjs(v.paid_on as string).format('YYYY-MM-DD') : '',
        request_key: requestKey,
      },
      form,
      label,
    );
    if (!body) return;
    let owed = '';
    const done = await submitting(form, async () => {
      owed = (await save.mutateAsync({ body })).balance;
    });
    if (!done) return;
    flash(t('agents.payoutSaved', { owed: formatMoneyText(owed) }));
    navigate(`/agent/commission_history?agent_id=${body.agent_id}`);
  };
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('agents.newPayout')}</h1>}
      style={{ maxWidth: 560 }}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ agent_id: sp.get('agent_id') ?? undefined, paid_on: dayjs() }}
        onFinish={() => void submit()}
        data-testid="form-payout"
      >
        <Form.Item name="agent_id" label={t('agents.agent')} required>
          <AgentFilter />
        </Form.Item>
        <Form.Item name="amount" label={t('agents.payoutAmount')} required>
          <Input data-testid="field-amount" />
        </Form.Item>
        <Form.Item name="paid_on" label={t('agents.paidOn')} required>
          <DatePicker data-testid="field-paid_on" />
        </Form.Item>
        <Form.Item name="method" label={t('agents.payMethod')}>
          <Input data-testid="field-method" />
        </Form.Item>
        <Form.Item name="reference" label={t('agents.payReference')}>
          <Input data-testid="field-reference" />
        </Form.Item>
        <Form.Item name="note" label={t('agents.note')}>
          <Input.TextArea data-testid="field-note" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="form-save">
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate('/agent/commission_history')}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
