import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { getToken } from '../api';

/** The sign-in pages send a signed-in user to the dashboard. */
export function PublicOnly({ children }: { children: ReactNode }) {
  if (getToken()) return <Navigate to="/" replace />;
  return <>{children}</>;
}
