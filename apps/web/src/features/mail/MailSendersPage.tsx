import { api } from '@tandem/contract';
import { Button, Input, Modal, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { call, ApiError } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.infer<typeof api.mail.mailSenderRow>;

const resource = crudListResource<Row>(api.mail.mailSender, {
  key: 'mail-senders',
  title: 'mail.senders',
  rowKey: 'id',
  route: '/configuration/email_sender',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'mail.name', sortable: true },
    { key: 'server', title: 'mail.server', sortable: true, render: (r) => `${r.server}:${r.port}` },
    { key: 'security', title: 'mail.security', render: (r, t) => t(`mail.securities.${r.security}`) },
    { key: 'username', title: 'mail.username' },
    { key: 'address', title: 'mail.address', sortable: true },
    {
      key: 'is_default',
      title: 'mail.isDefault',
      render: (r, t) => (r.is_default ? <Tag color="blue">{t('mail.isDefault')}</Tag> : ''),
    },
    {
      key: 'status',
      title: 'mail.status',
      sortable: true,
      render: (r, t) => (
        <Tooltip title={r.status_error || undefined}>
          <Tag color={r.status === 'connected' ? 'green' : 'default'} data-testid={`sender-status-${r.id}`}>
            {t(`mail.statuses.${r.status}`)}
          </Tag>
        </Tooltip>
      ),
    },
    { key: 'usage_count', title: 'mail.usage' },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
  defaultSort: { by: 'name', dir: 'asc' },
});

/** Configuration > Mail Sender: SMTP servers with test connection and test send. */
export default function MailSendersPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const qc = useQueryClient();
  const [busy, setBusy] = useState<number | null>(null);
  const [sendTo, setSendTo] = useState<{ row: Row; to: string } | null>(null);
  const refresh = () =>
    qc.invalidateQueries({ queryKey: [api.mail.mailSender.list.method, api.mail.mailSender.list.path] });

  const test = async (row: Row) => {
    setBusy(row.id);
    try {
      const r = await call(api.mail.testSender, { params: { id: row.id } });
      flash(
        r.status === 'connected' ? t('mail.connected') : t('mail.disconnected', { error: r.error }),
        r.status === 'connected' ? 'info' : 'error',
      );
    } finally {
      setBusy(null);
      await refresh();
    }
  };
  const send = async () => {
    if (!sendTo) return;
    try {
      const r = await call(
        api.mail.testSend,
        { params: { id: sendTo.row.id }, body: { to: sendTo.to } },
        { errorMode: 'inline' },
      );
      flash(
        r.sent ? t('mail.testSent', { to: sendTo.to }) : t('mail.testFailed', { error: r.error }),
        r.sent ? 'info' : 'error',
      );
      setSendTo(null);
    } catch (e) {
      if (e instanceof ApiError) flash(e.message, 'error');
    } finally {
      await refresh();
    }
  };
  return (
    <>
      <ResourceList
        resource={resource}
        extraActions={(row) => (
          <>
            <Button
              size="small"
              loading={busy === row.id}
              onClick={() => void test(row)}
              data-testid={`sender-test-${row.id}`}
            >
              {t('mail.testConnection')}
            </Button>
            <Button
              size="small"
              onClick={() => setSendTo({ row, to: '' })}
              data-testid={`sender-send-${row.id}`}
            >
              {t('mail.testSend')}
            </Button>
          </>
        )}
      />
      <Modal
        open={sendTo !== null}
        title={t('mail.testSendTo')}
        onCancel={() => setSendTo(null)}
        onOk={() => void send()}
        okButtonProps={{ disabled: !sendTo?.to, 'data-testid': 'test-send-ok' } as never}
      >
        <Input
          type="email"
          value={sendTo?.to ?? ''}
          onChange={(e) => setSendTo((s) => (s ? { ...s, to: e.target.value } : s))}
          data-testid="test-send-to"
        />
      </Modal>
    </>
  );
}
