import { api } from '@tandem/contract';
import { Button, Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import './i18n';

/** Routing > Routing Plan > Usage details: ingress trunks, trunk routing rows and products that use the plan. */
export default function PlanUsagePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const usage = useApi(api.routing.planUsage, { params: { id } });
  const items = usage.data?.items ?? [];
  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>
          {t('routing.usageOf', { name: usage.data?.plan.name ?? '' })}
        </h1>
      }
      extra={
        <Link to={`/routing/routing_plan/details/${id}`}>
          <Button data-testid="to-prefixes">{t('routing.prefixes')}</Button>
        </Link>
      }
    >
      <Table
        rowKey={(r) => `${r.kind}-${r.id}`}
        loading={usage.isLoading}
        dataSource={items}
        pagination={false}
        data-testid="plan-usage"
        columns={[
          {
            key: 'kind',
            title: t('routing.usedBy'),
            render: (_, r) => <Tag>{t(`routing.usageKinds.${r.kind}`)}</Tag>,
          },
          {
            key: 'name',
            title: t('routing.name'),
            render: (_, r) =>
              r.trunk_id ? (
                <Link to={`/routing/trunks/edit/${r.trunk_id}/ingress`}>{r.name}</Link>
              ) : r.kind === 'product' ? (
                <Link to={`/termination/products/edit/${r.id}`}>{r.name}</Link>
              ) : (
                r.name
              ),
          },
          { key: 'carrier_name', title: t('routing.carrier'), dataIndex: 'carrier_name' },
          { key: 'tech_prefix', title: t('routing.techPrefix'), dataIndex: 'tech_prefix' },
        ]}
        locale={{ emptyText: t('routing.notUsed') }}
      />
    </Card>
  );
}
