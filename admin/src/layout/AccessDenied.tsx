import LockIcon from '@mui/icons-material/Lock';
import { Alert, Box, Typography } from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { Title, useLogoutIfAccessDenied } from 'react-admin';
import { useAccess } from './useAccess';

/** A screen the signed-in user may not open (react-admin's /access-denied, or a guarded route). */
export function AccessDenied() {
  return (
    <Box sx={{ p: { xs: 2, sm: 3 } }}>
      <Title title="Access denied" />
      <Typography variant="h5" component="h1" sx={{ mb: 2, display: 'flex', alignItems: 'center', gap: 1 }}>
        <LockIcon aria-hidden /> Access denied
      </Typography>
      <Alert severity="error">The user doesn&apos;t have enough privileges</Alert>
    </Box>
  );
}

/**
 * Shows a resource's screen only to whom the auth provider's `canAccess` lets in (useAccess); others see AccessDenied.
 * A failed check (the session is gone) goes through checkError, which signs out.
 */
export function RequireAccess({
  resource,
  action,
  children,
}: {
  resource: string;
  action: string;
  children: ReactNode;
}) {
  const { canAccess, isPending, error } = useAccess(resource, action);
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  useEffect(() => {
    if (error) void logoutIfAccessDenied(error);
  }, [error, logoutIfAccessDenied]);
  if (isPending || error) return null;
  return canAccess ? <>{children}</> : <AccessDenied />;
}
