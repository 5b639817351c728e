import { UnorderedListOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.infer<typeof api.rates.codeDeckRow>;

const resource = crudListResource<Row>(api.rates.codeDeck, {
  key: 'code-decks',
  title: 'rates.codeDecks',
  rowKey: 'code_deck_id',
  route: '/configuration/code_deck',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'rates.name', sortable: true },
    {
      key: 'is_default',
      title: 'rates.isDefault',
      sortable: true,
      render: (r, t) => (r.is_default ? <Tag color="blue">{t('rates.isDefault')}</Tag> : null),
    },
    { key: 'code_count', title: 'rates.codeCount', sortable: true },
    { key: 'usage_count', title: 'rates.usageCount', sortable: true },
    {
      key: 'updated_at',
      title: 'rates.updated',
      sortable: true,
      render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
    },
    { key: 'updated_by', title: 'rates.updatedBy' },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
  defaultSort: { by: 'name', dir: 'asc' },
});

/** Configuration > Code Deck: decks with code and usage counts, one default. */
export default function CodeDecksPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ResourceList
      resource={resource}
      extraActions={(r) => (
        <Tooltip title={t('rates.viewCodes')}>
          <Button
            size="small"
            type="text"
            icon={<UnorderedListOutlined />}
            aria-label={t('rates.viewCodes')}
            data-testid={`codes-${r.code_deck_id}`}
            onClick={() => navigate(`/configuration/code_deck_list/${r.code_deck_id}`)}
          />
        </Tooltip>
      )}
    />
  );
}
