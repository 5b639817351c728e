import { ApartmentOutlined, DollarOutlined, MailOutlined, SettingOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import './i18n';

type Row = z.infer<typeof api.rates.rateTableRow>;

const resource: ListResource<Row> = {
  ...crudListResource<Row>(api.rates.rateTable, {
    key: 'rate-tables',
    title: 'rates.rateTables',
    rowKey: 'rate_table_id',
    route: '/routing/rate_table',
    nameOf: (r) => r.name,
    columns: [
      { key: 'name', title: 'rates.name', sortable: true },
      {
        key: 'rate_type',
        title: 'rates.rateType',
        sortable: true,
        render: (r, t) => t(`rates.rateTypes.${r.rate_type}`),
      },
      {
        key: 'code_deck_name',
        title: 'rates.codeDeck',
        sortable: true,
        render: (r) => r.code_deck_name ?? '—',
      },
      { key: 'currency', title: 'rates.currency', sortable: true },
      {
        key: 'billing_method',
        title: 'rates.billingMethod',
        render: (r, t) => t(`rates.billingMethods.${r.billing_method}`),
      },
      { key: 'decimal_places', title: 'rates.decimalPlaces' },
      { key: 'rate_count', title: 'rates.rateCount', sortable: true },
      {
        key: 'usage_count',
        title: 'rates.usageCount',
        sortable: true,
        render: (r) =>
          r.usage_count > 0 ? (
            <Link
              to={`/routing/trunks/rate_table/${r.rate_table_id}`}
              data-testid={`usage-${r.rate_table_id}`}
            >
              {r.usage_count}
            </Link>
          ) : (
            0
          ),
      },
      {
        key: 'updated_at',
        title: 'rates.updated',
        sortable: true,
        render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
      },
    ],
    filters: [
      { name: 'name', title: 'common.search', kind: 'text' },
      {
        name: 'rate_type',
        title: 'rates.rateType',
        kind: 'select',
        options: api.rates.RATE_TYPES.map((v) => ({ value: v, label: v })),
      },
    ],
    defaultSort: { by: 'name', dir: 'asc' },
  }),
  editPath: (r) => `/routing/rate_table/editing_ratetable/${r.rate_table_id}`,
};

/** Routing > Rate Table: the tables; each opens its rate editing page. */
export default function RateTablesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ResourceList
      resource={resource}
      extraActions={(r) => (
        <>
          <Tooltip title={t('rates.viewRates')}>
            <Button
              size="small"
              type="text"
              icon={<DollarOutlined />}
              aria-label={t('rates.viewRates')}
              data-testid={`rates-${r.rate_table_id}`}
              onClick={() => navigate(`/routing/rate_table/editing_rates/${r.rate_table_id}`)}
            />
          </Tooltip>
          <Tooltip title={t('rates.sendRate')}>
            <Button
              size="small"
              type="text"
              icon={<MailOutlined />}
              aria-label={t('rates.sendRate')}
              data-testid={`send-${r.rate_table_id}`}
              onClick={() =>
                navigate(
                  `/template/send_rate/rate_table/${encodeURIComponent(r.name)}/${r.rate_type}/${r.rate_table_id}`,
                )
              }
            />
          </Tooltip>
          <Tooltip title={t('rates.assignToTrunks')}>
            <Button
              size="small"
              type="text"
              icon={<ApartmentOutlined />}
              aria-label={t('rates.assignToTrunks')}
              data-testid={`assign-${r.rate_table_id}`}
              onClick={() => navigate(`/routing/rate_table/assign_rate_deck/${r.rate_table_id}`)}
            />
          </Tooltip>
          {r.code_deck_id !== null && (
            <Tooltip title={t('rates.viewCodes')}>
              <Button
                size="small"
                type="text"
                icon={<SettingOutlined />}
                aria-label={t('rates.viewCodes')}
                data-testid={`deck-${r.rate_table_id}`}
                onClick={() => navigate(`/configuration/code_deck_list/${r.code_deck_id}`)}
              />
            </Tooltip>
          )}
        </>
      )}
    />
  );
}
