import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const templates = lazy(() => import('./TemplatesPage'));
const templateEdit = lazy(() => import('./TemplateEditPage'));
const history = lazy(() => import('./HistoryPage'));
const detail = lazy(() => import('./HistoryDetailPage'));
const apply = lazy(() => import('./ApplyPage'));
const result = lazy(() => import('./ViewRateResultPage'));
const chooseRun = lazy(() => import('./ChooseRunPage'));
const analysis = lazy(() => import('./AnalysisPage'));

/**
 * Routes of Tools > Rate Generation at the paths of spec 02 section 2. The spec's
 * history/{id}/{type} and history/{id}/{type}/apply are the run's rates and its apply form (the
 * type names the view, e.g. "rates"); apply_to_rate_table/what lists the finished runs to choose
 * from. history/analysis compares a finished run with a rate table (?rate_generation_id=&rate_table_id=).
 */
export const rateGenerationRoutes: RouteDef[] = [
  { path: '/tools/rate_generation', title: 'rategen.title', page: templates },
  { path: '/tools/rate_generation/new', title: 'rategen.newTemplate', page: templateEdit },
  { path: '/tools/rate_generation/edit/:id', title: 'rategen.editTemplate', page: templateEdit },
  { path: '/tools/rate_generation/history', title: 'rategen.history', page: history },
  { path: '/tools/rate_generation/history/analysis', title: 'rategen.analysis', page: analysis },
  { path: '/tools/rate_generation/history_detail/:id', title: 'rategen.history', page: detail },
  { path: '/tools/rate_generation/apply_to_rate_table/:id', title: 'rategen.applyTitle', page: apply },
  { path: '/tools/rate_generation/view_rate_result/:id', title: 'rategen.viewResult', page: result },
  { path: '/tools/rate_generation/history/:id/:type', title: 'rategen.history', page: detail },
  { path: '/tools/rate_generation/history/:id/:type/apply', title: 'rategen.applyTitle', page: apply },
  { path: '/tools/rate_generation/apply_to_rate_table/what', title: 'rategen.history', page: chooseRun },
];
