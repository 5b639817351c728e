import { UnorderedListOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from '../routing/shared';
import './i18n';

type Row = api.routingExtras.DigitalMapRow;
const detail = (r: Row) => `/routing/digital_maps/digit_mapping_detail/${r.digital_map_id}`;

const resource = crudListResource<Row>(api.routingExtras.digitalMap, {
  key: 'digital-maps',
  title: 'routingx.digitalMaps',
  rowKey: 'digital_map_id',
  route: '/routing/digital_maps',
  nameOf: (r) => r.name,
  columns: [
    {
      key: 'name',
      title: 'routingx.name',
      sortable: true,
      render: (r) => (
        <Link to={detail(r)} data-testid={`map-${r.name}`}>
          {r.name}
        </Link>
      ),
    },
    { key: 'item_count', title: 'routingx.items', sortable: true },
    {
      key: 'trunks',
      title: 'routingx.trunks',
      csv: (r) => r.trunks.map((t) => `${t.trunk_name} (${t.direction})`).join('; '),
      render: (r, t) =>
        r.trunks.length === 0 ? (
          <span style={{ color: '#8893a0' }}>{t('routingx.noTrunks')}</span>
        ) : (
          <Space size={4} wrap>
            {r.trunks.map((x) => (
              <Tag key={x.trunk_id} color={x.direction === 'ingress' ? 'blue' : 'purple'}>
                {x.trunk_name} · {t(`routingx.directions.${x.direction}`)}
              </Tag>
            ))}
          </Space>
        ),
    },
    { key: 'note', title: 'routingx.note' },
    { key: 'updated_at', title: 'routingx.updatedAt', sortable: true, render: (r) => when(r.updated_at) },
    { key: 'updated_by', title: 'routingx.updatedBy' },
  ],
  filters: [{ name: 'name', title: 'routingx.name', kind: 'text' }],
  defaultSort: { by: 'name', dir: 'asc' },
});

/** Routing > Digital Maps: named maps of digit-mapping items and the trunks using them. */
export default function DigitalMapsPage() {
  const { t } = useTranslation();
  return (
    <ResourceList
      resource={resource}
      extraActions={(r) => (
        <Tooltip title={t('routingx.items')}>
          <Link to={detail(r)}>
            <Button
              size="small"
              type="text"
              icon={<UnorderedListOutlined />}
              aria-label={t('routingx.items')}
              data-testid={`items-${r.digital_map_id}`}
            />
          </Link>
        </Tooltip>
      )}
    />
  );
}
