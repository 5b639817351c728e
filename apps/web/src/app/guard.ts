import { HOME_BY_TYPE, isRoleFreePath, permissionKeyForPath, type UserType } from '@tandem/contract';

/** Routes anyone may open without signing in (spec 01 section 2). */
const PUBLIC_PREFIXES = [
  '/auth/login',
  '/auth/registration',
  '/referral/',
  '/signup/index/',
  '/auth/reset_password',
  '/auth/reset/',
  '/auth/successful_registration',
  '/auth/waiting_registration',
  '/error/form',
  '/setup',
  '/download/rate/',
];
export const isPublicPath = (path: string) =>
  PUBLIC_PREFIXES.some(
    (p) =>
      path === p || path.startsWith(p.endsWith('/') ? p : p + '/') || (p.endsWith('/') && path.startsWith(p)),
  );

/**
 * Where a user whose role requires two-factor sign-in sets it up before anything else (issue 18):
 * signed in, outside the frame, the only page besides sign-out until it is on.
 */
export const TWO_FACTOR_SETUP_PATH = '/auth/two_factor';

/** Portal paths an admin may not open, and paths a portal user may open. */
const PORTAL_ONLY = ['/clients', '/agents', '/profile'];
const SHARED_SIGNED_IN = ['/my_profile', '/logout', '/error/form'];

export interface GuardState {
  signedIn: boolean;
  userType: UserType | null;
  roleId: number;
  /** web_url of the pages a restricted admin's role may read (spec: landing_pages). null when none are stored. */
  landingPages: readonly string[] | null;
  /** Whether any user exists (null while unknown). */
  hasUser: boolean | null;
  /** The last path the guard let through. */
  previous: string | null;
  /** The user's preferred landing page. */
  landing: string | null;
  /** The user's role requires two-factor sign-in and it is not on yet: only its setup page opens. */
  enrolTwoFactor?: boolean;
}

export type GuardDecision = { allow: true } | { allow: false; redirect: string };

const under = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');

export function homeOf(state: Pick<GuardState, 'userType' | 'landing' | 'roleId' | 'landingPages'>): string {
  if (!state.userType) return '/auth/login';
  if (state.landing && (state.userType !== 'admin' || mayEnter(state.landing, state))) return state.landing;
  const home = HOME_BY_TYPE[state.userType];
  if (state.userType === 'admin' && !mayEnter(home, state)) return state.landingPages?.[0] ?? '/my_profile';
  return home;
}

/** Whether a restricted admin's landing pages cover `path` (user and send-rate pages count as their parents). */
function mayEnter(path: string, state: Pick<GuardState, 'roleId' | 'landingPages'>): boolean {
  if (!state.roleId || !state.landingPages) return true;
  if (isRoleFreePath(path)) return true;
  const key = permissionKeyForPath(path);
  return state.landingPages.some((u) => under(path, u) || (key !== null && key === u));
}

/** The navigation guard of spec 01 section 4. Pure: the router applies the decision. */
export function decide(path: string, s: GuardState): GuardDecision {
  const back = (fallback: string): GuardDecision => ({
    allow: false,
    redirect: s.previous && s.previous !== path ? s.previous : fallback,
  });

  if (path === '/setup') return s.hasUser ? back(s.signedIn ? homeOf(s) : '/auth/login') : { allow: true };
  if (!s.signedIn) {
    if (s.hasUser === false && (path === '/' || path === '/auth/login'))
      return { allow: false, redirect: '/setup' };
    if (path === '/') return { allow: false, redirect: '/auth/login' };
    return isPublicPath(path) ? { allow: true } : { allow: false, redirect: '/auth/login' };
  }
  if (path === '/logout') return { allow: true };
  if (s.enrolTwoFactor)
    return path === TWO_FACTOR_SETUP_PATH
      ? { allow: true }
      : { allow: false, redirect: TWO_FACTOR_SETUP_PATH };
  if (path === '/' || path === '/auth/login') return { allow: false, redirect: homeOf(s) };
  if (isPublicPath(path)) return { allow: true };
  // Enrolled (or never asked): the setup page has nothing to do, home instead.
  if (path === TWO_FACTOR_SETUP_PATH) return { allow: false, redirect: homeOf(s) };

  if (s.userType === 'admin') {
    if (PORTAL_ONLY.some((p) => under(path, p))) return back(homeOf(s));
    if (s.roleId && s.landingPages && !mayEnter(path, s)) return back(homeOf(s));
    return { allow: true };
  }
  // Clients, vendors and agents stay in their own portal.
  const own = s.userType === 'agent' ? ['/agents', '/agent/setting'] : ['/clients'];
  if ([...own, ...SHARED_SIGNED_IN].some((p) => under(path, p))) return { allow: true };
  return back(homeOf(s));
}
