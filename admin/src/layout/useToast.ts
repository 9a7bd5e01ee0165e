import { useCallback } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { errorText, isNetworkFailure } from '../api';

export type Severity = 'success' | 'error' | 'info' | 'warning';

/** What a toast shows under its title (the notification's message), in the words of the screen that shows it. */
export interface ToastContent {
  description?: string;
  closeLabel: string;
}

/**
 * Shows a toast at the bottom right, in the caller's language: `toast('Sucesso', 'O item foi apagado com sucesso.')`.
 * A newer toast replaces it. The toasts are drawn by layout/Toasts.tsx, which comes after the first screen.
 */
export function useToast() {
  const notify = useNotify();
  const translate = useTranslate();
  return useCallback(
    (title: string, description?: string, severity: Severity = 'success') => {
      const toast: ToastContent = { description, closeLabel: translate('ra.action.close') };
      notify(title, { type: severity, autoHideDuration: 5000, toast });
    },
    [notify, translate],
  );
}

/** Tells of a failed call: the server's detail, or that the server could not be reached. */
export function useFailureToast() {
  const toast = useToast();
  const translate = useTranslate();
  return useCallback(
    (error: unknown, title: string = translate('app.notification.failure')) =>
      toast(title, isNetworkFailure(error) ? translate('app.notification.network') : errorText(error), 'error'),
    [toast, translate],
  );
}
