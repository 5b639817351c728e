import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const templates = lazy(() => import('./RateEmailTemplatesPage'));
const templateEdit = lazy(() => import('./RateEmailTemplateEditPage'));
const send = lazy(() => import('./SendRatePage'));
const log = lazy(() => import('./RateDeliveryLogPage'));

/** Sending rate decks: rate e-mail templates, send rate, the rate delivery logs (the public download page is in app/routes). */
export const rateDeliveryRoutes: RouteDef[] = [
  { path: '/template/rate_email_template', title: 'rateDelivery.templates', page: templates },
  { path: '/template/rate_email_template/new', title: 'rateDelivery.newTemplate', page: templateEdit },
  { path: '/template/rate_email_template/edit/:id', title: 'rateDelivery.editTemplate', page: templateEdit },
  { path: '/template/send_rate/:type/:name/:rateType/:id', title: 'rateDelivery.sendRate', page: send },
  { path: '/routing/rate_table/send_rate_log', title: 'rateDelivery.sendLog', page: log },
  { path: '/log/rate_delivery_log', title: 'rateDelivery.deliveryLog', page: log },
];
