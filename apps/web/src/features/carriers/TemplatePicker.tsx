import type { Endpoint } from '@tandem/contract';
import { Button, Card, Empty, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { Spinner } from '../../components/Spinner';
import './i18n';

/** Pick a template, then continue to the new-record form that starts from it (?template={id}). */
export function TemplatePicker({
  title,
  list,
  newPath,
  templatesPath,
}: {
  title: string;
  list: Endpoint;
  newPath: string;
  templatesPath: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [picked, setPicked] = useState<number | null>(null);
  const q = useApi(list, { query: { page: 0, per_page: 9999, order_by: 'name', order_dir: 'asc' } } as never);
  if (q.isLoading) return <Spinner />;
  const items = (
    (q.data as { items?: { template_id: number; name: string }[] } | undefined)?.items ?? []
  ).map((i) => ({ value: i.template_id, label: i.name }));
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t(title)}</h1>} style={{ maxWidth: 560 }}>
      {items.length === 0 ? (
        <Empty description={t('carriers.noTemplates')}>
          <Button onClick={() => navigate(templatesPath)}>{t('carriers.carrierTemplates')}</Button>
        </Empty>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <label htmlFor="template-select">{t('carriers.chooseTemplate')}</label>
          <Select
            id="template-select"
            style={{ width: '100%' }}
            options={items}
            value={picked}
            onChange={setPicked}
            showSearch
            optionFilterProp="label"
            data-testid="template-select"
          />
          <Space>
            <Button
              type="primary"
              disabled={picked === null}
              onClick={() => navigate(`${newPath}?template=${picked}`)}
              data-testid="template-continue"
            >
              {t('carriers.continue')}
            </Button>
            <Button onClick={() => navigate(-1)}>{t('common.cancel')}</Button>
          </Space>
        </Space>
      )}
    </Card>
  );
}
