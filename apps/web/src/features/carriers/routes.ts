import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';
import { trunkRoutes } from '../trunks/routes';

const carriers = lazy(() => import('./CarriersPage'));
const carrierEdit = lazy(() => import('./CarrierEditPage'));
const fromTemplate = lazy(() => import('./CarrierFromTemplatePage'));
const products = lazy(() => import('./ProductsPage'));
const productEdit = lazy(() => import('./ProductEditPage'));
const credit = lazy(() => import('./CreditManagementPage'));
const registration = lazy(() => import('./RegistrationPage'));
const registrationDetail = lazy(() => import('./RegistrationDetailPage'));
const unclaimed = lazy(() => import('./UnclaimedTrunksPage'));
const exportPage = lazy(() => import('./ClientsExportPage'));
const templates = lazy(() => import('./CarrierTemplatesPage'));
const templateEdit = lazy(() => import('./CarrierTemplateEditPage'));
const wizard = lazy(() => import('./WizardPage'));

/** Routes of the carriers area (issue 3): termination screens, carrier templates, and the trunk screens. */
export const carrierRoutes: RouteDef[] = [
  { path: '/termination/client', title: 'carriers.clients', page: carriers },
  { path: '/termination/client/payment_term_id/:termId', title: 'carriers.clients', page: carriers },
  { path: '/termination/vendor', title: 'carriers.vendors', page: carriers },
  { path: '/termination/vendor/payment_term_id/:termId', title: 'carriers.vendors', page: carriers },
  { path: '/termination/clients/new/:carrierType', title: 'carriers.newClient', page: carrierEdit },
  { path: '/termination/clients/edit/:id', title: 'carriers.editCarrier', page: carrierEdit },
  { path: '/termination/clients/edit/:id/:infoType', title: 'carriers.editCarrier', page: carrierEdit },
  { path: '/termination/clients/new_template', title: 'carriers.newFromTemplate', page: fromTemplate },
  { path: '/termination/vendors/new_template', title: 'carriers.newFromTemplate', page: fromTemplate },
  { path: '/termination/clients/export', title: 'carriers.clientsExport', page: exportPage },
  { path: '/termination/products', title: 'carriers.products', page: products },
  { path: '/termination/products/new', title: 'carriers.newProduct', page: productEdit },
  { path: '/termination/products/edit/:id', title: 'carriers.editProduct', page: productEdit },
  { path: '/termination/credit_management', title: 'carriers.creditManagement', page: credit },
  { path: '/termination/registration', title: 'carriers.registration', page: registration },
  {
    path: '/termination/registration/user_description/:id',
    title: 'carriers.registrationDetail',
    page: registrationDetail,
  },
  { path: '/termination/unclaimed_trunks', title: 'carriers.unclaimedTrunks', page: unclaimed },
  { path: '/termination/wizard', title: 'carriers.wizard', page: wizard },
  { path: '/template/carrier_template', title: 'carriers.carrierTemplates', page: templates },
  { path: '/template/carrier_template/new', title: 'carriers.newCarrierTemplate', page: templateEdit },
  { path: '/template/carrier_template/edit/:id', title: 'carriers.editCarrierTemplate', page: templateEdit },
  ...trunkRoutes,
];
