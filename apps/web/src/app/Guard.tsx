import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { KEYS, store } from '../lib/storage';
import { decide } from './guard';
import { useSession } from './session';
import { Spinner } from '../components/Spinner';

/** Applies the navigation guard to every route, remembers the previous path, sets title and favicon. */
export type PageTitle = string | ((path: string, t: TFunction, language: string) => string);

export function Guard({ title, children }: { title: PageTitle; children: React.ReactNode }) {
  const { status, session, hasUser } = useSession();
  const location = useLocation();
  const { t, i18n } = useTranslation();
  const path = location.pathname;
  // An area's strings arrive with its lazy page (registerTranslations), after the guard has titled
  // the tab with the bare key: title it again when they do.
  const [strings, setStrings] = useState(0);
  useEffect(() => {
    const added = () => setStrings((n) => n + 1);
    i18n.store.on('added', added);
    return () => i18n.store.off('added', added);
  }, [i18n]);

  const decision = useMemo(() => {
    if (status === 'loading') return null;
    const u = session?.user;
    return decide(path, {
      signedIn: status === 'signedIn',
      userType: u?.user_type ?? null,
      roleId: u?.role_id ?? 0,
      landingPages: session?.landingPages ?? null,
      hasUser,
      previous: store.get(KEYS.previous),
      landing: u?.landing_page ?? null,
      enrolTwoFactor: Boolean(u?.two_factor_required && !u.totp_enabled),
    });
  }, [status, session, hasUser, path]);

  useEffect(() => {
    if (decision?.allow) {
      if (path !== '/logout' && path !== '/error/form') store.set(KEYS.previous, path + location.search);
      const text = typeof title === 'function' ? title(path, t, i18n.language) : t(title);
      document.title = `${text} - ${t('frame.programName')}`;
    }
  }, [decision, path, location.search, t, title, i18n.language, strings]);

  // Router navigations are React transitions: the address changes before the page does. The
  // rendered page's path, set when React commits it, tells tests (and anyone inspecting the DOM)
  // which page is actually on screen.
  const shown = decision?.allow ? path : null;
  useLayoutEffect(() => {
    if (shown !== null) document.documentElement.dataset.path = shown;
  }, [shown]);

  if (!decision) return <Spinner />;
  if (!decision.allow) return <Navigate to={decision.redirect} replace />;
  return <>{children}</>;
}
