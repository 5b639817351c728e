import { api } from '@tandem/contract';
import { Button, Card, Form, Input, InputNumber, Progress, Radio, Select, Tabs, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { call, upload, ApiError } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { useRuleOptions } from './RulesPages';
import { errorText, time } from './shared';
import './i18n';

type Method = 'list' | 'range' | 'file';
type Result = z.infer<typeof api.did.importResult>;
type Queued = z.infer<typeof api.did.importQueued>;

/**
 * Origination > DID Upload (also Vendors > add DID): a vendor's numbers by list (one per line, at
 * most 1000), by range (at most 5000, the vendor billing rule mandatory) or by CSV file; duplicates
 * overwritten or ignored; all or nothing, with the server's message naming the bad line. A CSV file
 * is checked whole, then written by a job: its progress shows here and in the DID import log.
 */
export function UploadPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [method, setMethod] = useState<Method>('list');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [queued, setQueued] = useState<Queued | null>(null);
  const [form] = Form.useForm();
  const vendors = useApi(api.did.listVendors, { query: { per_page: 999, order_by: 'name' } as never });
  const ruleOptions = useRuleOptions();
  const submit = async () => {
    const v = form.getFieldsValue() as {
      vendor_id?: number;
      duplicate?: string;
      billing_rule_id?: number | null;
      numbers?: string;
      start?: string;
      count?: number;
    };
    setBusy(true);
    try {
      if (method === 'file') {
        const fd = new FormData();
        fd.append('vendor_id', String(v.vendor_id ?? ''));
        fd.append('duplicate', String(v.duplicate ?? 'ignore'));
        if (v.billing_rule_id) fd.append('billing_rule_id', String(v.billing_rule_id));
        if (file) fd.append('file', file, file.name);
        const q = (await upload(api.did.importDidFile.path, fd)) as unknown as Queued;
        setQueued(q);
        flash(t('did.importQueued', q));
      } else {
        const r: Result = await call(
          api.did.importDids,
          {
            body: {
              vendor_id: v.vendor_id,
              method,
              duplicate: v.duplicate ?? 'ignore',
              billing_rule_id: v.billing_rule_id ?? null,
              ...(method === 'list'
                ? { numbers: v.numbers ?? '' }
                : { start: v.start ?? '', count: v.count ?? 0 }),
            } as never,
          },
          { errorMode: 'inline' },
        );
        flash(t('did.imported', r));
      }
    } catch (e) {
      flash(e instanceof ApiError ? errorText(e) : String(e), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <div className="page-head">
        <h1>{t('did.upload')}</h1>
      </div>
      <Card>
        <Form form={form} layout="vertical" initialValues={{ duplicate: 'ignore' }} style={{ maxWidth: 560 }}>
          <Form.Item name="vendor_id" label={t('did.vendor')} required>
            <Select
              showSearch
              optionFilterProp="label"
              options={(vendors.data?.items ?? []).map((x) => ({ value: x.carrier_id, label: x.name }))}
              data-testid="upload-vendor"
            />
          </Form.Item>
          <Tabs
            activeKey={method}
            onChange={(k) => setMethod(k as Method)}
            items={(['list', 'range', 'file'] as const).map((m) => ({
              key: m,
              label: <span data-testid={`method-${m}`}>{t(`did.methods.${m}`)}</span>,
            }))}
          />
          {method === 'list' && (
            <Form.Item name="numbers" label={t('did.numbers')}>
              <Input.TextArea rows={8} data-testid="upload-numbers" />
            </Form.Item>
          )}
          {method === 'range' && (
            <>
              <Form.Item name="start" label={t('did.start')}>
                <Input data-testid="upload-start" />
              </Form.Item>
              <Form.Item name="count" label={t('did.count')}>
                <InputNumber min={1} max={5000} data-testid="upload-count" />
              </Form.Item>
            </>
          )}
          {method === 'file' && (
            <Form.Item label={t('did.file')}>
              <Upload
                accept=".csv"
                maxCount={1}
                beforeUpload={(f) => {
                  setFile(f);
                  return false;
                }}
                onRemove={() => setFile(null)}
              >
                <Button data-testid="upload-file">{t('did.file')}</Button>
              </Upload>
            </Form.Item>
          )}
          <Form.Item name="billing_rule_id" label={t('did.vendorRule')}>
            <Select allowClear options={ruleOptions} data-testid="upload-rule" />
          </Form.Item>
          <Form.Item name="duplicate" label={t('did.duplicate')}>
            <Radio.Group
              options={(['ignore', 'overwrite'] as const).map((d) => ({
                value: d,
                label: t(`did.duplicates.${d}`),
              }))}
            />
          </Form.Item>
          <Button type="primary" loading={busy} onClick={submit} data-testid="upload-submit">
            {t('did.import')}
          </Button>
        </Form>
        {queued && <ImportProgress key={queued.task_id} queued={queued} />}
      </Card>
    </div>
  );
}

/** A file import's progress, read from its import log row until it has finished or failed. */
function ImportProgress({ queued }: { queued: Queued }) {
  const { t } = useTranslation();
  const log = useApi(
    api.did.listImports,
    { query: { action: 'upload', per_page: 20, order_by: 'created_at', order_dir: 'desc' } as never },
    {
      refetchInterval: (q) => {
        const row = q.state.data?.items.find((r) => r.id === queued.task_id);
        return row && (row.status === 'finished' || row.status === 'failed') ? false : 1000;
      },
    },
  );
  const row = log.data?.items.find((r) => r.id === queued.task_id);
  const done = row?.done ?? 0;
  const status = row?.status ?? 'pending';
  return (
    <div style={{ marginTop: 16, maxWidth: 560 }} data-testid="import-progress">
      <Progress
        percent={queued.total ? Math.floor((done * 100) / queued.total) : 100}
        status={status === 'failed' ? 'exception' : status === 'finished' ? 'success' : 'active'}
      />
      <div data-testid="import-status">
        {status === 'finished' && row
          ? t('did.imported', { inserted: row.inserted, updated: row.updated, ignored: row.ignored })
          : status === 'failed'
            ? `${t('did.importFailed')}: ${row?.error ?? ''}`
            : t('did.importRunning', { done, total: queued.total })}
      </div>
    </div>
  );
}

type LogRow = z.infer<typeof api.did.importLogRow>;

export function ImportLogPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'upload' | 'delete'>('upload');
  const resource: ListResource<LogRow> = {
    key: `did-import-log-${tab}`,
    title: 'did.importLog',
    list: api.did.listImports,
    rowKey: 'id',
    csvName: 'did-import-log',
    fixedQuery: { action: tab },
    columns: [
      { key: 'created_at', title: 'did.at', render: (r) => time(r.created_at) },
      { key: 'method', title: 'did.method', render: (r, tt) => tt(`did.methods.${r.method}`) },
      { key: 'file_name', title: 'did.file' },
      { key: 'vendor_name', title: 'did.vendor' },
      { key: 'total', title: 'did.total' },
      { key: 'done', title: 'did.written' },
      { key: 'inserted', title: 'did.inserted' },
      { key: 'updated', title: 'did.updated' },
      { key: 'ignored', title: 'did.ignored' },
      { key: 'status', title: 'common.status' },
      { key: 'user_name', title: 'did.user' },
    ],
  };
  return (
    <div>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'upload' | 'delete')}
        items={[
          { key: 'upload', label: t('did.uploads') },
          { key: 'delete', label: t('common.delete') },
        ]}
      />
      <ResourceList key={tab} resource={resource} />
    </div>
  );
}

type RoutingRow = z.infer<typeof api.did.routingRow>;
const routing: ListResource<RoutingRow> = {
  key: 'did-routing',
  title: 'did.routing',
  list: api.did.listRouting,
  rowKey: 'did_id',
  csvName: 'did-routing',
  columns: [
    { key: 'number', title: 'did.number', sortable: true },
    { key: 'vendor_name', title: 'did.vendor' },
    { key: 'vendor_hosts', title: 'did.vendorHosts', render: (r) => r.vendor_hosts.join(', ') },
    { key: 'client_name', title: 'did.client', sortable: true },
    { key: 'trunk_name', title: 'did.clientTrunk' },
    { key: 'client_hosts', title: 'did.clientHosts', render: (r) => r.client_hosts.join(', ') },
    { key: 'suspended', title: 'did.suspended', render: (r, tt) => (r.suspended ? tt('did.suspended') : '') },
  ],
  filters: [{ name: 'number', title: 'did.number', kind: 'text' }],
};

export function RoutingPage() {
  return <ResourceList resource={routing} />;
}
