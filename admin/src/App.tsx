import type { QueryClient } from '@tanstack/react-query';
import {
  createElement,
  isValidElement,
  lazy,
  Suspense,
  useEffect,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { CssBaseline } from '@mui/material';
import {
  AdminContext,
  AuthenticationError,
  DefaultTitleContextProvider,
  Error as ErrorPage,
  HasDashboardContextProvider,
  LoadingPage,
  Resource,
  ResourceDefinitionContextProvider,
  useScrollToTop,
  WithPermissions,
  type ResourceProps,
  type Store,
} from 'react-admin';
import { ErrorBoundary } from 'react-error-boundary';
import { BrowserRouter, Route, Routes, useInRouterContext } from 'react-router-dom';
import { PublicOnly } from './auth/PublicOnly';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { prefetchesSettled, preloadDataProvider } from './dataProvider/load';
import { i18nProvider } from './i18n';
import { AccessDenied, RequireAccess } from './layout/AccessDenied';
import { useLoadedAfterRows } from './layout/afterRows';
import { Layout } from './layout/Layout';
import { cancelIdle, whenIdle } from './layout/idle';
import { keepStyles } from './layout/keptStyles';
import { styleCache } from './layout/styleCache';
import NotFound from './layout/NotFound';
import { store } from './store';
import { getToken } from './token';
import { darkTheme, lightTheme } from './themes';
import { resources } from './resources';

const Dashboard = lazy(() => import('./dashboard/Dashboard'));
const SettingsPage = lazy(() => import('./settings/SettingsPage'));
const LoginPage = lazy(() => import('./auth/LoginPage'));
const SignupPage = lazy(() => import('./auth/SignupPage'));
const RecoverPasswordPage = lazy(() => import('./auth/RecoverPasswordPage'));
const ResetPasswordPage = lazy(() => import('./auth/ResetPasswordPage'));
const CallbackPage = lazy(() => import('./auth/CallbackPage'));

const page = (element: ReactNode) => <Suspense fallback={null}>{element}</Suspense>;
/** A page for whom is signed out (a signed-in visitor goes to the app). */
const publicPage = (element: ReactNode) => page(<PublicOnly>{element}</PublicOnly>);

const SCREENS = ['list', 'create', 'edit', 'show'] as const;

/** A resource's definition whose screens open only for whom the auth provider's `canAccess` lets in. */
function guarded(name: string, definition: object) {
  const result: Record<string, unknown> = { ...definition };
  for (const action of SCREENS) {
    const screen = result[action] as ComponentType | ReactNode;
    if (!screen) continue;
    result[action] = (
      <RequireAccess resource={name} action={action}>
        {isValidElement(screen) ? screen : createElement(screen as ComponentType)}
      </RequireAccess>
    );
  }
  return result;
}

/** Each resource's props, as <Resource> gets them. */
const resourceProps: ResourceProps[] = Object.entries(resources).map(([name, resource]) => ({
  name,
  ...guarded(name, resource.default),
}));

/**
 * The resources' definitions (the ones `Resource.registerResource` gives), known before the first render: the menu,
 * the titles and the links read them there. react-admin's own routes would register each <Resource> in an effect
 * after the first render (AdminUI below), rendering the whole app once more.
 */
const definitions = Object.fromEntries(resourceProps.map((props) => [props.name, Resource.registerResource!(props)]));

/** The dashboard's access check, as react-admin's own routes make it. */
const DASHBOARD_AUTH = { params: { route: 'dashboard' } };

/**
 * The screens: react-admin's CoreAdminUI and CoreAdminRoutes (ra-core), put together here from the same parts (the
 * title, the error boundary, scroll to top, the layout, each resource's routes, the dashboard's access check) with the
 * routes written out. react-admin's own read them from its children after the first render (and registers every
 * resource again), a second render of the whole first screen before it can be used; here the routes and the resources'
 * definitions are known before the first.
 */
function AdminUI() {
  const [errorInfo, setErrorInfo] = useState<ErrorInfo>({});
  useScrollToTop();
  return (
    <DefaultTitleContextProvider value="Sistema de Integração">
      <ErrorBoundary
        onError={(_error, info) => setErrorInfo(info)}
        fallbackRender={({ error, resetErrorBoundary }) => (
          <div style={{ minHeight: '100vh' }}>
            <ErrorPage error={error as Error} errorInfo={errorInfo} resetErrorBoundary={resetErrorBoundary} />
          </div>
        )}
      >
        <Routes>
          <Route path="/login" element={publicPage(<LoginPage />)} />
          <Route path="/signup" element={publicPage(<SignupPage />)} />
          <Route path="/recover-password" element={publicPage(<RecoverPasswordPage />)} />
          <Route path="/reset-password" element={publicPage(<ResetPasswordPage />)} />
          <Route path="/callback" element={page(<CallbackPage />)} />
          <Route
            path="/*"
            element={
              <HasDashboardContextProvider value>
                <Layout>
                  <Routes>
                    <Route path="/config" element={<SettingsPage />} />
                    {resourceProps.map((props) => (
                      <Route key={props.name} path={`${props.name}/*`} element={<Resource {...props} />} />
                    ))}
                    <Route
                      path="/"
                      element={
                        <WithPermissions authParams={DASHBOARD_AUTH} component={Dashboard} loading={LoadingPage} />
                      }
                    />
                    <Route path="/authentication-error" element={<AuthenticationError />} />
                    <Route path="/access-denied" element={<AccessDenied />} />
                    <Route path="*" element={<NotFound />} />
                  </Routes>
                </Layout>
              </HasDashboardContextProvider>
            }
          />
        </Routes>
      </ErrorBoundary>
    </DefaultTitleContextProvider>
  );
}

/**
 * react-admin's <Admin>, as its two halves (AdminContext and AdminUI) so the resource definitions can sit between
 * them. The second half is react-admin's AdminUI put together here (the screens above in MUI's CssBaseline, then the
 * notifications), with every screen named: AdminUI's own defaults bring react-admin's login form (inputs, form
 * state) into the first screen's code, where the app has its own login page, loaded when it is opened.
 */
export function App({
  queryClient,
  store: appStore = store,
  styleCache: cache = styleCache,
}: {
  queryClient?: QueryClient;
  /**
   * Another store and Emotion cache than the browser's: the build's rendering of the sign-in pages
   * (prerendered/prerender.tsx).
   */
  store?: Store;
  styleCache?: EmotionCache;
}) {
  // The data layer (graphql and ra-data-graphql) is not needed for the first list, whose rows the start read with the
  // provider's own request (dataProvider/load.ts): it loads once the first rows are in and the browser is idle, that
  // is once they have been shown, ready for the next page and the first dialog. A signed-out start (the public pages) never needs it: the first
  // screen after signing in loads it with its first call.
  useEffect(() => {
    if (!getToken()) return;
    let idle: number | undefined;
    let done = false;
    void prefetchesSettled().then(() => {
      if (!done) idle = whenIdle(() => void preloadDataProvider());
    });
    return () => {
      done = true;
      if (idle !== undefined) cancelIdle(idle);
    };
  }, []);
  // The styles this visit generated are kept for the next (layout/keptStyles.ts): once the first screen is up and the
  // browser is idle, and again when the page is left, with those of every screen opened since.
  useEffect(() => {
    const keep = () => keepStyles(cache);
    const onHidden = () => document.visibilityState === 'hidden' && keep();
    const idle = whenIdle(keep);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', keep);
    return () => {
      cancelIdle(idle);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', keep);
    };
  }, [cache]);
  return (
    <CacheProvider value={cache}>
      <Router>
        <AdminContext
          dataProvider={dataProvider}
          queryClient={queryClient}
          authProvider={authProvider}
          i18nProvider={i18nProvider}
          store={appStore}
          theme={lightTheme}
          darkTheme={darkTheme}
          defaultTheme="light"
        >
          <ResourceDefinitionContextProvider definitions={definitions}>
            <CssBaseline enableColorScheme>
              <AdminUI />
              <LaterToasts />
            </CssBaseline>
          </ResourceDefinitionContextProvider>
        </AdminContext>
      </Router>
    </CacheProvider>
  );
}

const loadToasts = () => import('./layout/Toasts');
const Toasts = lazy(() => loadToasts().then(({ Toasts }) => ({ default: Toasts })));

/** The toasts, once the first rows are in: a notification raised before waits in react-admin's context till then. */
function LaterToasts() {
  return useLoadedAfterRows(loadToasts, 'toasts') ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

/**
 * The browser's address, unless rendered inside a router of its own (prerendered/prerender.tsx gives the address
 * rendered).
 */
function Router({ children }: { children: ReactNode }) {
  return useInRouterContext() ? children : <BrowserRouter>{children}</BrowserRouter>;
}
