import { api, type CrudEndpoints, type Endpoint } from '@tandem/contract';

/**
 * Where the one media IP block list is served: Routing > Inbound Media IP Blocking and Monitoring >
 * Media IP Blocking (same table, same engine rule, each under its own permission). The list and
 * edit pages take one of these instead of being copied per menu.
 */
export interface MediaIpSite {
  /** The key of the list's cached query and CSV name. */
  key: string;
  crud: CrudEndpoints;
  upload: Endpoint;
  /** The list's route; new and edit are under it. */
  route: string;
  /** i18n key of the list's title. */
  title: string;
}

export const MEDIA_IP_SITES = {
  routing: {
    key: 'inbound-media-ip',
    crud: api.routingExtras.mediaIpBlock,
    upload: api.routingExtras.uploadMediaIpBlocks,
    route: '/routing/inbound_media_ip_blocking',
    title: 'routingx.mediaIp',
  },
  monitoring: {
    key: 'monitoring-media-ip',
    crud: api.monitoring.mediaIpBlock,
    upload: api.monitoring.uploadMediaIpBlocks,
    route: api.monitoring.MEDIA_IP_FUNC,
    title: 'monitoring.mediaIp',
  },
} satisfies Record<string, MediaIpSite>;
export type MediaIpSiteName = keyof typeof MEDIA_IP_SITES;
