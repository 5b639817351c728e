import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Alert, Button, Card, Input, InputNumber, Select, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import './i18n';

type Rule = z.input<typeof api.routing.defaultFailoverRule>;

/**
 * Configuration > Default Failover Rule: what a vendor's SIP failure does when its trunk has no rule
 * for the code: try the next vendor, or return a code (and clause) to the customer.
 */
export default function DefaultFailoverPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const current = useApi(api.routing.getDefaultFailover);
  const [rules, setRules] = useState<Rule[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (current.data) setRules(current.data.rules);
  }, [current.data]);
  const set = (i: number, patch: Partial<Rule>) =>
    setRules(rules.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const save = async () => {
    setErrors({});
    try {
      await call(
        api.routing.setDefaultFailover,
        {
          body: {
            rules: rules.map((r) => ({
              ...r,
              return_code: r.action === 'return' ? (r.return_code ?? null) : null,
              return_clause: r.action === 'return' ? r.return_clause || null : null,
            })),
          },
        },
        { errorMode: 'inline' },
      );
      flash(t('common.modifiedSuccessfully'));
      await current.refetch();
    } catch (e) {
      if (e instanceof ApiError && e.errors) setErrors(e.errors);
    }
  };
  const err = (i: number, f: string) => errors[`rules.${i}.${f}`];
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.defaultFailover')}</h1>}>
      <Space direction="vertical" style={{ width: '100%' }} size={16}>
        <Alert type="info" showIcon message={t('routing.failoverHelp')} />
        <Table
          rowKey={(_, i) => String(i)}
          size="middle"
          pagination={false}
          loading={current.isLoading}
          dataSource={rules}
          data-testid="failover-rules"
          locale={{ emptyText: t('routing.noFailoverRules') }}
          columns={[
            {
              key: 'sip_code',
              title: t('routing.sipCode'),
              render: (_, r, i) => (
                <Space direction="vertical" size={0}>
                  <InputNumber
                    min={300}
                    max={699}
                    value={r.sip_code}
                    status={err(i, 'sip_code') ? 'error' : undefined}
                    onChange={(v) => set(i, { sip_code: v ?? 0 })}
                    data-testid={`failover-code-${i}`}
                  />
                  {err(i, 'sip_code') && (
                    <span style={{ color: '#cf1322', fontSize: 12 }}>{err(i, 'sip_code')}</span>
                  )}
                </Space>
              ),
            },
            {
              key: 'action',
              title: t('routing.failoverAction'),
              render: (_, r, i) => (
                <Select
                  style={{ width: 200 }}
                  value={r.action}
                  onChange={(v: 'next' | 'return') => set(i, { action: v })}
                  options={[
                    { value: 'next', label: t('routing.tryNext') },
                    { value: 'return', label: t('routing.returnToCustomer') },
                  ]}
                  data-testid={`failover-action-${i}`}
                />
              ),
            },
            {
              key: 'return_code',
              title: t('routing.returnCode'),
              render: (_, r, i) => (
                <InputNumber
                  min={300}
                  max={699}
                  disabled={r.action !== 'return'}
                  placeholder={String(r.sip_code)}
                  value={r.return_code ?? null}
                  onChange={(v) => set(i, { return_code: v })}
                  data-testid={`failover-return-${i}`}
                />
              ),
            },
            {
              key: 'return_clause',
              title: t('routing.returnClause'),
              render: (_, r, i) => (
                <Input
                  disabled={r.action !== 'return'}
                  value={r.return_clause ?? ''}
                  onChange={(e) => set(i, { return_clause: e.target.value })}
                  data-testid={`failover-clause-${i}`}
                />
              ),
            },
            {
              key: 'x',
              width: 60,
              render: (_, _r, i) => (
                <Button
                  danger
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  onClick={() => setRules(rules.filter((_x, k) => k !== i))}
                  data-testid={`failover-remove-${i}`}
                />
              ),
            },
          ]}
        />
        <Space>
          <Button
            icon={<PlusOutlined />}
            onClick={() =>
              setRules([...rules, { sip_code: 503, action: 'next', return_code: null, return_clause: null }])
            }
            data-testid="failover-add"
          >
            {t('routing.addRule')}
          </Button>
          <Button type="primary" onClick={() => void save()} data-testid="failover-save">
            {t('common.save')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
