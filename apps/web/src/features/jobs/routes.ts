import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const exportLog = lazy(() => import('./ExportLogPage'));

/**
 * Log > Scheduler Log and Log > Export Log (background jobs and their files); the client portal's
 * Rate Export Log is the same page over the carrier's own exports (the server scopes them).
 */
export const jobRoutes: RouteDef[] = [
  { path: '/log/scheduler_log', title: 'jobs.schedulerLog', page: lazy(() => import('./SchedulerLogPage')) },
  { path: '/log/export_log', title: 'jobs.exportLog', page: exportLog },
  { path: '/log/import_log', title: 'jobs.importLog', page: lazy(() => import('./ImportLogPage')) },
  { path: '/clients/termination/rate_export_log', title: 'jobs.exportLog', page: exportLog },
];
