import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { InlineEditActions } from '../../components/EditDeleteActions';
import { UploadWidget } from '../../components/UploadWidget';
import './i18n';
import { useListState } from './useListState';

type Code = z.infer<typeof api.rates.codeRow>;
const NEW = '__new__';

/** Configuration > Code Deck > codes of one deck: search, add, edit and delete codes; import a deck file. */
export default function CodeDeckCodesPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const qc = useQueryClient();
  const { confirm, flash } = useFeedback();
  const [form] = Form.useForm<{ code: string; code_name: string; country: string }>();
  const [editing, setEditing] = useState<string | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const ls = useListState({ orderBy: 'code' });
  const deck = useApi(api.rates.codeDeck.get, { params: { id } });
  const list = useApi(api.rates.listCodes, { params: { id }, query: ls.query as never });
  const refresh = () =>
    qc.invalidateQueries({ queryKey: [api.rates.listCodes.method, api.rates.listCodes.path] });

  const startEdit = (c: Code | null) => {
    setEditing(c ? c.code : NEW);
    form.setFieldsValue(c ?? { code: '', code_name: '', country: '' });
  };
  const save = async () => {
    const v = form.getFieldsValue();
    try {
      if (editing === NEW)
        await call(api.rates.createCode, { params: { id }, body: v }, { errorMode: 'inline' });
      else if (editing)
        await call(
          api.rates.updateCode,
          { params: { id, code: editing }, body: { code_name: v.code_name, country: v.country } },
          { errorMode: 'inline' },
        );
      flash(t(editing === NEW ? 'common.createdSuccessfully' : 'common.modifiedSuccessfully'));
      setEditing(null);
      await refresh();
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors).map(([name, msg]) => ({ name: name as 'code', errors: [msg] })),
        );
    }
  };
  const remove = async (c: Code) => {
    if (!(await confirm({ title: t('common.deleteConfirm', { name: c.code }), danger: true }))) return;
    await call(api.rates.deleteCode, { params: { id, code: c.code } }, { errorMode: 'inline' });
    flash(t('common.deletedSuccessfully'));
    await refresh();
  };

  const cell = (name: 'code' | 'code_name' | 'country', c: Code, disabled = false) =>
    editing !== null && (editing === c.code || (editing === NEW && c.code === NEW)) ? (
      <Form.Item name={name} style={{ margin: 0 }}>
        <Input
          size="small"
          disabled={disabled}
          data-testid={`code-input-${name}`}
          onPressEnter={() => void save()}
        />
      </Form.Item>
    ) : (
      c[name]
    );
  const rows: Code[] = [
    ...(editing === NEW ? [{ code: NEW, code_name: '', country: '', usage_count: 0 }] : []),
    ...(list.data?.items ?? []),
  ];

  return (
    <div>
      <div className="page-head">
        <h1>{t('rates.codesOf', { name: deck.data?.name ?? '' })}</h1>
        <Space wrap>
          <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="import-codes">
            {t('rates.importCodes')}
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => startEdit(null)}
            disabled={editing !== null}
            data-testid="add-code"
          >
            {t('rates.addCode')}
          </Button>
        </Space>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        {(['code', 'code_name', 'country'] as const).map((f) => (
          <Input.Search
            key={f}
            allowClear
            placeholder={t(
              f === 'code'
                ? 'rates.searchCode'
                : f === 'code_name'
                  ? 'rates.searchName'
                  : 'rates.searchCountry',
            )}
            defaultValue={ls.filters[f]}
            onSearch={(v) => ls.setFilter(f, v)}
            style={{ width: 200 }}
            data-testid={`filter-${f}`}
          />
        ))}
      </Space>
      <Form form={form} component={false}>
        <Table<Code>
          rowKey="code"
          size="small"
          loading={list.isLoading}
          dataSource={rows}
          data-testid="list-codes"
          onRow={(r) => ({ 'data-testid': `code-row-${r.code}` }) as React.HTMLAttributes<HTMLElement>}
          onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
          pagination={ls.pagination(list.data?.total ?? 0)}
          columns={[
            {
              key: 'code',
              title: t('rates.code'),
              sorter: true,
              sortOrder: ls.sortOrder('code'),
              render: (_, c) => cell('code', c, editing !== NEW),
            },
            {
              key: 'code_name',
              title: t('rates.codeName'),
              sorter: true,
              sortOrder: ls.sortOrder('code_name'),
              render: (_, c) => cell('code_name', c),
            },
            {
              key: 'country',
              title: t('rates.country'),
              sorter: true,
              sortOrder: ls.sortOrder('country'),
              render: (_, c) => cell('country', c),
            },
            { key: 'usage_count', title: t('rates.usageCount'), dataIndex: 'usage_count' },
            {
              key: '_actions',
              title: t('common.actions'),
              width: 160,
              render: (_, c) => (
                <InlineEditActions
                  editingThis={
                    editing !== null && (editing === c.code || (editing === NEW && c.code === NEW))
                  }
                  editingOther={editing !== null}
                  onSave={() => void save()}
                  onCancel={() => setEditing(null)}
                  savePrefix="code"
                  onEdit={() => startEdit(c)}
                  onDelete={() => void remove(c)}
                  testId={`code-${c.code}`}
                />
              ),
            },
          ]}
        />
      </Form>
      <Modal
        open={importOpen}
        title={t('rates.importCodes')}
        footer={null}
        onCancel={() => setImportOpen(false)}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <span>{t('rates.mode')}</span>
            <Select
              value={mode}
              onChange={setMode}
              style={{ width: 220 }}
              data-testid="code-import-mode"
              options={(['merge', 'replace'] as const).map((m) => ({
                value: m,
                label: t(`rates.modes.${m}`),
              }))}
            />
          </Space>
          <UploadWidget
            url={api.rates.importCodes.path.replace(':id', String(id))}
            accept={['csv', 'xlsx']}
            maxFiles={1}
            fields={{ mode }}
            expectedHeaders={['code', 'code_name', 'country']}
            showStartButton
            testId="code-upload"
            onSuccess={(_f, r) => {
              const c = r as unknown as { inserted_rows: number; updated_rows: number; deleted_rows: number };
              flash(
                t('rates.codesImported', {
                  inserted: c.inserted_rows,
                  updated: c.updated_rows,
                  deleted: c.deleted_rows,
                }),
              );
              setImportOpen(false);
              void refresh();
            }}
          />
        </Space>
      </Modal>
    </div>
  );
}
