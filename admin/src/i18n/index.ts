import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { portugueseMessages } from './portuguese';
import { resourceMessages } from '../labels/store';
import { missingText } from './missing';
import { englishAppMessages, portugueseAppMessages } from './resources';
import { LOCALE } from '../store';

/**
 * The app's texts: react-admin's own in English (with these few adjustments), the list screens' under `resources`
 * and `app`. The screens the product shows in Portuguese (Clients) switch to `portugueseI18nProvider`.
 */
const messages = {
  ...englishMessages,
  ra: {
    ...englishMessages.ra,
    page: { ...englishMessages.ra.page, not_found: 'Not Found', error: 'Something went wrong!' },
    // The app bar's tools speak the staff's language, whatever the screen below.
    action: {
      ...englishMessages.ra.action,
      open_menu: 'Abrir menu',
      close_menu: 'Fechar menu',
      refresh: 'Atualizar',
      toggle_theme: 'Alternar tema claro/escuro',
    },
    // A sort control reads its column's label as written ('Sort by Full name ascending'), not lower-cased.
    sort: { ...englishMessages.ra.sort, sort_by: 'Sort by %{field} %{order}' },
    navigation: {
      ...englishMessages.ra.navigation,
      page_range_info: '%{offsetBegin}–%{offsetEnd} of %{total}',
      // The layout's keyboard link to the page, beside the app bar's tools, speaks the staff's language too.
      skip_nav: 'Pular para o conteúdo',
      partial_page_range_info: '%{offsetBegin}–%{offsetEnd} of more than %{offsetEnd}',
    },
  },
  app: englishAppMessages,
  resources: resourceMessages,
};

// A text a resource's labels do not give reads as words made from its key (i18n/missing.ts).
const onMissingKey = (key: string, options: Record<string, unknown>) => missingText(key, options);

export const i18nProvider = polyglotI18nProvider(() => messages, LOCALE, [{ locale: LOCALE, name: 'Português' }], {
  allowMissing: true,
  onMissingKey,
});

/** Every text in Portuguese, react-admin's own included: for a screen shown in Portuguese. */
export const portugueseI18nProvider = polyglotI18nProvider(
  () => ({ ...portugueseMessages, app: portugueseAppMessages, resources: resourceMessages }),
  LOCALE,
  [{ locale: LOCALE, name: 'Português' }],
  { allowMissing: true, onMissingKey },
);
