import { Alert, AlertTitle } from '@mui/material';
import { useCallback } from 'react';
import { Notification, useCloseNotification, useNotify } from 'react-admin';

type Severity = 'success' | 'error' | 'info' | 'warning';

/** A toast with a title, a description and a close button. */
export function Toast({ title, description, severity }: { title: string; description?: string; severity: Severity }) {
  const close = useCloseNotification();
  return (
    <Alert
      severity={severity}
      variant="filled"
      onClose={close}
      role={severity === 'error' ? 'alert' : 'status'}
      sx={{ minWidth: 288, maxWidth: 480 }}
    >
      <AlertTitle sx={{ mb: description ? 0.5 : 0 }}>{title}</AlertTitle>
      {description}
    </Alert>
  );
}

/** Shows a toast at the bottom right: `toast('Sucesso', 'O item foi apagado com sucesso.')`. */
export function useToast() {
  const notify = useNotify();
  return useCallback(
    (title: string, description?: string, severity: Severity = 'success') =>
      notify(<Toast title={title} description={description} severity={severity} />, {
        type: severity,
        autoHideDuration: 5000,
      }),
    [notify],
  );
}

export const BottomRightNotification = () => (
  <Notification anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} />
);
