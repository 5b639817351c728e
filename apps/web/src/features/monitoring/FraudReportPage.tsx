import { api } from '@tandem/contract';
import { Tag, Typography } from 'antd';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { when } from '../routing/shared';
import { figuresText } from './parts';
import './i18n';

type Row = api.monitoring.FraudReportRow;

const resource: ListResource<Row> = {
  key: 'fraud-report',
  title: 'monitoring.fraudReport',
  list: api.monitoring.fraudReport,
  rowKey: 'id',
  csvName: 'fraud-report',
  defaultSort: { by: 'at', dir: 'desc' },
  refetchMs: 30_000,
  columns: [
    { key: 'at', title: 'monitoring.at', sortable: true, render: (r) => when(r.at) },
    { key: 'rule_name', title: 'monitoring.rule', sortable: true },
    { key: 'trunk_name', title: 'monitoring.trunk', sortable: true },
    { key: 'carrier_name', title: 'monitoring.carrier' },
    { key: 'subject', title: 'monitoring.ani' },
    { key: 'detail', title: 'monitoring.detail' },
    {
      key: 'figures',
      title: 'monitoring.figures',
      csv: (r) => figuresText(r.figures),
      render: (r) => (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {figuresText(r.figures)}
        </Typography.Text>
      ),
    },
    {
      key: 'block_active',
      title: 'monitoring.blockActive',
      csv: (r) => (r.block_id === null ? '' : r.block_active ? `active ${r.blocked_until ?? ''}` : 'lifted'),
      render: (r, t) =>
        r.block_id === null ? (
          t('monitoring.noBlock')
        ) : r.block_active ? (
          <Tag color="red">
            {t('monitoring.blockStill', {
              until: r.blocked_until ? when(r.blocked_until) : t('monitoring.untilLifted'),
            })}
          </Tag>
        ) : (
          <Tag color="green">{t('monitoring.blockLifted')}</Tag>
        ),
    },
  ],
};

/** Statistics > Fraud Report: every time a fraud detection rule fired, with the figures and the block. */
export default function FraudReportPage() {
  return <ResourceList resource={resource} />;
}
