import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const settings = lazy(() => import('./PaymentSettingPage'));
const pay = lazy(() => import('./OnlinePaymentPage'));
const log = lazy(() => import('./AutoPaymentLogPage'));

/** Configuration > Payment Setting, the client's online payment, Log > Auto Payment Log (docs/mail.md). */
export const onlinePaymentRoutes: RouteDef[] = [
  { path: '/configuration/payment_setting', title: 'onlinePayment.settings', page: settings },
  { path: '/clients/billing/online_payment', title: 'onlinePayment.title', page: pay },
  { path: '/clients/billing/pay_now', title: 'onlinePayment.payNow', page: pay },
  { path: '/log/auto_payment_log', title: 'onlinePayment.log', page: log },
];
