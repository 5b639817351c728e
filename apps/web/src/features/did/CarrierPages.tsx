import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { ResourceForm, type FormResource } from '../../components/resource/ResourceForm';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { formatMoneyText } from '../../lib/money';
import { useRuleOptions } from './RulesPages';
import './i18n';

type VendorRow = z.infer<typeof api.did.vendorRow>;
type ClientRow = z.infer<typeof api.did.clientRow>;

const vendors: ListResource<VendorRow> = {
  key: 'did-vendors',
  title: 'did.vendors',
  list: api.did.listVendors,
  rowKey: 'carrier_id',
  csvName: 'did-vendors',
  newPath: '/origination/vendors/new',
  editPath: (r) => `/origination/vendors/edit/${r.carrier_id}`,
  columns: [
    { key: 'name', title: 'did.name', sortable: true },
    { key: 'hosts', title: 'did.hosts', render: (r) => r.hosts.join(', '), csv: (r) => r.hosts.join(' ') },
    { key: 'tech_prefix', title: 'did.techPrefix' },
    { key: 'call_limit', title: 'did.callLimit' },
    { key: 'billing_rule_name', title: 'did.billingRule' },
    {
      key: 'did_count',
      title: 'did.didCount',
      sortable: true,
      render: (r) => <Link to={`/origination/did_repository?vendor_id=${r.carrier_id}`}>{r.did_count}</Link>,
    },
    { key: 'balance', title: 'did.balance', render: (r) => formatMoneyText(r.balance) },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
};

export function VendorsPage() {
  return <ResourceList resource={vendors} />;
}

const pick = (row: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k]]));

export function VendorEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const ruleOptions = useRuleOptions();
  const media = (['bypass', 'proxy', 'transcoding'] as const).map((v) => ({
    value: v,
    label: t(`did.mediaTypes.${v}`),
  }));
  const keys = [
    'name',
    'call_limit',
    'tech_prefix',
    'decimal_places',
    'billing_rule_id',
    'media_type',
    'auth_type',
    'hosts',
  ];
  const resource: FormResource<Record<string, unknown>> = {
    key: 'did-vendor',
    titleNew: 'did.newVendor',
    titleEdit: 'did.editVendor',
    listPath: '/origination/vendors',
    initial: {
      name: '',
      call_limit: null,
      tech_prefix: '',
      decimal_places: 4,
      billing_rule_id: null,
      media_type: 'proxy',
      auth_type: 'ip',
      hosts: [],
    },
    createSchema: api.did.vendorBody,
    updateSchema: api.did.updateVendor.body!,
    load: async (vid) =>
      pick((await call(api.did.getVendor, { params: { id: vid } })) as Record<string, unknown>, keys),
    create: (v) => call(api.did.createVendor, { body: v as never }, { errorMode: 'inline' }),
    update: (vid, v) =>
      call(api.did.updateVendor, { params: { id: vid }, body: v as never }, { errorMode: 'inline' }),
    tabs: [
      {
        key: 'general',
        title: 'did.general',
        fields: [
          { name: 'name', label: 'did.name', kind: 'text', required: true },
          { name: 'call_limit', label: 'did.callLimit', kind: 'number' },
          { name: 'tech_prefix', label: 'did.techPrefix', kind: 'text' },
          { name: 'decimal_places', label: 'did.decimalPlaces', kind: 'number' },
          { name: 'billing_rule_id', label: 'did.billingRule', kind: 'select', options: ruleOptions },
          { name: 'media_type', label: 'did.mediaType', kind: 'select', options: media },
        ],
      },
      {
        key: 'auth',
        title: 'did.authorization',
        fields: [
          {
            name: 'auth_type',
            label: 'did.authType',
            kind: 'select',
            options: (['ip', 'host'] as const).map((v) => ({ value: v, label: t(`did.authTypes.${v}`) })),
          },
          { name: 'hosts', label: 'did.hosts', kind: 'tags' },
        ],
      },
    ],
  };
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}

const clients: ListResource<ClientRow> = {
  key: 'did-clients',
  title: 'did.clients',
  list: api.did.listClients,
  rowKey: 'carrier_id',
  csvName: 'did-clients',
  newPath: '/origination/clients/new',
  editPath: (r) => `/origination/clients/edit/${r.carrier_id}`,
  columns: [
    { key: 'name', title: 'did.name', sortable: true },
    { key: 'company', title: 'did.company' },
    { key: 'hosts', title: 'did.hosts', render: (r) => r.hosts.join(', '), csv: (r) => r.hosts.join(' ') },
    { key: 'mode', title: 'did.mode', render: (r, t) => t(`did.modes.${r.mode}`) },
    { key: 'billing_rule_name', title: 'did.billingRule' },
    { key: 'did_product_name', title: 'did.product' },
    {
      key: 'did_count',
      title: 'did.didCount',
      sortable: true,
      render: (r) => <Link to={`/origination/did_repository?client_id=${r.carrier_id}`}>{r.did_count}</Link>,
    },
    { key: 'balance', title: 'did.balance', render: (r) => formatMoneyText(r.balance) },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
};

export function ClientsPage() {
  return <ResourceList resource={clients} />;
}

export function ClientEditPage() {
  const { t } = useTranslation();
  const { id, info_type } = useParams();
  const ruleOptions = useRuleOptions();
  const productList = useApi(api.did.product.list, { query: { per_page: 999 } as never });
  const productOptions = ((productList.data?.items ?? []) as { id: number; name: string }[]).map((p) => ({
    value: p.id,
    label: p.name,
  }));
  const media = (['bypass', 'proxy', 'transcoding'] as const).map((v) => ({
    value: v,
    label: t(`did.mediaTypes.${v}`),
  }));
  const keys = [
    'name',
    'company',
    'main_email',
    'address',
    'mode',
    'credit_limit',
    'test_credit',
    'media_type',
    't38',
    'auth_type',
    'hosts',
    'round_up',
    'channels',
    'grace_days',
    'billing_rule_id',
    'did_product_id',
    'buy_needs_approval',
    'signin_notification',
  ];
  const resource: FormResource<Record<string, unknown>> = {
    key: 'did-client',
    titleNew: 'did.newClient',
    titleEdit: 'did.editClient',
    listPath: '/origination/clients',
    initial: {
      name: '',
      company: '',
      main_email: '',
      address: '',
      mode: 'prepaid',
      credit_limit: '0',
      test_credit: '0',
      media_type: 'proxy',
      t38: false,
      auth_type: 'host',
      hosts: [],
      round_up: false,
      channels: 0,
      grace_days: 7,
      billing_rule_id: null,
      did_product_id: null,
      buy_needs_approval: false,
      signin_notification: false,
      username: '',
      password: '',
    },
    createSchema: api.did.clientBody,
    updateSchema: api.did.updateClient.body!,
    load: async (cid) => {
      const row = (await call(api.did.getClient, { params: { id: cid } })) as Record<string, unknown>;
      return { ...pick(row, keys), username: row.username ?? '', password: '' };
    },
    create: (v) => call(api.did.createClient, { body: v as never }, { errorMode: 'inline' }),
    update: (cid, v) =>
      call(api.did.updateClient, { params: { id: cid }, body: v as never }, { errorMode: 'inline' }),
    tabs: [
      {
        key: 'info',
        title: 'did.general',
        fields: [
          { name: 'name', label: 'did.name', kind: 'text', required: true },
          { name: 'company', label: 'did.company', kind: 'text' },
          { name: 'main_email', label: 'did.email', kind: 'email' },
          { name: 'address', label: 'did.address', kind: 'textarea' },
          {
            name: 'mode',
            label: 'did.mode',
            kind: 'select',
            options: (['prepaid', 'postpaid'] as const).map((v) => ({
              value: v,
              label: t(`did.modes.${v}`),
            })),
          },
          { name: 'credit_limit', label: 'did.creditLimit', kind: 'text' },
          { name: 'test_credit', label: 'did.testCredit', kind: 'text' },
          { name: 'billing_rule_id', label: 'did.billingRule', kind: 'select', options: ruleOptions },
          { name: 'did_product_id', label: 'did.product', kind: 'select', options: productOptions },
          { name: 'channels', label: 'did.channels', kind: 'number' },
          { name: 'round_up', label: 'did.roundUp', kind: 'switch' },
          { name: 'grace_days', label: 'did.graceDays', kind: 'number' },
        ],
      },
      {
        key: 'auth',
        title: 'did.authorization',
        fields: [
          {
            name: 'auth_type',
            label: 'did.authType',
            kind: 'select',
            options: (['host', 'registration'] as const).map((v) => ({
              value: v,
              label: t(`did.authTypes.${v}`),
            })),
          },
          { name: 'hosts', label: 'did.hosts', kind: 'tags' },
          { name: 'media_type', label: 'did.mediaType', kind: 'select', options: media },
          { name: 't38', label: 'did.t38', kind: 'switch' },
        ],
      },
      {
        key: 'portal',
        title: 'did.portal',
        fields: [
          { name: 'username', label: 'did.username', kind: 'text' },
          { name: 'password', label: 'did.password', kind: 'password' },
          { name: 'buy_needs_approval', label: 'did.buyNeedsApproval', kind: 'switch' },
          { name: 'signin_notification', label: 'did.signinNotification', kind: 'switch' },
        ],
      },
    ],
  };
  return <ResourceForm resource={resource} id={id ? Number(id) : null} initialTab={info_type} />;
}
