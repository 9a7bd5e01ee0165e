import { createElement, isValidElement, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { BrowserRouter, Route } from 'react-router-dom';
import { PublicOnly } from './auth/PublicOnly';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n';
import { AccessDenied, RequireAccess } from './layout/AccessDenied';
import { BottomRightNotification } from './layout/Toast';
import { Layout } from './layout/Layout';
import NotFound from './layout/NotFound';
import { store } from './store';
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

export function App() {
  return (
    <BrowserRouter>
      <Admin
        title="Sistema de Integração"
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        store={store}
        theme={lightTheme}
        darkTheme={darkTheme}
        defaultTheme="light"
        layout={Layout}
        dashboard={Dashboard}
        loginPage={false}
        catchAll={NotFound}
        accessDenied={AccessDenied}
        notification={BottomRightNotification}
        disableTelemetry
      >
        {Object.entries(resources).map(([name, resource]) => (
          <Resource key={name} name={name} {...guarded(name, resource.default)} />
        ))}
        <CustomRoutes>
          <Route path="/config" element={<SettingsPage />} />
        </CustomRoutes>
        <CustomRoutes noLayout>
          <Route
            path="/login"
            element={page(
              <PublicOnly>
                <LoginPage />
              </PublicOnly>,
            )}
          />
          <Route
            path="/signup"
            element={page(
              <PublicOnly>
                <SignupPage />
              </PublicOnly>,
            )}
          />
          <Route
            path="/recover-password"
            element={page(
              <PublicOnly>
                <RecoverPasswordPage />
              </PublicOnly>,
            )}
          />
          <Route
            path="/reset-password"
            element={page(
              <PublicOnly>
                <ResetPasswordPage />
              </PublicOnly>,
            )}
          />
          <Route path="/callback" element={page(<CallbackPage />)} />
        </CustomRoutes>
      </Admin>
    </BrowserRouter>
  );
}
