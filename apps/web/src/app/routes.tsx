import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { areaRoutes } from './areaRoutes';

/**
 * Every hash route this version serves. `title` is an i18n key or plain text; public routes show no
 * menu. Catalogue items without a screen yet are served by the "not available" page (see Router).
 */
export interface RouteDef {
  path: string;
  title: string;
  page: LazyExoticComponent<ComponentType>;
  public?: boolean;
  /** Signed in, but laid out like the public pages, without the frame (the two-factor setup a role requires). */
  frameless?: boolean;
}

const p = (loader: () => Promise<{ default: ComponentType }>) => lazy(loader);
const auth = {
  login: p(() => import('../features/auth/LoginPage')),
  registration: p(() => import('../features/auth/RegistrationPage')),
  reset: p(() => import('../features/auth/ResetPasswordPage')),
  resetToken: p(() => import('../features/auth/ResetPage')),
  done: p(() => import('../features/auth/RegistrationDonePage')),
  error: p(() => import('../features/auth/ErrorFormPage')),
  setup: p(() => import('../features/auth/SetupPage')),
  logout: p(() => import('../features/auth/LogoutPage')),
};

export const ROUTES: RouteDef[] = [
  { path: '/auth/login', title: 'auth.signIn', page: auth.login, public: true },
  { path: '/auth/registration', title: 'auth.register', page: auth.registration, public: true },
  {
    path: '/auth/registration/index/:agentId/:refKey',
    title: 'auth.register',
    page: auth.registration,
    public: true,
  },
  { path: '/referral/:refKey', title: 'auth.register', page: auth.registration, public: true },
  { path: '/signup/index/:refKey', title: 'auth.register', page: auth.registration, public: true },
  { path: '/auth/reset_password', title: 'auth.resetTitle', page: auth.reset, public: true },
  { path: '/auth/reset/:token', title: 'auth.resetTitle', page: auth.resetToken, public: true },
  { path: '/auth/successful_registration', title: 'auth.registrationDone', page: auth.done, public: true },
  { path: '/auth/waiting_registration', title: 'auth.registrationDone', page: auth.done, public: true },
  { path: '/error/form', title: 'auth.errorTitle', page: auth.error, public: true },
  { path: '/setup', title: 'auth.setupTitle', page: auth.setup, public: true },
  {
    path: '/download/rate/:token',
    title: 'rateDelivery.downloadTitle',
    page: p(() => import('../features/system/RateDownloadPage')),
    public: true,
  },
  { path: '/logout', title: 'frame.logout', page: auth.logout },
  {
    path: '/auth/two_factor',
    title: 'auth.twoFactorRequiredTitle',
    page: p(() => import('../features/profile/TwoFactorSetupPage')),
    frameless: true,
  },

  { path: '/my_profile', title: 'profile.title', page: p(() => import('../features/profile/MyProfilePage')) },
  {
    path: '/statistics/dashboard',
    title: 'home.adminTitle',
    page: p(() => import('../features/statistics/DashboardPage')),
  },
  {
    path: '/clients/management/analytics_dashboard',
    title: 'home.clientTitle',
    page: p(() => import('../features/home/ClientHomePage')),
  },
  {
    path: '/agents/management/agent_dashboard',
    title: 'home.agentTitle',
    page: p(() => import('../features/home/AgentHomePage')),
  },

  {
    path: '/configuration/users',
    title: 'users.title',
    page: p(() => import('../features/users/UsersPage')),
  },
  {
    path: '/configuration/user_management/:tab',
    title: 'users.title',
    page: p(() => import('../features/users/UsersPage')),
  },
  {
    path: '/configuration/user_management/role_id/:roleId',
    title: 'users.title',
    page: p(() => import('../features/users/UsersPage')),
  },
  {
    path: '/configuration/user_management/system/new',
    title: 'users.newUser',
    page: p(() => import('../features/users/UserEditPage')),
  },
  {
    path: '/configuration/user_management/carrier/new',
    title: 'users.newUser',
    page: p(() => import('../features/users/UserEditPage')),
  },
  {
    path: '/configuration/system_user_management/edit/:id',
    title: 'users.editUser',
    page: p(() => import('../features/users/UserEditPage')),
  },
  {
    path: '/configuration/carrier_user_management/edit/:id',
    title: 'users.editUser',
    page: p(() => import('../features/users/UserEditPage')),
  },
  {
    path: '/configuration/roles',
    title: 'roles.title',
    page: p(() => import('../features/roles/RolesPage')),
  },
  {
    path: '/configuration/roles/new',
    title: 'roles.newRole',
    page: p(() => import('../features/roles/RoleEditPage')),
  },
  {
    path: '/configuration/roles/edit/:id',
    title: 'roles.editRole',
    page: p(() => import('../features/roles/RoleEditPage')),
  },
  {
    path: '/log/user_signin_history',
    title: 'system.signinHistory',
    page: p(() => import('../features/system/SigninHistoryPage')),
  },
  {
    path: '/configuration/login_content',
    title: 'system.loginContent',
    page: p(() => import('../features/system/LoginContentPage')),
  },
  {
    path: '/log/retrieve_password_log',
    title: 'system.retrievePasswordLog',
    page: p(() => import('../features/system/RetrievePasswordLogPage')),
  },
  {
    path: '/log/modification_log',
    title: 'system.modificationLog',
    page: p(() => import('../features/system/ModificationLogPage')),
  },

  {
    path: '/origination/tickets',
    title: 'ticket.list',
    page: p(() => import('../features/tickets/TicketsPage')),
  },
  {
    path: '/origination/tickets/only_opened',
    title: 'ticket.list',
    page: p(() => import('../features/tickets/TicketsPage')),
  },
  {
    path: '/clients/tickets/ticket',
    title: 'ticket.list',
    page: p(() => import('../features/tickets/TicketsPage')),
  },

  {
    path: '/server_admin',
    title: 'system.serverTitle',
    page: p(() => import('../features/system/ServerAdminPage')),
  },
  {
    path: '/server_admin/history',
    title: 'system.history',
    page: p(() => import('../features/system/SigninHistoryPage')),
  },
  { path: '/license', title: 'system.licenseTitle', page: p(() => import('../features/system/LicensePage')) },
  {
    path: '/switch/capacity',
    title: 'system.capacityTitle',
    page: p(() => import('../features/system/CapacityPage')),
  },
  {
    path: '/switch/voip_gateway',
    title: 'system.gatewayTitle',
    page: p(() => import('../features/system/VoipGatewayPage')),
  },
  {
    path: '/first_time_wizard',
    title: 'system.wizardTitle',
    page: p(() => import('../features/system/FirstTimeWizardPage')),
  },
  ...areaRoutes,
];

export const NotAvailablePage = p(() => import('../features/system/NotAvailablePage'));

/** True when this version serves a page at `url` (a catalogue or portal menu entry). */
export function isBuiltPath(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return ROUTES.some((r) => matchPath({ path: r.path, end: true }, path) !== null);
}
