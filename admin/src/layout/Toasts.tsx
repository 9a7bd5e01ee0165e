import { Alert, AlertTitle, Snackbar } from '@mui/material';
import { useEffect, useState } from 'react';
import { useNotificationContext, useTranslate, type NotificationPayload } from 'react-admin';
import { isNetworkFailure } from '../api';
import type { ToastContent } from './useToast';

type Translate = ReturnType<typeof useTranslate>;

/** A notification's title, description and close button's name. */
function contentOf({ message, type, notificationOptions: options = {} }: NotificationPayload, translate: Translate) {
  const own = options.toast as ToastContent | undefined;
  if (own) return { title: message, ...own };
  // react-admin's own notifications (a failed list load, say): a text key, put in the app's words; a failure under the
  // failure title.
  const text =
    typeof message !== 'string'
      ? message
      : isNetworkFailure({ message })
        ? translate('app.notification.network')
        : translate(message, { _: message, ...options.messageArgs });
  const closeLabel = translate('ra.action.close');
  return type === 'error'
    ? { title: translate('app.notification.failure'), description: text, closeLabel }
    : { title: text, closeLabel };
}

/**
 * The toasts, at the bottom right, each with a title, a description and a close button. One at a time, and the newest
 * replaces the one on screen: react-admin's own Notification queues them, each waiting out the one before.
 */
export function Toasts() {
  const { notifications, resetNotifications } = useNotificationContext();
  const translate = useTranslate();
  const [current, setCurrent] = useState<{
    key: number;
    payload: NotificationPayload;
    open: boolean;
  } | null>(null);
  const newest = notifications[notifications.length - 1];
  if (newest && newest !== current?.payload) setCurrent({ key: (current?.key ?? 0) + 1, payload: newest, open: true });
  // Shown, or replaced: none waits its turn.
  useEffect(() => {
    if (notifications.length) resetNotifications();
  }, [notifications, resetNotifications]);
  if (!current) return null;
  const { title, description, closeLabel } = contentOf(current.payload, translate);
  const { type, notificationOptions } = current.payload;
  const close = () => setCurrent({ ...current, open: false });
  return (
    <Snackbar
      // A new toast is a new Snackbar: the one on screen goes at once instead of waiting for its time or its close.
      key={current.key}
      open={current.open}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      sx={ABOVE_DIALOG_BUTTONS}
      autoHideDuration={notificationOptions?.autoHideDuration ?? 5000}
      // A click elsewhere leaves it: it goes with its time, its close button, or the next toast.
      onClose={(_event, reason) => reason !== 'clickaway' && close()}
      slotProps={{ transition: { onExited: () => setCurrent(null) } }}
    >
      <Alert
        severity={type}
        variant="filled"
        onClose={close}
        closeText={closeLabel}
        role={type === 'error' ? 'alert' : 'status'}
        sx={{ minWidth: 288, maxWidth: 480 }}
      >
        <AlertTitle sx={{ mb: description ? 0.5 : 0 }}>{title}</AlertTitle>
        {description}
      </Alert>
    </Snackbar>
  );
}

/**
 * How far above a phone screen's bottom an open dialog's buttons reach, when the dialog is as tall as the screen lets
 * it be (an add or edit form): MUI's margin around a dialog (32 px), then the action bar (RecordDialog.tsx): its
 * bottom padding (16), a button (36.5) and its top padding (8).
 */
const DIALOG_BUTTONS_REACH = 32 + 16 + 36.5 + 8;
/** The room a toast keeps from what it must not cover, as it keeps from the screen's bottom on larger screens. */
const TOAST_GAP = 24;

/**
 * On a phone a toast spans the screen's width: over an open dialog's buttons (Cancelar, Salvar) it would hide them
 * until it goes, so while a dialog with buttons is open it sits above where they can be, and back down once it closes.
 */
const ABOVE_DIALOG_BUTTONS = {
  '@media (max-width: 599.95px)': {
    'body:has(.MuiDialog-root .MuiDialogActions-root) &': { bottom: Math.ceil(DIALOG_BUTTONS_REACH + TOAST_GAP) },
  },
};
