import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const rules = lazy(() => import('./RulesPages').then((m) => ({ default: m.BillingRulesPage })));
const ruleEdit = lazy(() => import('./RulesPages').then((m) => ({ default: m.BillingRuleEditPage })));
const products = lazy(() => import('./RulesPages').then((m) => ({ default: m.ProductsPage })));
const productEdit = lazy(() => import('./RulesPages').then((m) => ({ default: m.ProductEditPage })));
const vendors = lazy(() => import('./CarrierPages').then((m) => ({ default: m.VendorsPage })));
const vendorEdit = lazy(() => import('./CarrierPages').then((m) => ({ default: m.VendorEditPage })));
const clients = lazy(() => import('./CarrierPages').then((m) => ({ default: m.ClientsPage })));
const clientEdit = lazy(() => import('./CarrierPages').then((m) => ({ default: m.ClientEditPage })));
const repository = lazy(() => import('./RepositoryPage'));
const upload = lazy(() => import('./UploadPages').then((m) => ({ default: m.UploadPage })));
const importLog = lazy(() => import('./UploadPages').then((m) => ({ default: m.ImportLogPage })));
const routing = lazy(() => import('./UploadPages').then((m) => ({ default: m.RoutingPage })));
const wizard = lazy(() => import('./WizardPage'));
const buy = lazy(() => import('./PortalPages').then((m) => ({ default: m.BuyDidPage })));
const mine = lazy(() => import('./PortalPages').then((m) => ({ default: m.MyDidPage })));
const cdrs = lazy(() => import('./DidCdrPage'));
const dashboard = lazy(() => import('./DashboardPage'));
const portDid = lazy(() => import('./PortPages').then((m) => ({ default: m.PortDidPage })));
const portRequests = lazy(() => import('./PortPages').then((m) => ({ default: m.PortRequestsPage })));
const portalTrunks = lazy(() => import('./PortPages').then((m) => ({ default: m.PortalTrunksPage })));

/** DID / origination (docs/did.md) and the client portal's origination pages. */
export const didRoutes: RouteDef[] = [
  { path: '/origination/billing_rule', title: 'did.billingRules', page: rules },
  { path: '/origination/billing_rule/new', title: 'did.newBillingRule', page: ruleEdit },
  { path: '/origination/billing_rule/edit/:id', title: 'did.editBillingRule', page: ruleEdit },
  { path: '/origination/did_product', title: 'did.products', page: products },
  { path: '/origination/did_product/new', title: 'did.newProduct', page: productEdit },
  { path: '/origination/did_product/edit/:id', title: 'did.editProduct', page: productEdit },
  { path: '/origination/vendors', title: 'did.vendors', page: vendors },
  { path: '/origination/vendors/new', title: 'did.newVendor', page: vendorEdit },
  { path: '/origination/vendors/edit/:id', title: 'did.editVendor', page: vendorEdit },
  { path: '/origination/vendors/new/add_did', title: 'did.upload', page: upload },
  { path: '/origination/clients', title: 'did.clients', page: clients },
  { path: '/origination/clients/new', title: 'did.newClient', page: clientEdit },
  { path: '/origination/clients/edit/:id', title: 'did.editClient', page: clientEdit },
  { path: '/origination/clients/edit/:id/:info_type', title: 'did.editClient', page: clientEdit },
  { path: '/origination/did_repository', title: 'did.repository', page: repository },
  { path: '/origination/did_repository_upload', title: 'did.upload', page: upload },
  { path: '/log/DID_import_log', title: 'did.importLog', page: importLog },
  { path: '/origination/did_routing', title: 'did.routing', page: routing },
  { path: '/origination/wizard', title: 'did.wizard', page: wizard },
  { path: '/clients/origination/buy_did', title: 'did.buyDid', page: buy },
  { path: '/clients/origination/my_did', title: 'did.myDid', page: mine },
  { path: '/origination/cdrs_list', title: 'did.cdrs', page: cdrs },
  { path: '/origination/cdrs_list/:tab', title: 'did.cdrs', page: cdrs },
  { path: '/clients/origination/cdr', title: 'did.cdrs', page: cdrs },
  { path: '/origination/dashboard', title: 'didx.dashboard', page: dashboard },
  { path: '/origination/port_requests', title: 'didx.portRequests', page: portRequests },
  { path: '/clients/origination/port_did', title: 'didx.portDid', page: portDid },
  { path: '/clients/origination/trunks', title: 'didx.trunks', page: portalTrunks },
];
