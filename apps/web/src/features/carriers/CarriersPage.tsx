import { api } from '@tandem/contract';
import { Button, Tooltip } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { crudListResource } from '../../components/resource/crudResource';
import { ActiveTag, ResourceList } from '../../components/resource/ResourceList';
import './i18n';
import { formatMoneyText } from '../../lib/money';

/** /termination/client and /termination/vendor (also .../payment_term_id/{id}): carriers of one type. */
export default function CarriersPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { termId } = useParams();
  const type = pathname.startsWith('/termination/vendor') ? 'vendor' : 'client';
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline', quiet: true } });
  const resource = useMemo(
    () => ({
      ...crudListResource<api.carriers.CarrierRow>(api.carriers.carrier, {
        key: `carriers-${type}`,
        title: type === 'vendor' ? 'carriers.vendors' : 'carriers.clients',
        rowKey: 'client_id',
        route: '/termination/clients',
        nameOf: (r) => r.name,
        isActive: (r) => r.is_active,
        defaultSort: { by: 'name', dir: 'asc' },
        fixedQuery: { client_type: type, ...(termId ? { payment_term_id: termId } : {}) },
        columns: [
          {
            key: 'name',
            title: 'carriers.name',
            sortable: true,
            render: (r) => (
              <Link to={`/termination/clients/edit/${r.client_id}/basic`} data-testid={`carrier-${r.name}`}>
                {r.name}
              </Link>
            ),
          },
          { key: 'company', title: 'carriers.company', sortable: true },
          {
            key: 'company_type',
            title: 'carriers.companyType',
            render: (r, tt) => tt(`carriers.companyTypes.${r.company_type}`),
          },
          {
            key: 'mode',
            title: 'carriers.mode',
            sortable: true,
            render: (r, tt) => tt(`carriers.modes.${r.mode}`),
          },
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
            render: (r) => formatMoneyText(r.credit_limit),
            csv: (r) => r.credit_limit,
          },
          { key: 'payment_term_name', title: 'carriers.paymentTerm' },
          {
            key: 'trunk_count',
            title: 'carriers.trunks',
            sortable: true,
            render: (r) => <Link to={`/routing/trunks?carrier_id=${r.client_id}`}>{r.trunk_count}</Link>,
          },
          {
            key: 'is_active',
            title: 'common.status',
            sortable: true,
            render: (r, tt) => <ActiveTag active={r.is_active} t={tt} />,
            csv: (r) => (r.is_active ? 'active' : 'inactive'),
          },
        ],
        filters: [
          { name: 'name', title: 'common.search', kind: 'text' },
          {
            name: 'payment_term_id',
            title: 'carriers.paymentTerm',
            kind: 'select',
            options: (lk.data?.payment_terms ?? []).map((p) => ({ value: String(p.id), label: p.name })),
          },
          {
            name: 'company_type',
            title: 'carriers.companyType',
            kind: 'select',
            options: ['termination', 'origination'].map((v) => ({
              value: v,
              label: t(`carriers.companyTypes.${v}`),
            })),
          },
          { name: 'is_active', title: 'common.status', kind: 'boolean' },
        ],
      }),
      newPath: `/termination/clients/new/${type}`,
      editPath: (r: api.carriers.CarrierRow) => `/termination/clients/edit/${r.client_id}/basic`,
    }),
    [type, termId, lk.data, t],
  );
  return (
    <ResourceList
      key={type}
      resource={resource}
      toolbar={
        <Tooltip title={t('carriers.newFromTemplate')}>
          <Link
            to={type === 'vendor' ? '/termination/vendors/new_template' : '/termination/clients/new_template'}
          >
            <Button icon={<CopyOutlined />} data-testid="new-from-template">
              {t('carriers.chooseTemplate')}
            </Button>
          </Link>
        </Tooltip>
      }
    />
  );
}
