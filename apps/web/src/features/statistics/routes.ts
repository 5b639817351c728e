import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const summary = lazy(() => import('./SummaryReportPage'));

/** Statistics (docs/statistics.md); the dashboard is the admin home, declared with the homes in app/routes.tsx. */
export const statisticsRoutes: RouteDef[] = [
  { path: '/statistics/summary_report', title: 'stats.summaryReport', page: summary },
];
