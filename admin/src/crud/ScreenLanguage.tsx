import type { ReactNode } from 'react';
import { I18nContextProvider, type I18nProvider } from 'react-admin';

/** Shows a screen in its own language, react-admin's texts included (search, export, bulk actions, Save...). */
export function ScreenLanguage({ i18nProvider, children }: { i18nProvider: I18nProvider; children: ReactNode }) {
  return <I18nContextProvider value={i18nProvider}>{children}</I18nContextProvider>;
}
