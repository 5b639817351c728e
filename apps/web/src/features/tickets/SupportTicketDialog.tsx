import { api } from '@tandem/contract';
import { Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';

/** Support ticket: subject required; created then sent (department Admin, with the current page URL). */
export function SupportTicketDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) form.resetFields();
  }, [open, form]);
  const submit = async () => {
    const v = (await form.validateFields()) as { subject: string; content?: string };
    setBusy(true);
    try {
      const { object_id } = await call(
        api.ticket.createTicket,
        {
          body: {
            department: 'Admin',
            subject: v.subject,
            content: v.content ?? '',
            url: window.location.href,
          },
        },
        { errorMode: 'inline', quiet: true },
      );
      await call(api.ticket.sendTicket, { params: { id: object_id } }, { errorMode: 'inline', quiet: true });
      flash(t('ticket.errorReportSent'));
      onClose();
    } catch {
      flash(t('ticket.errorReportSentError'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('ticket.title')}
      onOk={() => void submit()}
      onCancel={onClose}
      okText={t('ticket.send')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'ticket-send' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="subject"
          label={t('ticket.subject')}
          rules={[{ required: true, whitespace: true, message: t('ticket.subjectRequired') }]}
        >
          <Input data-testid="ticket-subject" maxLength={200} />
        </Form.Item>
        <Form.Item name="content" label={t('ticket.content')}>
          <Input.TextArea rows={5} data-testid="ticket-content" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
