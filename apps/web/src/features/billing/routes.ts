import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const invoices = lazy(() => import('./InvoicesPage'));
const invoiceNew = lazy(() => import('./InvoiceNewPage'));
const invoicePayments = lazy(() => import('./InvoicePaymentsPage'));
const creditNote = lazy(() => import('./NotePage').then((m) => ({ default: m.CreditNotePage })));
const debitNote = lazy(() => import('./NotePage').then((m) => ({ default: m.DebitNotePage })));
const payments = lazy(() => import('./PaymentsPage'));
const autoInvoices = lazy(() => import('./AutoInvoicePage'));
const statement = lazy(() => import('./StatementPage'));
const overall = lazy(() => import('./OverallMutualPage'));
const invoiceLog = lazy(() => import('./InvoiceLogPage'));
const settings = lazy(() => import('./InvoiceSettingsPage'));
const settingEdit = lazy(() => import('./InvoiceSettingEditPage'));
const settingCarriers = lazy(() => import('./InvoiceSettingCarriersPage'));
const extraCharges = lazy(() => import('./ExtraChargesPage'));
const vendorInvoices = lazy(() => import('./VendorInvoicesPage'));
const vendorInvoiceNew = lazy(() => import('./VendorInvoiceNewPage'));
const vendorInvoice = lazy(() => import('./VendorInvoiceDetailPage'));

/** The Finance module (issue 12, docs/billing.md) and the client portal's Billing pages. */
export const billingRoutes: RouteDef[] = [
  { path: '/finance/invoice', title: 'billing.invoices', page: invoices },
  { path: '/finance/invoice/new', title: 'billing.newInvoice', page: invoiceNew },
  { path: '/finance/invoice/payment_list/:id', title: 'billing.paymentList', page: invoicePayments },
  { path: '/finance/invoice/credit_note/:id', title: 'billing.creditNote', page: creditNote },
  {
    path: '/finance/invoice/debit_note/:client_id/:invoice_number',
    title: 'billing.debitNote',
    page: debitNote,
  },
  { path: '/finance/carrier_invoice_history', title: 'billing.invoiceHistory', page: invoices },
  {
    path: '/finance/carrier_invoice_history/:client_id/:client_name',
    title: 'billing.invoiceHistory',
    page: invoices,
  },
  { path: '/finance/payment', title: 'billing.payments', page: payments },
  { path: '/finance/payment/:paymentType', title: 'billing.payments', page: payments },
  { path: '/finance/auto_invoice_management', title: 'billing.autoInvoices', page: autoInvoices },
  { path: '/finance/extra_charge', title: 'finx.extraCharges', page: extraCharges },
  { path: '/finance/vendor_invoice', title: 'finx.vendorInvoices', page: vendorInvoices },
  { path: '/finance/vendor_invoice/new', title: 'finx.newVendorInvoice', page: vendorInvoiceNew },
  { path: '/finance/vendor_invoice/:id', title: 'finx.vendorInvoice', page: vendorInvoice },
  { path: '/finance/mutual_transaction', title: 'billing.statement', page: statement },
  { path: '/finance/overall_mutual_balance', title: 'billing.overallMutual', page: overall },
  { path: '/log/invoice_log', title: 'billing.invoiceLog', page: invoiceLog },
  { path: '/configuration/invoice_setting', title: 'billing.invoiceSettings', page: settings },
  { path: '/configuration/invoice_setting/add/new', title: 'billing.newInvoiceSetting', page: settingEdit },
  { path: '/configuration/invoice_setting/new', title: 'billing.newInvoiceSetting', page: settingEdit },
  { path: '/configuration/invoice_setting/edit/:id', title: 'billing.editInvoiceSetting', page: settingEdit },
  {
    path: '/configuration/invoice_setting/:id/carriers/:type',
    title: 'billing.assignCarriers',
    page: settingCarriers,
  },
  // Origination > DID Invoice: the same pages over the DID clients and vendors (docs/did.md)
  { path: '/origination/did_invoice', title: 'didx.invoices', page: invoices },
  { path: '/origination/did_invoice/new', title: 'didx.newInvoice', page: invoiceNew },
  { path: '/clients/billing/invoices', title: 'billing.invoices', page: invoices },
  { path: '/clients/billing/invoices/:paid_status', title: 'billing.invoices', page: invoices },
  { path: '/clients/billing/payment', title: 'billing.payments', page: payments },
  { path: '/clients/billing/account_summary', title: 'billing.accountSummary', page: statement },
];
