import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const maps = lazy(() => import('./DigitalMapsPage'));
const mapEdit = lazy(() => import('./DigitalMapEditPage'));
const mapDetail = lazy(() => import('./DigitMapDetailPage'));
const itemEdit = lazy(() => import('./DigitMapItemEditPage'));
const mediaIp = lazy(() => import('./MediaIpBlockingPage'));
const mediaIpEdit = lazy(() => import('./MediaIpEditPage'));
const ocn = lazy(() => import('./OcnBlockListPage'));
const ocnEdit = lazy(() => import('./OcnEditPage'));

/** Routing extras at the paths of spec 02 section 2 (digital maps, inbound media IP blocking, STIOCN block list). */
export const routingExtrasRoutes: RouteDef[] = [
  { path: '/routing/digital_maps', title: 'routingx.digitalMaps', page: maps },
  { path: '/routing/digital_maps/new', title: 'routingx.newMap', page: mapEdit },
  { path: '/routing/digital_maps/edit/:id', title: 'routingx.editMap', page: mapEdit },
  { path: '/routing/digital_maps/digit_mapping_detail/:id', title: 'routingx.mapDetail', page: mapDetail },
  { path: '/routing/digital_maps/edit/:id/:it', title: 'routingx.editItem', page: itemEdit },
  { path: '/routing/inbound_media_ip_blocking', title: 'routingx.mediaIp', page: mediaIp },
  { path: '/routing/inbound_media_ip_blocking/new', title: 'routingx.newMediaIp', page: mediaIpEdit },
  { path: '/routing/inbound_media_ip_blocking/edit/:id', title: 'routingx.editMediaIp', page: mediaIpEdit },
  { path: '/routing/STIOCN_Block_List', title: 'routingx.ocnList', page: ocn },
  { path: '/routing/STIOCN_Block_List/new', title: 'routingx.newOcn', page: ocnEdit },
  { path: '/routing/STIOCN_Block_List/edit/:id', title: 'routingx.editOcn', page: ocnEdit },
];
