import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const fraud = lazy(() => import('./FraudDetectionPage'));
const fraudEdit = lazy(() => import('./FraudRuleEditPage'));
const ruleLog = lazy(() => import('./RuleLogPage'));
const rules = lazy(() => import('./RulesPage'));
const ruleEdit = lazy(() => import('./RuleEditPage'));
const loops = lazy(() => import('./LoopDetectionPage'));
const loopEdit = lazy(() => import('./LoopEditPage'));
const report = lazy(() => import('./FraudReportPage'));
const live = lazy(() => import('./LiveEventPage'));
const mediaIp = lazy(() => import('./MediaIpBlockingPage'));
const mediaIpEdit = lazy(() => import('./MediaIpEditPage'));

/**
 * Monitoring at the paths of spec 01 (fraud detection, rule, loop detection, media IP blocking,
 * live event) and the fraud report.
 */
export const monitoringRoutes: RouteDef[] = [
  { path: '/monitoring/fraud_detection', title: 'monitoring.fraudDetection', page: fraud },
  { path: '/monitoring/fraud_detection/exec_log', title: 'monitoring.fraudDetection', page: fraud },
  { path: '/monitoring/fraud_detection/blocks', title: 'monitoring.fraudDetection', page: fraud },
  { path: '/monitoring/fraud_detection/new', title: 'monitoring.newFraudRule', page: fraudEdit },
  { path: '/monitoring/fraud_detection/edit/:id', title: 'monitoring.editFraudRule', page: fraudEdit },
  { path: '/monitoring/fraud_detection/execution_log/:id', title: 'monitoring.fraudLogOf', page: ruleLog },
  { path: '/monitoring/rule', title: 'monitoring.rules', page: rules },
  { path: '/monitoring/rule/log', title: 'monitoring.rules', page: rules },
  { path: '/monitoring/rule/blocks', title: 'monitoring.rules', page: rules },
  { path: '/monitoring/rule/new', title: 'monitoring.newRule', page: ruleEdit },
  { path: '/monitoring/rule/edit/:id', title: 'monitoring.editRule', page: ruleEdit },
  { path: '/monitoring/rule/details/:id', title: 'monitoring.ruleDetails', page: ruleLog },
  { path: '/monitoring/loop_detection', title: 'monitoring.loopDetection', page: loops },
  { path: '/monitoring/loop_detection/log', title: 'monitoring.loopDetection', page: loops },
  { path: '/monitoring/loop_detection/new', title: 'monitoring.newLoopRule', page: loopEdit },
  { path: '/monitoring/loop_detection/edit/:id', title: 'monitoring.editLoopRule', page: loopEdit },
  { path: '/monitoring/media_ip_blocking', title: 'monitoring.mediaIp', page: mediaIp },
  { path: '/monitoring/media_ip_blocking/upload', title: 'monitoring.mediaIp', page: mediaIp },
  { path: '/monitoring/media_ip_blocking/new', title: 'routingx.newMediaIp', page: mediaIpEdit },
  { path: '/monitoring/media_ip_blocking/edit/:id', title: 'routingx.editMediaIp', page: mediaIpEdit },
  { path: '/monitoring/live_event', title: 'monitoring.liveEvent', page: live },
  { path: '/statistics/fraud_report', title: 'monitoring.fraudReport', page: report },
];
