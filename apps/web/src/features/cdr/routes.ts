import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const search = lazy(() => import('./CdrSearchPage'));
const fields = lazy(() => import('./PortalFieldsPage'));
const uploadLog = lazy(() => import('./CdrUploadLogPage'));

/**
 * CDR search (docs/cdr.md#search) at the paths of spec 01 and 02: Statistics > CDRs List for admins,
 * the client and vendor portals' CDR pages, the agent's CDR search; one page, the server scopes it.
 */
export const cdrRoutes: RouteDef[] = [
  { path: '/statistics/cdrs_list', title: 'cdr.cdrsList', page: search },
  { path: '/statistics/cdrs_list/:tab', title: 'cdr.cdrsList', page: search },
  { path: '/clients/reports/cdrs_search', title: 'cdr.cdrsSearch', page: search },
  { path: '/clients/termination/cdr_termination', title: 'cdr.cdrTermination', page: search },
  { path: '/agents/statistics/cdrs_search', title: 'cdr.cdrsSearch', page: search },
  { path: '/configuration/carrier_portal_cdr_fields', title: 'cdr.portalFields', page: fields },
  { path: '/log/cdr_upload_log', title: 'cdr.upload.log', page: uploadLog },
];
