import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const plans = lazy(() => import('./PlansPage'));
const planNew = lazy(() => import('./PlanNewPage'));
const planDetails = lazy(() => import('./PlanDetailsPage'));
const planUsage = lazy(() => import('./PlanUsagePage'));
const statics = lazy(() => import('./StaticRoutesPage'));
const staticNew = lazy(() => import('./StaticRouteNewPage'));
const staticRoute = lazy(() => import('./StaticRoutePage'));
const dynamics = lazy(() => import('./DynamicRoutesPage'));
const dynamicEdit = lazy(() => import('./DynamicRouteEditPage'));
const dynamicTrunks = lazy(() => import('./DynamicTrunksPage'));
const dynamicTrunkEdit = lazy(() => import('./DynamicTrunkEditPage'));
const qos = lazy(() => import('./QosParametersPage'));
const override = lazy(() => import('./OverridePage'));
const blockList = lazy(() => import('./BlockListPage'));
const blockEdit = lazy(() => import('./BlockListEditPage'));
const portalBlocks = lazy(() => import('./PortalBlockListPage'));
const failover = lazy(() => import('./DefaultFailoverPage'));
const errorResponse = lazy(() => import('./DefaultErrorResponsePage'));
const wizard = lazy(() => import('./WizardPage'));
const simulation = lazy(() => import('./CallSimulationPage'));
const analysis = lazy(() => import('./RoutingAnalysisPage'));
const engine = lazy(() => import('./EnginePage'));

/** Routes of the routing area (issue 3) at the paths of spec 02 section 2. */
export const routingRoutes: RouteDef[] = [
  { path: '/routing/routing_plan', title: 'routing.plans', page: plans },
  { path: '/routing/routing_plan/new', title: 'routing.newPlan', page: planNew },
  { path: '/routing/routing_plan/list_by_static/:id', title: 'routing.plansByStatic', page: plans },
  { path: '/routing/routing_plan/details/:id', title: 'routing.planDetails', page: planDetails },
  { path: '/routing/routing_plan/usage_details/:id', title: 'routing.usageDetails', page: planUsage },
  { path: '/routing/static_routing', title: 'routing.staticRoutes', page: statics },
  { path: '/routing/static_routing/new', title: 'routing.newStatic', page: staticNew },
  { path: '/routing/static_routing/by_egress/:egressId', title: 'routing.staticByEgress', page: statics },
  { path: '/routing/static_routing/details/:id/:name', title: 'routing.staticRoute', page: staticRoute },
  { path: '/routing/static_routing/:id', title: 'routing.staticRoute', page: staticRoute },
  { path: '/routing/dynamic_routing', title: 'routing.dynamicRoutes', page: dynamics },
  { path: '/routing/dynamic_routing/new', title: 'routing.newDynamic', page: dynamicEdit },
  { path: '/routing/dynamic_routing/edit/:id', title: 'routing.editDynamic', page: dynamicEdit },
  { path: '/routing/dynamic_routing/by_egress/:egressId', title: 'routing.dynamicByEgress', page: dynamics },
  { path: '/routing/dynamic_routing/:id/qos_parameters', title: 'routing.qosParameters', page: qos },
  {
    path: '/routing/dynamic_routing/:id/trunk_priority',
    title: 'routing.trunkPriority',
    page: dynamicTrunks,
  },
  {
    path: '/routing/dynamic_routing/:id/trunk_priority/new',
    title: 'routing.addTrunk',
    page: dynamicTrunkEdit,
  },
  {
    path: '/routing/dynamic_routing/:id/trunk_priority/:trunkId/edit',
    title: 'routing.editPoolTrunk',
    page: dynamicTrunkEdit,
  },
  { path: '/routing/dynamic_routing/override/:id', title: 'routing.override', page: override },
  { path: '/routing/block_list', title: 'routing.blockList', page: blockList },
  { path: '/routing/block_list/new', title: 'routing.newBlock', page: blockEdit },
  { path: '/routing/block_list/edit/:id', title: 'routing.editBlock', page: blockEdit },
  // the client and vendor portal's own block list
  { path: '/clients/termination/block_list', title: 'routing.blockList', page: portalBlocks },
  { path: '/routing/wizard', title: 'routing.wizard', page: wizard },
  { path: '/routing/wizard/new', title: 'routing.wizard', page: wizard },
  { path: '/configuration/default_failover_rule', title: 'routing.defaultFailover', page: failover },
  { path: '/configuration/default_error_response', title: 'routing.defaultError', page: errorResponse },
  { path: '/tools/call_simulation', title: 'routing.callSimulation', page: simulation },
  { path: '/tools/call_simulation/engine', title: 'routing.engine', page: engine },
  { path: '/tools/routing_analysis', title: 'routing.routingAnalysis', page: analysis },
];
