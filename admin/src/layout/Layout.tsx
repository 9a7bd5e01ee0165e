import type { ReactNode } from 'react';
import { Layout as RaLayout, useGetIdentity, useLogoutIfAccessDenied } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { getToken } from '../api';
import { declarations } from '../dataProvider/resourceTypes';
import { AppBar } from './AppBar';
import { ErrorFallback } from './ErrorFallback';
import { Menu } from './Menu';
import NotFound from './NotFound';

/**
 * The screens inside the signed-in layout (with react-admin's own pages for a refused screen or a failed
 * access check); any other path is a 404 for everyone.
 */
export const LAYOUT_PATHS = [
  '/',
  ...declarations.map((d) => `/${d.screen}`),
  '/config',
  '/access-denied',
  '/authentication-error',
];

/**
 * Signs out when the signed-in user can no longer be read (`me` answers UNAUTHENTICATED: the token expired, was
 * revoked, or its user is gone or inactive), on any screen, whether or not the screen itself calls the gateway.
 * The identity is the one the menu and app bar show: no request of its own.
 */
function SessionCheck() {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  useGetIdentity({ onError: (error) => void logoutIfAccessDenied(error) });
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!LAYOUT_PATHS.includes(path)) return <NotFound />;
  // Signing in then opens the screen the link was for (react-admin's useLogin reads this state), not the dashboard.
  if (!getToken())
    return (
      <Navigate to="/login" replace state={path === '/' ? undefined : { nextPathname: path, nextSearch: search }} />
    );
  return (
    <RaLayout appBar={AppBar} menu={Menu} error={ErrorFallback}>
      {children}
      <SessionCheck />
    </RaLayout>
  );
}
