import type { api } from '@tandem/contract';
import { Tag } from 'antd';
import { useMemo } from 'react';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from '../routing/shared';
import { BlockUpload } from './BlockUpload';
import { MEDIA_IP_SITES, type MediaIpSiteName } from './mediaIpSites';
import './i18n';

type Row = z.output<typeof api.routingExtras.mediaIpBlockRow>;

function mediaIpResource(site: MediaIpSiteName) {
  const s = MEDIA_IP_SITES[site];
  return crudListResource<Row>(s.crud, {
    key: s.key,
    title: s.title,
    rowKey: 'id',
    route: s.route,
    nameOf: (r) => r.ip,
    columns: [
      { key: 'ip', title: 'routingx.ip', sortable: true, render: (r) => <code>{r.ip}</code> },
      {
        key: 'expired',
        title: 'common.status',
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
        title: 'common.status',
        kind: 'select',
        options: [
          { value: 'active', label: 'routingx.statuses.active' },
          { value: 'expired', label: 'routingx.statuses.expired' },
        ],
      },
    ],
    defaultSort: { by: 'created_at', dir: 'desc' },
  });
}

/**
 * The media IP block list (addresses and ranges whose calls the engine refuses, 403
 * source_ip_blocked) with its upload, at one of the places the menus offer it.
 */
export function MediaIpBlockingList({ site, upload = false }: { site: MediaIpSiteName; upload?: boolean }) {
  const resource = useMemo(() => mediaIpResource(site), [site]);
  const s = MEDIA_IP_SITES[site];
  return (
    <ResourceList
      resource={resource}
      toolbar={
        <BlockUpload
          url={s.upload.path}
          list={s.crud.list}
          expectedHeaders={['ip', 'note', 'expires_at']}
          help="routingx.uploadHelpIp"
          testId="media-ip-upload"
          defaultOpen={upload}
        />
      }
    />
  );
}

/** Routing > Inbound Media IP Blocking. */
export default function MediaIpBlockingPage() {
  return <MediaIpBlockingList site="routing" />;
}
