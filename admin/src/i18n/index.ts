import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';

/**
 * The screens' texts are written in the components, in the language the product uses on each screen;
 * react-admin's own texts stay in English, with these few adjustments.
 */
const messages = {
  ...englishMessages,
  ra: {
    ...englishMessages.ra,
    page: { ...englishMessages.ra.page, not_found: 'Not Found', error: 'Something went wrong!' },
    action: { ...englishMessages.ra.action, open_menu: 'Abrir menu', close_menu: 'Fechar menu' },
  },
};

export const i18nProvider = polyglotI18nProvider(() => messages, 'pt-BR', [{ locale: 'pt-BR', name: 'Português' }], {
  allowMissing: true,
});
