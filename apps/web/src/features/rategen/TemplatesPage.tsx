import { HistoryOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from '../routing/shared';
import './i18n';

type Row = api.rateGeneration.TemplateRow;

const resource = crudListResource<Row>(api.rateGeneration.template, {
  key: 'rate-generation-templates',
  title: 'rategen.title',
  rowKey: 'id',
  route: '/tools/rate_generation',
  nameOf: (r) => r.name,
  columns: [
    { key: 'name', title: 'rategen.name', sortable: true },
    {
      key: 'rate_table_type',
      title: 'rategen.rateTableType',
      sortable: true,
      render: (r, t) => t(`rategen.rateTypes.${r.rate_table_type}`),
    },
    {
      key: 'lcr_basis',
      title: 'rategen.lcrBasis',
      sortable: true,
      render: (r, t) =>
        r.lcr_basis === 'average'
          ? `${t('rategen.lcrBases.average')} (N = ${r.average_count})`
          : t(`rategen.lcrBases.${r.lcr_basis}`),
    },
    { key: 'egress_trunk_names', title: 'rategen.trunks', render: (r) => r.egress_trunk_names.join(', ') },
    {
      key: 'code_deck_name',
      title: 'rategen.codeDeck',
      render: (r, t) => r.code_deck_name ?? t('rategen.allVendorCodes'),
    },
    { key: 'default_rate', title: 'rategen.defaultRate', render: (r) => r.default_rate ?? '—' },
    { key: 'decimal_places', title: 'rategen.decimalPlaces' },
    {
      key: 'last_generated_at',
      title: 'rategen.lastGenerated',
      sortable: true,
      render: (r) => when(r.last_generated_at) || '—',
    },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
  defaultSort: { by: 'name', dir: 'asc' },
});

/** Tools > Rate Generation: the templates, with Generate (a background job) and the way to the history. */
export default function TemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const generate = async (r: Row) => {
    try {
      const started = await call(
        api.rateGeneration.generate,
        { params: { id: r.id }, body: {} },
        { errorMode: 'inline' },
      );
      flash(t('rategen.generateStarted', { id: started.object_id }));
      navigate(`/tools/rate_generation/history?template_id=${r.id}`);
    } catch {
      /* the toast says why */
    }
  };
  return (
    <ResourceList
      resource={resource}
      toolbar={
        <Link to="/tools/rate_generation/history">
          <Button icon={<HistoryOutlined />} data-testid="open-history">
            {t('rategen.openHistory')}
          </Button>
        </Link>
      }
      extraActions={(r) => (
        <Tooltip title={t('rategen.generate')}>
          <Button
            size="small"
            type="text"
            icon={<ThunderboltOutlined />}
            aria-label={t('rategen.generate')}
            onClick={() => void generate(r)}
            data-testid={`generate-${r.id}`}
          />
        </Tooltip>
      )}
    />
  );
}
