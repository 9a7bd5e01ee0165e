import { createContext, useContext, type ReactNode } from 'react';
import { I18nContextProvider, type I18nProvider } from 'react-admin';

/** Shows a screen in its own language, react-admin's texts included (search, export, bulk actions, Save...). */
export function ScreenLanguage({ i18nProvider, children }: { i18nProvider: I18nProvider; children: ReactNode }) {
  return <I18nContextProvider value={i18nProvider}>{children}</I18nContextProvider>;
}

/**
 * The language a screen's words are in where it is not the document's (pt-BR), as a `lang` attribute: a screen
 * reader then speaks 'Select all' and 'Add User' as English. Its dialogs and menus, drawn outside the screen's
 * element, read it here to say it too.
 */
const ScreenLang = createContext<string | undefined>(undefined);
export const ScreenLangProvider = ScreenLang.Provider;
export const useScreenLang = () => useContext(ScreenLang);
