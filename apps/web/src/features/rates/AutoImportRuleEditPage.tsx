import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { Spinner } from '../../components/Spinner';
import './i18n';

/** Tools > Auto Rate Import Rules new and edit. */
export default function AutoImportRuleEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const tables = useApi(
    api.rates.rateTable.list,
    { query: { per_page: 9999, order_by: 'name' } },
    { callOptions: { errorMode: 'inline' } },
  );
  const templates = useApi(
    api.rates.uploadTemplate.list,
    { query: { per_page: 9999, order_by: 'name' } },
    { callOptions: { errorMode: 'inline' } },
  );
  const resource = useMemo(
    () =>
      crudFormResource(api.rates.autoImportRule, {
        key: 'auto-rate-import-rule',
        titleNew: 'rates.newAutoImportRule',
        titleEdit: 'rates.editAutoImportRule',
        listPath: '/tools/auto_rate_import_rules',
        initial: {
          name: '',
          rate_table_id: undefined as unknown as number,
          template_id: null,
          email_subject: '',
          is_active: true,
        },
        tabs: [
          {
            key: 'general',
            title: 'rates.general',
            fields: [
              { name: 'name', label: 'rates.name', kind: 'text', required: true },
              {
                name: 'rate_table_id',
                label: 'rates.rateTable',
                kind: 'select',
                required: true,
                options: (tables.data?.items ?? []).map((x) => ({ value: x.rate_table_id, label: x.name })),
              },
              {
                name: 'template_id',
                label: 'rates.template',
                kind: 'select',
                options: [
                  { value: 0, label: t('common.useNoTemplate') },
                  ...(templates.data?.items ?? []).map((x) => ({ value: x.id, label: x.name })),
                ],
              },
              { name: 'email_subject', label: 'rates.emailSubject', kind: 'text' },
              { name: 'is_active', label: 'common.active', kind: 'switch' },
            ],
          },
        ],
        fromRow: (r) =>
          ({
            name: r.name,
            rate_table_id: r.rate_table_id,
            template_id: r.template_id ?? 0,
            email_subject: r.email_subject,
            is_active: r.is_active,
          }) as never,
      }),
    [tables.data, templates.data, t],
  );
  if (tables.isLoading || templates.isLoading) return <Spinner />;
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
