import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const rerate = lazy(() => import('./ReratePage'));
const run = lazy(() => import('./RerateRunPage'));

/** Tools > Rerate (docs/cdr.md "Rerate"): the form and the runs, and one run's preview and apply. */
export const rerateRoutes: RouteDef[] = [
  { path: '/tools/rerate', title: 'rerate.title', page: rerate },
  { path: '/tools/rerate/:id', title: 'rerate.title', page: run },
];
