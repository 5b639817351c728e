import { api, type PortalBlockRow } from '@tandem/contract';
import { Button, Form, Input, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useSignedIn } from '../../app/session';
import { useListState } from '../rates/useListState';
import { when } from './shared';
import './i18n';

interface Values {
  field: 'ani' | 'dnis';
  match: 'exact' | 'prefix';
  number: string;
  trunk_id: number | 'all';
  note: string;
}

/**
 * The portal's Block List (`/clients/termination/block_list`): the carrier blocks numbers itself, on
 * all its trunks or one: an ANI it does not want to send (on its trunks to us the call is refused),
 * a DNIS it does not want to receive (on its trunks from us it is skipped). Routing applies an
 * entry within a second. The server keeps each carrier to its own entries and trunks.
 */
export default function PortalBlockListPage() {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const { user } = useSignedIn();
  const vendor = user.client?.client_type === 'vendor';
  const [form] = Form.useForm<Values>();
  const ls = useListState({ orderBy: 'number' });
  const f = ls.filters;
  const list = useApi(api.routing.listPortalBlocks, {
    query: {
      ...ls.query,
      ...(f.field ? { field: f.field } : {}),
      ...(f.number ? { number: f.number } : {}),
    } as never,
  });
  const trunks = useApi(api.trunks.trunk.list, { query: { page: 0, per_page: 100 } as never });
  const add = useApiMutation(api.routing.createPortalBlock, [api.routing.listPortalBlocks]);
  const remove = useApiMutation(api.routing.deletePortalBlock, [api.routing.listPortalBlocks]);

  const submit = async (v: Values) => {
    await add.mutateAsync({
      body: {
        field: v.field,
        match: v.match,
        number: v.number.trim(),
        trunk_id: v.trunk_id === 'all' ? null : v.trunk_id,
        note: v.note,
      },
    });
    flash(t('routing.portalBlockAdded', { number: v.number.trim() }));
    form.setFieldsValue({ number: '', note: '' });
  };

  return (
    <div>
      <div className="page-head">
        <h1>{t('routing.blockList')}</h1>
      </div>
      <p className="muted">{t(vendor ? 'routing.portalBlockHintVendor' : 'routing.portalBlockHint')}</p>
      <Form<Values>
        form={form}
        layout="inline"
        style={{ rowGap: 8, marginBottom: 16 }}
        initialValues={{
          field: vendor ? 'dnis' : 'ani',
          match: 'prefix',
          number: '',
          trunk_id: 'all',
          note: '',
        }}
        onFinish={(v) => void submit(v)}
        data-testid="block-form"
      >
        <Form.Item name="field">
          <Select
            style={{ width: 110 }}
            data-testid="block-field"
            options={api.routing.BLOCK_FIELDS.map((x) => ({ value: x, label: x.toUpperCase() }))}
          />
        </Form.Item>
        <Form.Item name="match">
          <Select
            style={{ width: 120 }}
            data-testid="block-match"
            options={api.routing.BLOCK_MATCHES.map((x) => ({ value: x, label: t(`routing.matches.${x}`) }))}
          />
        </Form.Item>
        <Form.Item name="number" rules={[{ required: true, message: t('routing.portalNumberRequired') }]}>
          <Input
            placeholder={t('routing.number')}
            style={{ width: 180 }}
            inputMode="numeric"
            data-testid="block-number"
          />
        </Form.Item>
        <Form.Item name="trunk_id">
          <Select
            style={{ width: 220 }}
            data-testid="block-trunk"
            options={[
              { value: 'all', label: t('routing.portalAllTrunks') },
              ...(trunks.data?.items ?? []).map((tr) => ({ value: tr.trunk_id, label: tr.name })),
            ]}
          />
        </Form.Item>
        <Form.Item name="note">
          <Input placeholder={t('routing.note')} style={{ width: 200 }} data-testid="block-note" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="block-add">
          {t('routing.portalBlockAdd')}
        </Button>
      </Form>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('routing.number')}
          defaultValue={f.number}
          onSearch={(v) => ls.setFilter('number', v.trim() || null)}
          style={{ width: 200 }}
          data-testid="filter-number"
        />
        <Select
          allowClear
          placeholder={t('routing.blockField')}
          value={f.field}
          onChange={(v?: string) => ls.setFilter('field', v ?? null)}
          style={{ width: 140 }}
          options={api.routing.BLOCK_FIELDS.map((x) => ({ value: x, label: x.toUpperCase() }))}
        />
      </Space>
      <Table<PortalBlockRow>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="portal-blocks"
        onRow={(r) => ({ 'data-testid': `block-${r.number}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg) => ls.onTableChange(pg, [])}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'field',
            title: t('routing.blockField'),
            render: (_, r) => <Tag color={r.field === 'ani' ? 'gold' : 'cyan'}>{r.field.toUpperCase()}</Tag>,
          },
          { key: 'number', title: t('routing.number'), render: (_, r) => <code>{r.number}</code> },
          { key: 'match', title: t('routing.match'), render: (_, r) => t(`routing.matches.${r.match}`) },
          {
            key: 'trunk',
            title: t('routing.scope'),
            render: (_, r) => r.trunk_name ?? <Tag>{t('routing.portalAllTrunks')}</Tag>,
          },
          { key: 'note', title: t('routing.note'), dataIndex: 'note' },
          { key: 'created_at', title: t('routing.createdAt'), render: (_, r) => when(r.created_at) },
          {
            key: 'actions',
            title: '',
            render: (_, r) => (
              <Button
                size="small"
                danger
                data-testid="block-remove"
                onClick={async () => {
                  if (
                    !(await confirm({
                      title: t('routing.portalBlockRemoveConfirm', { number: r.number }),
                      danger: true,
                    }))
                  )
                    return;
                  await remove.mutateAsync({ params: { id: r.id } });
                  flash(t('routing.portalBlockRemoved', { number: r.number }));
                }}
              >
                {t('routing.portalBlockRemove')}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}
