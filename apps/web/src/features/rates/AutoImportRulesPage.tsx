import { UploadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ActiveTag, ResourceList } from '../../components/resource/ResourceList';
import './i18n';
import { RateImportDialog } from './RateImportDialog';

type Row = z.infer<typeof api.rates.autoImportRuleRow>;

const resource = crudListResource<Row>(api.rates.autoImportRule, {
  key: 'auto-rate-import-rules',
  title: 'rates.autoImportRules',
  rowKey: 'id',
  route: '/tools/auto_rate_import_rules',
  nameOf: (r) => r.name,
  isActive: (r) => r.is_active,
  columns: [
    { key: 'name', title: 'rates.name', sortable: true },
    { key: 'rate_table_name', title: 'rates.rateTable', sortable: true },
    {
      key: 'template_name',
      title: 'rates.template',
      render: (r, t) => r.template_name ?? t('common.useNoTemplate'),
    },
    { key: 'email_subject', title: 'rates.emailSubject' },
    { key: 'is_active', title: 'common.active', render: (r, t) => <ActiveTag active={r.is_active} t={t} /> },
    {
      key: 'last_import_at',
      title: 'rates.lastImport',
      render: (r) => r.last_import_at?.replace('T', ' ').slice(0, 16) ?? '—',
    },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
  defaultSort: { by: 'name', dir: 'asc' },
});

/** Tools > Auto Rate Import Rules: rules (rate table, upload template, e-mail subject) and their upload path. */
export default function AutoImportRulesPage() {
  const { t } = useTranslation();
  const [rule, setRule] = useState<Row | null>(null);
  return (
    <>
      <ResourceList
        resource={resource}
        extraActions={(r) => (
          <Tooltip title={t('rates.uploadFile')}>
            <Button
              size="small"
              type="text"
              icon={<UploadOutlined />}
              aria-label={t('rates.uploadFile')}
              disabled={!r.is_active}
              onClick={() => setRule(r)}
              data-testid={`rule-upload-${r.id}`}
            />
          </Tooltip>
        )}
      />
      <RateImportDialog
        open={rule !== null}
        onClose={() => setRule(null)}
        title={rule ? `${t('rates.uploadFile')}: ${rule.name} → ${rule.rate_table_name}` : ''}
        url={api.rates.uploadByRule.path.replace(':id', String(rule?.id ?? 0))}
        onDone={() => undefined}
      />
    </>
  );
}
