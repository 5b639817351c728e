import { api } from '@tandem/contract';
import { Alert, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { RATE_COLUMN_LABEL } from './columns';
import './i18n';

type Column = api.rates.RateColumn;
type Change = { action: (typeof api.rates.MASS_EDIT_ACTIONS)[number]; value?: string };

/**
 * Rate mass edit: per money column no change, set to, increase by, decrease by or multiply by, on
 * the rows matching the page's filters (or the selected rows). The server rounds to the table's places.
 */
export function MassEditDialog({
  open,
  onClose,
  tableId,
  tableName,
  columns,
  filter,
  rateIds,
  matching,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  tableId: number;
  tableName: string;
  columns: Column[];
  filter: api.rates.RateFilters;
  rateIds: number[];
  matching: number;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [changes, setChanges] = useState<Partial<Record<Column, Change>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (c: Column, patch: Partial<Change>) =>
    setChanges((x) => ({ ...x, [c]: { action: 'no_change', ...x[c], ...patch } }));

  const apply = async () => {
    setBusy(true);
    setErrors({});
    try {
      const body = {
        filter,
        ...(rateIds.length ? { rate_ids: rateIds } : {}),
        changes: Object.fromEntries(
          Object.entries(changes)
            .filter(([, ch]) => ch.action !== 'no_change')
            .map(([k, ch]) => [k, { action: ch.action, value: ch.value }]),
        ),
      };
      const r = await call(api.rates.massEdit, { params: { id: tableId }, body }, { errorMode: 'inline' });
      flash(t('rates.massEditDone', { count: r.affected }));
      setChanges({});
      onDone();
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.errors) setErrors(e.errors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('rates.massEditTitle', { name: tableName })}
      okText={t('rates.apply')}
      cancelText={t('common.cancel')}
      onOk={() => void apply()}
      onCancel={onClose}
      okButtonProps={{ loading: busy, 'data-testid': 'mass-edit-apply' }}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={
          rateIds.length
            ? t('rates.massEditSelected', { count: rateIds.length })
            : t('rates.massEditScope', { count: matching })
        }
      />
      <Form layout="vertical" data-testid="mass-edit-form">
        {columns.map((c) => {
          const ch = changes[c] ?? { action: 'no_change' };
          const err = errors[`changes.${c}.value`] ?? errors[`changes.${c}`];
          return (
            <Form.Item
              key={c}
              label={t(RATE_COLUMN_LABEL[c])}
              validateStatus={err ? 'error' : undefined}
              help={err}
            >
              <Space.Compact style={{ width: '100%' }}>
                <Select
                  style={{ width: 180 }}
                  value={ch.action}
                  onChange={(action) => set(c, { action })}
                  data-testid={`mass-edit-action-${c}`}
                  options={api.rates.MASS_EDIT_ACTIONS.map((a) => ({
                    value: a,
                    label: t(`rates.massEditActions.${a}`),
                  }))}
                />
                <Input
                  disabled={ch.action === 'no_change'}
                  value={ch.value ?? ''}
                  onChange={(e) => set(c, { value: e.target.value })}
                  placeholder={t('rates.value')}
                  data-testid={`mass-edit-value-${c}`}
                />
              </Space.Compact>
            </Form.Item>
          );
        })}
      </Form>
    </Modal>
  );
}
