import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { z } from 'zod';
import { crudFormResource, crudListResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { ResourceList } from '../../components/resource/ResourceList';
import { useApi } from '../../api/queries';
import { formatMoneyText } from '../../lib/money';
import './i18n';

type RuleRow = z.infer<typeof api.did.billingRuleRow>;
type ProductRow = z.infer<typeof api.did.productRow>;

const rules = crudListResource<RuleRow>(api.did.billingRule, {
  key: 'did-billing-rules',
  title: 'did.billingRules',
  rowKey: 'id',
  route: '/origination/billing_rule',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'did.name', sortable: true },
    { key: 'type', title: 'did.type', render: (r, t) => t(`did.types.${r.type}`) },
    {
      key: 'monthly_price',
      title: 'did.monthlyPrice',
      render: (r) => formatMoneyText(r.monthly_price, { decimals: 4 }),
    },
    {
      key: 'per_minute',
      title: 'did.perMinute',
      render: (r) => formatMoneyText(r.per_minute, { decimals: 4 }),
    },
    {
      key: 'per_channel',
      title: 'did.perChannel',
      render: (r) => formatMoneyText(r.per_channel, { decimals: 4 }),
    },
    { key: 'setup_fee', title: 'did.setupFee', render: (r) => formatMoneyText(r.setup_fee, { decimals: 4 }) },
    { key: 'did_count', title: 'did.didCount', sortable: true },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
});

export function BillingRulesPage() {
  return <ResourceList resource={rules} />;
}

export function BillingRuleEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const resource = crudFormResource(api.did.billingRule, {
    key: 'did-billing-rule',
    titleNew: 'did.newBillingRule',
    titleEdit: 'did.editBillingRule',
    listPath: '/origination/billing_rule',
    initial: {
      name: '',
      type: 'fixed',
      monthly_price: '0',
      per_minute: '0',
      per_channel: '0',
      setup_fee: '0',
    },
    tabs: [
      {
        key: 'general',
        title: 'did.general',
        fields: [
          { name: 'name', label: 'did.name', kind: 'text', required: true },
          {
            name: 'type',
            label: 'did.type',
            kind: 'select',
            options: (['fixed', 'variable'] as const).map((v) => ({ value: v, label: t(`did.types.${v}`) })),
          },
          { name: 'monthly_price', label: 'did.monthlyPrice', kind: 'text' },
          { name: 'per_minute', label: 'did.perMinute', kind: 'text' },
          { name: 'per_channel', label: 'did.perChannel', kind: 'text' },
          { name: 'setup_fee', label: 'did.setupFee', kind: 'text' },
        ],
      },
    ],
  });
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}

const products = crudListResource<ProductRow>(api.did.product, {
  key: 'did-products',
  title: 'did.products',
  rowKey: 'id',
  route: '/origination/did_product',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'did.name', sortable: true },
    { key: 'billing_rule_name', title: 'did.billingRule' },
    { key: 'description', title: 'did.description' },
    { key: 'client_count', title: 'did.clientCount' },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
});

export function ProductsPage() {
  return <ResourceList resource={products} />;
}

/** Billing rules as select options. */
export function useRuleOptions() {
  const r = useApi(api.did.billingRule.list, { query: { per_page: 999, order_by: 'name' } as never });
  return ((r.data?.items ?? []) as RuleRow[]).map((x) => ({ value: x.id, label: x.name }));
}

export function ProductEditPage() {
  const { id } = useParams();
  const ruleOptions = useRuleOptions();
  const resource = crudFormResource(api.did.product, {
    key: 'did-product',
    titleNew: 'did.newProduct',
    titleEdit: 'did.editProduct',
    listPath: '/origination/did_product',
    initial: { name: '', billing_rule_id: null, description: '' },
    tabs: [
      {
        key: 'general',
        title: 'did.general',
        fields: [
          { name: 'name', label: 'did.name', kind: 'text', required: true },
          {
            name: 'billing_rule_id',
            label: 'did.billingRule',
            kind: 'select',
            required: true,
            options: ruleOptions,
          },
          { name: 'description', label: 'did.description', kind: 'textarea' },
        ],
      },
    ],
  });
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
