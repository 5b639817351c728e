import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Radio, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { ActiveTag } from '../../components/resource/ResourceList';
import './i18n';

type Candidate = z.output<typeof api.rateReports.assignCandidate>;
type Direction = 'ingress' | 'egress';

/**
 * Routing > Rate Table > assign rate deck: pick ingress or egress trunks (by carrier), see which
 * already use the table, and make it the own rate table of the selected ones in one go.
 */
export default function AssignRateDeckPage() {
  const { t } = useTranslation();
  const id = Number(useParams().rateTableId);
  const qc = useQueryClient();
  const { flash } = useFeedback();
  const [direction, setDirection] = useState<Direction>('ingress');
  const [carrierId, setCarrierId] = useState<number | undefined>();
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const query = {
    direction,
    carrier_id: carrierId,
    name: name || undefined,
    page: 0,
    per_page: 10000,
    order_by: 'carrier_name',
    order_dir: 'asc' as const,
  };
  const candidates = useApi(api.rateReports.assignCandidates, { params: { id }, query });
  const carriers = useApi(api.carriers.carrier.list, {
    query: {
      page: 0,
      per_page: 9999,
      order_by: 'name',
      order_dir: 'asc',
      client_type: direction === 'ingress' ? 'client' : 'vendor',
    },
  });
  const data = candidates.data;

  const assign = async () => {
    setBusy(true);
    try {
      const r = await call(
        api.rateReports.assignRateDeck,
        { params: { id }, body: { trunk_ids: selected } },
        { errorMode: 'inline' },
      );
      flash(t('rateReports.assignedDone', r));
      setSelected([]);
      await qc.invalidateQueries({ queryKey: ['GET', api.rateReports.assignCandidates.path] });
    } catch {
      /* the toast names the rule */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>
          {t('rateReports.assignRateDeckTo', { name: data?.rate_table_name ?? '' })}
        </h1>
      }
      extra={
        <Link to={`/routing/rate_table/editing_rates/${id}`}>
          <Button>{t('rateReports.viewRates')}</Button>
        </Link>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Radio.Group
          value={direction}
          onChange={(e) => {
            setDirection(e.target.value as Direction);
            setCarrierId(undefined);
            setSelected([]);
          }}
          optionType="button"
          options={(['ingress', 'egress'] as const).map((d) => ({
            value: d,
            label: t(`rateReports.directions.${d}`),
          }))}
          data-testid="assign-direction"
        />
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('rateReports.carrier')}
          style={{ minWidth: 200 }}
          value={carrierId}
          onChange={(v?: number) => setCarrierId(v)}
          options={(carriers.data?.items ?? []).map((c) => ({ value: c.client_id, label: c.name }))}
          data-testid="assign-carrier"
        />
        <Input.Search
          allowClear
          placeholder={t('rateReports.trunkName')}
          onSearch={setName}
          style={{ width: 200 }}
          data-testid="assign-name"
        />
        <Button
          type="primary"
          disabled={!selected.length}
          loading={busy}
          onClick={() => void assign()}
          data-testid="assign-submit"
        >
          {t('rateReports.assignSelected', { count: selected.length })}
        </Button>
      </Space>
      {data && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('rateReports.tableBillingMethod', { method: data.billing_method.toUpperCase() })}
        />
      )}
      <Table<Candidate>
        rowKey="trunk_id"
        size="middle"
        loading={candidates.isLoading}
        dataSource={data?.items ?? []}
        pagination={{ defaultPageSize: 50, showSizeChanger: true }}
        data-testid="assign-trunks"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (r) => ({
            disabled: !r.is_active || r.uses_this,
            'data-testid': `select-${r.trunk_id}`,
          }),
        }}
        columns={[
          {
            key: 'name',
            title: t('rateReports.trunk'),
            render: (_, r) => <Link to={`/routing/trunks/edit/${r.trunk_id}/${r.direction}`}>{r.name}</Link>,
          },
          { key: 'carrier', title: t('rateReports.carrier'), dataIndex: 'carrier_name' },
          {
            key: 'state',
            title: t('common.status'),
            render: (_, r) =>
              r.is_active ? (
                <ActiveTag active t={t} />
              ) : (
                <Tooltip title={t('rateReports.inactiveTrunk')}>
                  <span>
                    <ActiveTag active={false} t={t} />
                  </span>
                </Tooltip>
              ),
          },
          { key: 'bill_by', title: t('rateReports.billBy'), render: (_, r) => r.bill_by.toUpperCase() },
          {
            key: 'table',
            title: t('rateReports.currentTable'),
            render: (_, r) => r.rate_table_name ?? <Tag color="red">{t('rateReports.noRateTable')}</Tag>,
          },
          {
            key: 'uses',
            title: t('rateReports.usesThis'),
            render: (_, r) =>
              r.uses_this ? (
                <Tag color="green" data-testid={`uses-${r.trunk_id}`}>
                  {t('common.yes')}
                </Tag>
              ) : (
                t('common.no')
              ),
          },
          ...(direction === 'ingress'
            ? [
                {
                  key: 'other',
                  title: t('rateReports.otherProductTables'),
                  render: (_: unknown, r: Candidate) => r.other_product_tables || '—',
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}
