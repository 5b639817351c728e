import { describe, expect, it } from 'vitest';
import { decide, homeOf, TWO_FACTOR_SETUP_PATH, type GuardState } from './guard';

const anon: GuardState = {
  signedIn: false,
  userType: null,
  roleId: 0,
  landingPages: null,
  hasUser: true,
  previous: null,
  landing: null,
};
const admin: GuardState = { ...anon, signedIn: true, userType: 'admin' };
const client: GuardState = { ...anon, signedIn: true, userType: 'client' };
const agent: GuardState = { ...anon, signedIn: true, userType: 'agent' };
const restricted: GuardState = {
  ...admin,
  roleId: 7,
  landingPages: ['/configuration/users', '/log/user_signin_history'],
  previous: '/configuration/users',
};

describe('navigation guard', () => {
  it('opens public routes and sends everything else to the login page when signed out', () => {
    expect(decide('/auth/registration', anon)).toEqual({ allow: true });
    expect(decide('/auth/reset/abcdef', anon)).toEqual({ allow: true });
    expect(decide('/signup/index/KEY', anon)).toEqual({ allow: true });
    expect(decide('/download/rate/tok', anon)).toEqual({ allow: true });
    expect(decide('/configuration/users', anon)).toEqual({ allow: false, redirect: '/auth/login' });
    expect(decide('/clients/management/analytics_dashboard', anon)).toEqual({
      allow: false,
      redirect: '/auth/login',
    });
  });

  it('goes to /setup when no user exists, and leaves /setup once one does', () => {
    expect(decide('/auth/login', { ...anon, hasUser: false })).toEqual({ allow: false, redirect: '/setup' });
    expect(decide('/setup', { ...anon, hasUser: false })).toEqual({ allow: true });
    expect(decide('/setup', { ...anon, previous: '/auth/reset_password' })).toEqual({
      allow: false,
      redirect: '/auth/reset_password',
    });
    expect(decide('/setup', anon)).toEqual({ allow: false, redirect: '/auth/login' });
  });

  it('sends a signed-in user from the login page or root to the home of its type', () => {
    expect(decide('/auth/login', admin)).toEqual({ allow: false, redirect: '/statistics/dashboard' });
    expect(decide('/', agent)).toEqual({ allow: false, redirect: '/agents/management/agent_dashboard' });
    expect(decide('/auth/login', client)).toEqual({
      allow: false,
      redirect: '/clients/management/analytics_dashboard',
    });
    expect(decide('/', { ...client, userType: 'vendor' })).toEqual({
      allow: false,
      redirect: '/clients/management/analytics_dashboard',
    });
  });

  it('keeps admins out of client, agent and profile portal paths, back to the previous path', () => {
    expect(decide('/clients/billing/invoices', { ...admin, previous: '/configuration/roles' })).toEqual({
      allow: false,
      redirect: '/configuration/roles',
    });
    expect(decide('/agents/management/products', admin)).toEqual({
      allow: false,
      redirect: '/statistics/dashboard',
    });
    expect(decide('/profile/x', admin)).toEqual({ allow: false, redirect: '/statistics/dashboard' });
    expect(decide('/my_profile', admin)).toEqual({ allow: true });
  });

  it('limits a restricted admin to its landing pages, with the listed exceptions', () => {
    expect(decide('/configuration/users', restricted)).toEqual({ allow: true });
    expect(decide('/configuration/user_management/system', restricted)).toEqual({ allow: true });
    expect(decide('/configuration/system_user_management/edit/3', restricted)).toEqual({ allow: true });
    expect(decide('/configuration/roles', restricted)).toEqual({
      allow: false,
      redirect: '/configuration/users',
    });
    for (const free of [
      '/logout',
      '/first_time_wizard',
      '/origination/tickets',
      '/my_profile',
      '/switch/capacity',
      '/switch/voip_gateway',
      '/license',
      '/server_admin',
    ]) {
      expect(decide(free, restricted)).toEqual({ allow: true });
    }
    expect(decide('/server_admin/history', restricted)).toEqual({ allow: true });
  });

  it('does not restrict an admin without a role or without stored landing pages', () => {
    expect(decide('/configuration/roles', { ...admin, roleId: 0, landingPages: ['/x'] })).toEqual({
      allow: true,
    });
    expect(decide('/configuration/roles', { ...admin, roleId: 3, landingPages: null })).toEqual({
      allow: true,
    });
  });

  it('keeps portal users inside their portal', () => {
    expect(decide('/clients/billing/invoices', client)).toEqual({ allow: true });
    expect(decide('/configuration/users', { ...client, previous: '/clients/tickets/ticket' })).toEqual({
      allow: false,
      redirect: '/clients/tickets/ticket',
    });
    expect(decide('/agents/client/client_list', agent)).toEqual({ allow: true });
    expect(decide('/agent/setting', agent)).toEqual({ allow: true });
    expect(decide('/clients/billing/invoices', agent)).toEqual({
      allow: false,
      redirect: '/agents/management/agent_dashboard',
    });
    expect(decide('/my_profile', agent)).toEqual({ allow: true });
  });

  it('home of a restricted admin that may not read the dashboard is its first landing page', () => {
    expect(homeOf(restricted)).toBe('/configuration/users');
    expect(homeOf({ ...restricted, landing: '/log/user_signin_history' })).toBe('/log/user_signin_history');
    expect(homeOf({ ...restricted, landing: '/configuration/roles' })).toBe('/configuration/users');
  });

  it('sends a user whose role requires two-factor sign-in to its setup until it is on (issue 18)', () => {
    const enrolling = { ...restricted, enrolTwoFactor: true };
    const setup = { allow: false, redirect: TWO_FACTOR_SETUP_PATH };
    // After sign-in, every page, the profile and the error page included, lead to the setup.
    for (const path of ['/', '/auth/login', '/configuration/users', '/my_profile', '/error/form', '/x/y'])
      expect(decide(path, enrolling)).toEqual(setup);
    expect(decide(TWO_FACTOR_SETUP_PATH, enrolling)).toEqual({ allow: true });
    expect(decide('/logout', enrolling)).toEqual({ allow: true });
    // Once on, the setup page has nothing more to do: home instead; other pages as before.
    expect(decide(TWO_FACTOR_SETUP_PATH, restricted)).toEqual({
      allow: false,
      redirect: '/configuration/users',
    });
    expect(decide('/configuration/users', restricted)).toEqual({ allow: true });
    // Signed out, the page is not public.
    expect(decide(TWO_FACTOR_SETUP_PATH, anon)).toEqual({ allow: false, redirect: '/auth/login' });
  });
});
