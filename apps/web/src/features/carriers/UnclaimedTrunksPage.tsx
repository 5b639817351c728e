import { api } from '@tandem/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { ActiveTag, ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import '../trunks/i18n';
import './i18n';

type Row = z.output<typeof api.trunks.unclaimedRow>;

/** Termination > Unclaimed Trunks: trunks that cannot carry traffic, with why. */
export default function UnclaimedTrunksPage() {
  const { t } = useTranslation();
  const resource: ListResource<Row> = {
    key: 'unclaimed',
    title: 'carriers.unclaimedTrunks',
    list: api.trunks.unclaimedTrunks,
    rowKey: 'trunk_id',
    csvName: 'unclaimed-trunks',
    defaultSort: { by: 'name', dir: 'asc' },
    editPath: (r) => `/routing/trunks/edit/${r.trunk_id}/${r.direction}`,
    columns: [
      {
        key: 'name',
        title: 'carriers.trunk',
        sortable: true,
        render: (r) => (
          <Link to={`/routing/trunks/edit/${r.trunk_id}/${r.direction}`} data-testid={`unclaimed-${r.name}`}>
            {r.name}
          </Link>
        ),
      },
      {
        key: 'direction',
        title: 'carriers.direction',
        sortable: true,
        render: (r, tt) => tt(`trunks.directions.${r.direction}`),
      },
      {
        key: 'carrier_name',
        title: 'carriers.carrier',
        sortable: true,
        render: (r) => <Link to={`/termination/clients/edit/${r.carrier_id}/basic`}>{r.carrier_name}</Link>,
      },
      {
        key: 'is_active',
        title: 'common.status',
        render: (r, tt) => <ActiveTag active={r.is_active} t={tt} />,
      },
      {
        key: 'reasons',
        title: 'carriers.reason',
        render: (r, tt) =>
          r.reasons.map((x) => (
            <Tag key={x} color="orange">
              {tt(`carriers.reasons.${x}`)}
            </Tag>
          )),
        csv: (r) => r.reasons.join(' '),
      },
    ],
    filters: [
      { name: 'name', title: 'common.search', kind: 'text' },
      {
        name: 'direction',
        title: 'carriers.direction',
        kind: 'select',
        options: api.trunks.DIRECTIONS.map((d) => ({ value: d, label: t(`trunks.directions.${d}`) })),
      },
      {
        name: 'reason',
        title: 'carriers.reason',
        kind: 'select',
        options: api.trunks.UNCLAIMED_REASONS.map((r) => ({ value: r, label: t(`carriers.reasons.${r}`) })),
      },
    ],
  };
  return <ResourceList resource={resource} />;
}
