import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const paymentTerms = lazy(() => import('./PaymentTermsPage'));
const paymentTermEdit = lazy(() => import('./PaymentTermEditPage'));
const timeProfiles = lazy(() => import('./TimeProfilesPage'));
const timeProfileEdit = lazy(() => import('./TimeProfileEditPage'));
const systemSettings = lazy(() => import('./SystemSettingsPage'));
const dbCleansing = lazy(() => import('./DbCleansingPage'));

export const configurationRoutes: RouteDef[] = [
  { path: '/configuration/payment_term', title: 'configuration.paymentTerms', page: paymentTerms },
  { path: '/configuration/payment_term/new', title: 'configuration.newPaymentTerm', page: paymentTermEdit },
  {
    path: '/configuration/payment_term/edit/:id',
    title: 'configuration.editPaymentTerm',
    page: paymentTermEdit,
  },
  { path: '/configuration/time_profile', title: 'configuration.timeProfiles', page: timeProfiles },
  { path: '/configuration/time_profile/new', title: 'configuration.newTimeProfile', page: timeProfileEdit },
  {
    path: '/configuration/time_profile/edit/:id',
    title: 'configuration.editTimeProfile',
    page: timeProfileEdit,
  },
  {
    path: '/configuration/system_setting',
    title: 'configuration.systemSettings.title',
    page: systemSettings,
  },
  {
    path: '/configuration/auto_rotation_and_cleaning',
    title: 'cleansing.title',
    page: dbCleansing,
  },
];
