import { api } from '@tandem/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createHashRouter, Outlet, RouterProvider, useLocation, useNavigate } from 'react-router-dom';
import { configureApi } from '../api/client';
import { useApi } from '../api/queries';
import { Spinner } from '../components/Spinner';
import { FeedbackProvider, useFeedback } from './feedback';
import { Guard, type PageTitle } from './Guard';
import { pageNameOf } from './pageNames';
import { NotAvailablePage, ROUTES } from './routes';
import { SessionProvider, useSession } from './session';

// The signed-in frame is its own chunk: public pages (login, sign-up) load without it.
const Frame = lazy(() => import('./frame/Frame').then((m) => ({ default: m.Frame })));

/** Ant Design's texts in the chosen language; English is built in, the others load on demand. */
function useAntLocale(lang: string): Locale | undefined {
  const [locale, setLocale] = useState<Locale | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const load =
      lang === 'de' ? import('antd/locale/de_DE') : lang === 'ch' ? import('antd/locale/zh_CN') : null;
    if (!load) setLocale(undefined);
    else void load.then((m) => live && setLocale(m.default));
    return () => {
      live = false;
    };
  }, [lang]);
  return locale;
}

// Cached reads are shown at once but refetched when a page mounts: after a write (a new carrier, trunk,
// route...) the next page must offer it (e.g. in its selects), not a copy up to 30 s old.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 } },
});

/** Connects the API client's error catalogue to the frame (toasts, navigation, sign-out). */
function ApiBridge() {
  const navigate = useNavigate();
  const location = useLocation();
  const { fieldErrors } = useFeedback();
  const { signOut, reload } = useSession();
  useEffect(() => {
    configureApi({
      toastError: (m, errors) => fieldErrors(m, errors),
      navigate: (p) => void navigate(p),
      signOut: (m) => void signOut(m),
      currentPath: () => window.location.hash.slice(1).split('?')[0] ?? '',
      enrolTwoFactor: () => void reload(),
    });
  }, [navigate, fieldErrors, signOut, reload]);
  useFavicon(location.pathname);
  return null;
}

/** The configured favicon on every navigation (default if none). */
function useFavicon(path: string) {
  const branding = useApi(
    api.config.getLoginBranding,
    {},
    { callOptions: { errorMode: 'inline', quiet: true }, staleTime: 300_000 },
  );
  useEffect(() => {
    const link = document.getElementById('favicon') as HTMLLinkElement | null;
    if (!link) return;
    const id = branding.data?.favicon_id;
    link.href = id ? `/api/config/export/public/${id}` : '/favicon.svg';
  }, [branding.data?.favicon_id, path]);
}

function Root() {
  const { i18n } = useTranslation();
  const locale = useAntLocale(i18n.language);
  return (
    <ConfigProvider
      locale={locale}
      theme={{ token: { colorPrimary: '#1f5f8b', borderRadius: 4, fontSize: 13 } }}
    >
      <SessionProvider>
        <FeedbackProvider>
          <ApiBridge />
          <Outlet />
        </FeedbackProvider>
      </SessionProvider>
    </ConfigProvider>
  );
}

function Page({
  title,
  Component,
  isPublic,
}: {
  title: PageTitle;
  Component: React.ComponentType;
  isPublic?: boolean;
}) {
  const body = (
    <Suspense fallback={<Spinner />}>
      <Component />
    </Suspense>
  );
  return (
    <Guard title={title}>
      {isPublic ? (
        <div className="public-page">{body}</div>
      ) : (
        <Suspense fallback={<Spinner />}>
          <Frame>{body}</Frame>
        </Suspense>
      )}
    </Guard>
  );
}

/** A page a menu offers but this version does not serve is titled by its name, not "not found". */
const unbuiltTitle: PageTitle = (path, t, lang) => pageNameOf(path, t, lang)?.name ?? t('frame.pageNotFound');

const router = createHashRouter([
  {
    element: <Root />,
    children: [
      { path: '/', element: <Page title="frame.programName" Component={() => null} /> },
      ...ROUTES.map((r) => ({
        path: r.path,
        element: <Page title={r.title} Component={r.page} isPublic={r.public || r.frameless} />,
      })),
      { path: '*', element: <Page title={unbuiltTitle} Component={NotAvailablePage} /> },
    ],
  },
]);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
