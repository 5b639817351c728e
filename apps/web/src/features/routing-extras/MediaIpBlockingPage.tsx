import { api } from '@tandem/contract';
import { Tag } from 'antd';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from '../routing/shared';
import { BlockUpload } from './BlockUpload';
import './i18n';

type Row = z.output<typeof api.routingExtras.mediaIpBlockRow>;
const x = api.routingExtras;

const resource = crudListResource<Row>(x.mediaIpBlock, {
  key: 'inbound-media-ip',
  title: 'routingx.mediaIp',
  rowKey: 'id',
  route: '/routing/inbound_media_ip_blocking',
  nameOf: (r) => r.ip,
  columns: [
    { key: 'ip', title: 'routingx.ip', sortable: true, render: (r) => <code>{r.ip}</code> },
    {
      key: 'expired',
      title: 'routingx.status',
      csv: (r) => (r.expired ? 'expired' : 'active'),
      render: (r, t) => (
        <Tag color={r.expired ? 'default' : 'red'}>
          {t(`routingx.statuses.${r.expired ? 'expired' : 'active'}`)}
        </Tag>
      ),
    },
    {
      key: 'expires_at',
      title: 'routingx.expiresAt',
      sortable: true,
      render: (r, t) => (r.expires_at ? when(r.expires_at) : t('routingx.never')),
    },
    { key: 'note', title: 'routingx.note' },
    { key: 'created_by', title: 'routingx.createdBy' },
    { key: 'created_at', title: 'routingx.createdAt', sortable: true, render: (r) => when(r.created_at) },
  ],
  filters: [
    { name: 'ip', title: 'routingx.ip', kind: 'text' },
    {
      name: 'status',
      title: 'routingx.status',
      kind: 'select',
      options: [
        { value: 'active', label: 'Blocking' },
        { value: 'expired', label: 'Expired' },
      ],
    },
  ],
  defaultSort: { by: 'created_at', dir: 'desc' },
});

/** Routing > Inbound Media IP Blocking: addresses and ranges whose calls the engine refuses (403 source_ip_blocked). */
export default function MediaIpBlockingPage() {
  return (
    <ResourceList
      resource={resource}
      toolbar={
        <BlockUpload
          url={x.uploadMediaIpBlocks.path}
          list={x.mediaIpBlock.list}
          expectedHeaders={['ip', 'note', 'expires_at']}
          help="routingx.uploadHelpIp"
          testId="media-ip-upload"
        />
      }
    />
  );
}
