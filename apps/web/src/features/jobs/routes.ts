import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

/** Log > Scheduler Log and Log > Export Log (background jobs and their files). */
export const jobRoutes: RouteDef[] = [
  { path: '/log/scheduler_log', title: 'jobs.schedulerLog', page: lazy(() => import('./SchedulerLogPage')) },
  { path: '/log/export_log', title: 'jobs.exportLog', page: lazy(() => import('./ExportLogPage')) },
];
