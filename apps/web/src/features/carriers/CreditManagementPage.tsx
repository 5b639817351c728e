import { EditOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Switch, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { ActiveTag, ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { serverMessage } from '../../i18n';
import './i18n';
import { formatMoneyText } from '../../lib/money';

type Row = z.output<typeof api.carriers.creditRow>;
const money = (v: string) => formatMoneyText(v);
const LABELS: Record<string, string> = {
  credit_limit: 'carriers.creditLimit',
  allowed_credit: 'carriers.allowedCredit',
  test_credit: 'carriers.testCredit',
};

const resourceOf = (t: (k: string) => string): ListResource<Row> => ({
  key: 'credit',
  title: 'carriers.creditManagement',
  list: api.carriers.creditList,
  rowKey: 'client_id',
  csvName: 'credit-management',
  defaultSort: { by: 'name', dir: 'asc' },
  columns: [
    { key: 'name', title: 'carriers.name', sortable: true },
    {
      key: 'client_type',
      title: 'carriers.clientType',
      sortable: true,
      render: (r, t) => t(`carriers.types.${r.client_type}`),
    },
    { key: 'mode', title: 'carriers.mode', render: (r, t) => t(`carriers.modes.${r.mode}`) },
    {
      key: 'balance',
      title: 'carriers.balance',
      sortable: true,
      render: (r) => formatMoneyText(r.balance, { currency: r.currency }),
      csv: (r) => r.balance,
    },
    {
      key: 'credit_limit',
      title: 'carriers.creditLimit',
      sortable: true,
      render: (r) => money(r.credit_limit),
      csv: (r) => r.credit_limit,
    },
    {
      key: 'allowed_credit',
      title: 'carriers.allowedCredit',
      render: (r) => money(r.allowed_credit),
      csv: (r) => r.allowed_credit,
    },
    {
      key: 'test_credit',
      title: 'carriers.testCredit',
      render: (r) => money(r.test_credit),
      csv: (r) => r.test_credit,
    },
    {
      key: 'available',
      title: 'carriers.available',
      sortable: true,
      render: (r, t) => (r.unlimited_credit ? t('carriers.unlimitedCredit') : money(r.available)),
      csv: (r) => r.available,
    },
    { key: 'is_active', title: 'common.status', render: (r, t) => <ActiveTag active={r.is_active} t={t} /> },
  ],
  filters: [
    { name: 'name', title: 'common.search', kind: 'text' },
    {
      name: 'client_type',
      title: 'carriers.clientType',
      kind: 'select',
      options: ['client', 'vendor'].map((v) => ({ value: v, label: t(`carriers.types.${v}`) })),
    },
    {
      name: 'mode',
      title: 'carriers.mode',
      kind: 'select',
      options: ['prepaid', 'postpaid'].map((v) => ({ value: v, label: t(`carriers.modes.${v}`) })),
    },
  ],
});

/** Termination > Credit Management: balances and credit; changing them needs Credit Management write. */
export default function CreditManagementPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { flash } = useFeedback();
  const [editing, setEditing] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm();

  const save = async () => {
    if (!editing) return;
    const parsed = api.carriers.creditUpdate.safeParse(form.getFieldsValue());
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => ({
          name: String(i.path[0]),
          errors: [serverMessage(i.message, [t(LABELS[String(i.path[0])] ?? String(i.path[0]))])],
        })),
      );
      return;
    }
    setBusy(true);
    try {
      await call(
        api.carriers.updateCredit,
        { params: { id: editing.client_id }, body: parsed.data },
        { errorMode: 'inline' },
      );
      flash(t('common.modifiedSuccessfully'));
      setEditing(null);
      await qc.invalidateQueries({
        queryKey: [api.carriers.creditList.method, api.carriers.creditList.path],
      });
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(Object.entries(e.errors).map(([name, msg]) => ({ name, errors: [msg] })));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ResourceList
        resource={resourceOf(t)}
        extraActions={(r) => (
          <Tooltip title={t('carriers.editCredit')}>
            <Button
              size="small"
              type="text"
              icon={<EditOutlined />}
              aria-label={t('carriers.editCredit')}
              data-testid={`edit-credit-${r.client_id}`}
              onClick={() => {
                form.setFieldsValue({
                  credit_limit: r.credit_limit,
                  allowed_credit: r.allowed_credit,
                  test_credit: r.test_credit,
                  unlimited_credit: r.unlimited_credit,
                });
                setEditing(r);
              }}
            />
          </Tooltip>
        )}
      />
      <Modal
        open={editing !== null}
        title={`${t('carriers.editCredit')} — ${editing?.name ?? ''}`}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        confirmLoading={busy}
        okText={t('common.save')}
        forceRender
        okButtonProps={{ 'data-testid': 'credit-save' } as never}
      >
        <Form form={form} layout="vertical" data-testid="form-credit">
          <Form.Item name="credit_limit" label={t('carriers.creditLimit')}>
            <Input data-testid="field-credit_limit" />
          </Form.Item>
          <Form.Item name="allowed_credit" label={t('carriers.allowedCredit')}>
            <Input data-testid="field-allowed_credit" />
          </Form.Item>
          <Form.Item name="test_credit" label={t('carriers.testCredit')}>
            <Input data-testid="field-test_credit" />
          </Form.Item>
          <Form.Item name="unlimited_credit" label={t('carriers.unlimitedCredit')} valuePropName="checked">
            <Switch data-testid="field-unlimited_credit" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
