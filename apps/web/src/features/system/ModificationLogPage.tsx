import { api } from '@tandem/contract';
import { Button, Modal, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { changesOf, maskSecrets } from './modification-diff';

type Row = z.infer<typeof api.log.modificationRow>;
const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(maskSecrets(v)));

/** The changed fields of a row: field, before, after (secrets masked). */
function Changes({ row }: { row: Row }) {
  const { t } = useTranslation();
  const changes = changesOf(row.before, row.after);
  if (!changes.length) return <span style={{ color: '#8893a0' }}>{t('system.noChange')}</span>;
  return (
    <table className="diff-table" data-testid={`changes-${row.id}`}>
      <tbody>
        {changes.map((c) => (
          <tr key={c.field}>
            <th>{c.field}</th>
            <td className="diff-before">{c.before}</td>
            <td className="diff-arrow">→</td>
            <td className="diff-after">{c.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const resource: ListResource<Row> = {
  key: 'modification-log',
  title: 'system.modificationLog',
  list: api.log.listModificationLog,
  rowKey: 'id',
  csvName: 'modification-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  columns: [
    {
      key: 'created_at',
      title: 'system.time',
      sortable: true,
      width: 170,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    { key: 'user_name', title: 'users.name', sortable: true, width: 120 },
    {
      key: 'entity',
      title: 'system.entity',
      sortable: true,
      width: 150,
      render: (r) => `${r.entity} #${r.entity_id}`,
    },
    { key: 'action', title: 'system.action', width: 120 },
    {
      key: 'changes',
      title: 'system.changes',
      csv: (r) =>
        changesOf(r.before, r.after)
          .map((c) => `${c.field}: ${c.before} -> ${c.after}`)
          .join('; '),
      render: (r) => <Changes row={r} />,
    },
  ],
  filters: [
    {
      name: 'entity',
      title: 'system.entity',
      kind: 'select',
      options: ['user', 'role', 'ticket', 'carrier', 'agent', 'system_setting', 'login_content', 'file'].map(
        (v) => ({ value: v, label: v }),
      ),
    },
  ],
};

export default function ModificationLogPage() {
  const { t } = useTranslation();
  const [raw, setRaw] = useState<Row | null>(null);
  return (
    <>
      <ResourceList
        resource={resource}
        extraActions={(r) => (
          <Button size="small" type="link" onClick={() => setRaw(r)} data-testid={`raw-${r.id}`}>
            {t('system.raw')}
          </Button>
        )}
      />
      <Modal
        open={raw !== null}
        onCancel={() => setRaw(null)}
        footer={null}
        width={760}
        title={raw ? `${raw.entity} #${raw.entity_id} · ${raw.action}` : ''}
      >
        {raw && (
          <Table
            size="small"
            pagination={false}
            rowKey="k"
            data-testid="raw-record"
            dataSource={[
              { k: 'before', label: t('system.before'), v: json(raw.before) },
              { k: 'after', label: t('system.after'), v: json(raw.after) },
            ]}
            columns={[
              { dataIndex: 'label', width: 90 },
              { dataIndex: 'v', render: (v: string) => <pre className="raw-json">{v}</pre> },
            ]}
            showHeader={false}
          />
        )}
      </Modal>
    </>
  );
}
