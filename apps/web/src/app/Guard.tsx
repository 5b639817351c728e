import { useEffect, useMemo } from 'react';
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
    });
  }, [status, session, hasUser, path]);

  useEffect(() => {
    if (decision?.allow) {
      if (path !== '/logout' && path !== '/error/form') store.set(KEYS.previous, path + location.search);
      const text = typeof title === 'function' ? title(path, t, i18n.language) : t(title);
      document.title = `${text} - ${t('frame.programName')}`;
    }
  }, [decision, path, location.search, t, title, i18n.language]);

  if (!decision) return <Spinner />;
  if (!decision.allow) return <Navigate to={decision.redirect} replace />;
  return <>{children}</>;
}
