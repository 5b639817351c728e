import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const trunks = lazy(() => import('./TrunksPage'));
const trunkEdit = lazy(() => import('./TrunkEditPage'));
const fromTemplate = lazy(() => import('./TrunkFromTemplatePage'));
const templates = lazy(() => import('./TrunkTemplatesPage'));
const groups = lazy(() => import('./TrunkGroupsPage'));
const groupEdit = lazy(() => import('./TrunkGroupEditPage'));
const portalTrunks = lazy(() => import('./PortalTrunksPage'));

/** Trunks, trunk groups and trunk templates at the paths of spec 02 section 2 (wired through the carriers area). */
export const trunkRoutes: RouteDef[] = [
  // the client and vendor portal's own trunks (read only)
  { path: '/clients/termination/my_ip_address', title: 'menu.trunks', page: portalTrunks },
  { path: '/routing/trunks', title: 'trunks.trunks', page: trunks },
  { path: '/routing/trunks/ingress_by_routing_plan/:planId', title: 'trunks.ingressTrunks', page: trunks },
  { path: '/routing/trunks/rate_table/:rateTableId', title: 'trunks.trunks', page: trunks },
  { path: '/routing/trunks/rate_table/:type/:rateTableId', title: 'trunks.trunks', page: trunks },
  { path: '/routing/trunks/group_id/:eiType/:groupId', title: 'trunks.trunks', page: trunks },
  { path: '/routing/trunks/edit/:id/:type', title: 'trunks.editTrunk', page: trunkEdit },
  { path: '/routing/trunks/:type', title: 'trunks.trunks', page: trunks },
  { path: '/routing/trunks/:type/new', title: 'trunks.newIngress', page: trunkEdit },
  { path: '/routing/trunks/:type/new/:carrierId', title: 'trunks.newIngress', page: trunkEdit },
  { path: '/routing/trunks/:type/new_template', title: 'trunks.newFromTemplate', page: fromTemplate },
  { path: '/routing/trunks/:type/:groupId/list', title: 'trunks.trunks', page: trunks },
  { path: '/routing/egress_trunk/new', title: 'trunks.newEgress', page: trunkEdit },
  { path: '/routing/add_trunk/:type', title: 'trunks.newIngress', page: trunkEdit },
  { path: '/template/ingress_trunk_template', title: 'trunks.ingressTemplates', page: templates },
  { path: '/template/ingress_trunk_template/new', title: 'trunks.newTemplate', page: trunkEdit },
  { path: '/template/ingress_trunk_template/edit/:id', title: 'trunks.editTemplate', page: trunkEdit },
  { path: '/template/egress_trunk_template', title: 'trunks.egressTemplates', page: templates },
  { path: '/template/egress_trunk_template/new', title: 'trunks.newTemplate', page: trunkEdit },
  { path: '/template/egress_trunk_template/edit/:id', title: 'trunks.editTemplate', page: trunkEdit },
  { path: '/configuration/trunk_group', title: 'trunks.trunkGroups', page: groups },
  { path: '/configuration/trunk_group/:tab', title: 'trunks.trunkGroups', page: groups },
  { path: '/configuration/trunk_group/new/:type', title: 'trunks.newGroup', page: groupEdit },
  { path: '/configuration/trunk_group/edit/:type/:id', title: 'trunks.editGroup', page: groupEdit },
];
