import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { z } from 'zod';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { MEDIA_IP_SITES, type MediaIpSiteName } from './mediaIpSites';
import './i18n';

/** An empty expiry is "never". */
const noExpiry = (v: unknown) =>
  typeof v === 'object' && v !== null && (v as Record<string, unknown>).expires_at === ''
    ? { ...v, expires_at: null }
    : v;

/** New / Edit of a media IP block, at one of the places the menus offer the list. */
export function MediaIpEditForm({ site }: { site: MediaIpSiteName }) {
  const { id } = useParams();
  const resource = useMemo(() => {
    const s = MEDIA_IP_SITES[site];
    const e = s.crud;
    const base = crudFormResource(e, {
      key: 'media-ip',
      titleNew: 'routingx.newMediaIp',
      titleEdit: 'routingx.editMediaIp',
      listPath: s.route,
      initial: { ip: '', note: '', expires_at: '' },
      fromRow: (r) => ({
        ip: r.ip as string,
        note: r.note as string,
        expires_at: (r.expires_at as string | null) ?? '',
      }),
      tabs: [
        {
          key: 'general',
          title: s.title,
          fields: [
            { name: 'ip', label: 'routingx.ip', kind: 'text', required: true, help: 'routingx.ipHelp' },
            { name: 'expires_at', label: 'routingx.expiresAt', kind: 'text', help: 'routingx.expiresHelp' },
            { name: 'note', label: 'routingx.note', kind: 'text' },
          ],
        },
      ],
    });
    return {
      ...base,
      createSchema: z.preprocess(noExpiry, e.create.body!),
      updateSchema: z.preprocess(noExpiry, e.updateBody),
    };
  }, [site]);
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}

/** Routing > Inbound Media IP Blocking > New / Edit. */
export default function MediaIpEditPage() {
  return <MediaIpEditForm site="routing" />;
}
