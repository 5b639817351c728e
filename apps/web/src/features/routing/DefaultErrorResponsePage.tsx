import { api } from '@tandem/contract';
import { Alert, Button, Card, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import './i18n';

type Response = z.output<typeof api.routing.getDefaultError.payload>['responses'][number];

/** Configuration > Global Route Error: the SIP code and reason phrase answered for each reason the engine refuses a call. */
export default function DefaultErrorResponsePage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const current = useApi(api.routing.getDefaultError);
  const [rows, setRows] = useState<Response[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (current.data) setRows(current.data.responses);
  }, [current.data]);
  const set = (i: number, patch: Partial<Response>) =>
    setRows(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const save = async () => {
    setErrors({});
    try {
      await call(
        api.routing.setDefaultError,
        { body: { responses: rows.map(({ reason, code, clause }) => ({ reason, code, clause })) } },
        { errorMode: 'inline' },
      );
      flash(t('common.modifiedSuccessfully'));
      await current.refetch();
    } catch (e) {
      if (e instanceof ApiError && e.errors) setErrors(e.errors);
    }
  };
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.defaultError')}</h1>}>
      <Space direction="vertical" style={{ width: '100%' }} size={16}>
        <Alert type="info" showIcon message={t('routing.errorHelp')} />
        <Table
          rowKey="reason"
          size="small"
          pagination={false}
          loading={current.isLoading}
          dataSource={rows}
          data-testid="error-responses"
          columns={[
            {
              key: 'reason',
              title: t('routing.rejectReason'),
              render: (_, r) => (
                <Space direction="vertical" size={0}>
                  <span>{t(`routing.reasons.${r.reason}`)}</span>
                  <Typography.Text type="secondary" code>
                    {r.reason}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              key: 'code',
              title: t('routing.sipCode'),
              render: (_, r, i) => (
                <Space>
                  <InputNumber
                    min={400}
                    max={699}
                    value={r.code}
                    status={errors[`responses.${i}.code`] ? 'error' : undefined}
                    onChange={(v) => set(i, { code: v ?? r.default_code })}
                    data-testid={`error-code-${r.reason}`}
                  />
                  {r.code !== r.default_code && (
                    <Typography.Text type="secondary">
                      {t('routing.defaultIs', { code: r.default_code })}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              key: 'clause',
              title: t('routing.returnClause'),
              render: (_, r, i) => (
                <Input
                  placeholder={r.reason}
                  value={r.clause}
                  onChange={(e) => set(i, { clause: e.target.value })}
                  data-testid={`error-clause-${r.reason}`}
                />
              ),
            },
          ]}
        />
        <Space>
          <Button type="primary" onClick={() => void save()} data-testid="errors-save">
            {t('common.save')}
          </Button>
          <Button
            onClick={() => setRows(rows.map((r) => ({ ...r, code: r.default_code, clause: '' })))}
            data-testid="errors-reset"
          >
            {t('routing.resetDefaults')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
