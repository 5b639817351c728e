import { api, type BalanceCheckRow } from '@tandem/contract';
import { Alert, Button, Popconfirm, Space, Switch, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useListState } from '../rates/useListState';
import { useOrigination } from './ActualTransactionPage';
import './i18n';
import '../did/extras-i18n';

/**
 * Finance > Regenerate Balance: each carrier's stored balance beside the sum of its ledger
 * (mismatched only by default); Regenerate sets a balance (or every mismatched one) to its ledger
 * sum and records it as a 'regenerate' ledger row. Running it again changes nothing.
 */
export default function RegenerateBalancePage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  // Origination > Regenerate Balance: the same over the DID clients and vendors (their own calls).
  const origination = useOrigination();
  const x = origination
    ? { check: api.didExtras.checkBalances, regenerate: api.didExtras.regenerate, base: '/origination' }
    : { check: api.finance.checkBalances, regenerate: api.finance.regenerate, base: '/finance' };
  const ls = useListState({ orderBy: 'client_id' });
  const all = ls.filters.all === '1';
  const list = useApi(x.check as typeof api.finance.checkBalances, {
    query: { page: ls.query.page, per_page: ls.query.per_page, mismatched_only: !all } as never,
  });
  const regenerate = useApiMutation(x.regenerate as typeof api.finance.regenerate, [
    x.check,
    api.finance.listTransactions,
    api.didExtras.listTransactions,
  ]);
  const run = async (client_ids: number[]) => {
    const r = await regenerate.mutateAsync({ body: { client_ids } });
    flash(t('finance.regenerated', { count: r.regenerated.length }));
  };
  const mismatched = (list.data?.items ?? []).filter((r) => Number(r.difference) !== 0);
  return (
    <div>
      <div className="page-head">
        <h1>{t(origination ? 'didx.regenerate' : 'finance.regenerateBalance')}</h1>
        <Popconfirm
          title={t('finance.regenerateConfirm')}
          onConfirm={() => run([])}
          disabled={!mismatched.length}
        >
          <Button type="primary" disabled={!mismatched.length} data-testid="regenerate-all">
            {t('finance.regenerateAll')}
          </Button>
        </Popconfirm>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <Switch
          checked={!all}
          onChange={(v) => ls.setFilter('all', v ? null : '1')}
          data-testid="mismatched-only"
        />
        {t('finance.mismatchedOnly')}
      </Space>
      {list.data && !all && list.data.total === 0 && (
        <Alert
          type="success"
          showIcon
          message={t('finance.allAgree')}
          style={{ marginBottom: 12 }}
          data-testid="all-agree"
        />
      )}
      <Table<BalanceCheckRow>
        rowKey="client_id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="balance-checks"
        onRow={(r) => ({ 'data-testid': `balance-${r.client_id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg) => ls.onTableChange(pg, [])}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'name',
            title: t('finance.carrier'),
            render: (_, r) => (
              <Link to={`${x.base}/actual_transaction?client_id=${r.client_id}`}>{r.name}</Link>
            ),
          },
          { key: 'stored', title: t('finance.stored'), dataIndex: 'stored', align: 'right' },
          { key: 'ledger', title: t('finance.ledger'), dataIndex: 'ledger', align: 'right' },
          { key: 'difference', title: t('finance.difference'), dataIndex: 'difference', align: 'right' },
          { key: 'ledger_rows', title: t('finance.ledgerRows'), dataIndex: 'ledger_rows', align: 'right' },
          {
            key: 'action',
            title: '',
            render: (_, r) =>
              Number(r.difference) !== 0 && (
                <Popconfirm title={t('finance.regenerateConfirm')} onConfirm={() => run([r.client_id])}>
                  <Button size="small" data-testid={`regenerate-${r.client_id}`}>
                    {t('finance.regenerate')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </div>
  );
}
