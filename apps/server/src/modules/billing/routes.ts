import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { registerAutoInvoice } from './auto-invoice';
import { registerFinanceExtras } from './finance-extras-routes';
import { registerInvoiceRoutes } from './invoice-routes';
import { registerPaymentRoutes } from './payment-routes';

/** The Finance module (issue 12, docs/billing.md). */
export function registerBilling(app: FastifyInstance, s: Services): void {
  registerPaymentRoutes(app, s);
  registerInvoiceRoutes(app, s);
  registerAutoInvoice(app, s);
  registerFinanceExtras(app, s);
}
