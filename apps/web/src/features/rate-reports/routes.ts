import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const summary = lazy(() => import('./ClientRateSummaryPage'));
const report = lazy(() => import('./RateReportPage'));
const assign = lazy(() => import('./AssignRateDeckPage'));

/** Rate reports (docs/rate-reports.md), at the paths of spec 02 section 2. */
export const rateReportRoutes: RouteDef[] = [
  { path: '/termination/client_rate_summary', title: 'rateReports.clientRateSummary', page: summary },
  { path: '/termination/rate_report', title: 'rateReports.rateReport', page: report },
  {
    path: '/routing/rate_table/assign_rate_deck/:rateTableId',
    title: 'rateReports.assignRateDeck',
    page: assign,
  },
];
