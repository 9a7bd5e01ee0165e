import { i18nProvider, portugueseI18nProvider } from '../i18n';
import type { StringMap } from 'react-admin';
import { LOCALE } from '../store';
import { resourceMessages } from './store';

/**
 * A resource's texts: one file here per resource, named after its screen (`clientes.ts`), exporting by default its
 * messages under react-admin's `resources.<name>` convention:
 *
 * - `menu`: its sidebar entry; `language: 'pt'`: the screen is in Portuguese, react-admin's own texts included;
 *   `language: 'en'`: in English, marked so for screen readers;
 * - `title`, `table` (the table's accessible name), `empty`, `name`;
 * - `fields.<field>`: a column's heading and, unless `inputs` says otherwise, its input's label;
 *   `inputs.<field>` / `inputs.edit.<field>`: an input's label (in the edit dialog);
 * - `values.<field>.<value>`: how a state's value reads; `hints.<field>.<value>`: what it asks of staff, in its chip's
 *   tooltip ('Com falhas': see which products in Sincronizações); `notes.<field>.<other field>`: what another field says
 *   there when it is set (`%{value}` its value; a client's missing Nuvemshop permissions), also atop the edit dialog;
 * - `items.<field>.<part>`: a part's heading in a table or timeline (`@display`), `items.<field>.empty.<part>` what
 *   an empty part reads ('sem vínculo'), `items.<field>.none` what an empty list reads;
 * - `validation.<field>.<rule>`: a message replacing react-admin's own for that rule on that field;
 * - `type`: how the delete messages name a record ('O item foi apagado com sucesso.');
 * - `action.create|edit|delete` (or `action.show` for a read-only resource), `notifications.created|updated`,
 *   `navigation`;
 * - `actions.<name>`: a record action the resource declares (`actions` in its declaration, a client's sync): its
 *   `label`, and what its toasts say (`done.<state>`, `already.<state>`, `failed`, `errors.<detail>`: crud/recordAction.ts).
 *
 * Each file is loaded with its screen (lists.ts), beside the screen's code, and the sidebar loads them all once the
 * first screen has been painted: a list's first screen carries no other resource's texts.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>(['./*.ts', '!./index.ts', '!./store.ts']);

const loading = new Map<string, Promise<void>>();

/** Loads a resource's texts into both i18n providers (once); a resource without a file has none to load. */
export function loadLabels(screen: string): Promise<void> {
  let load = loading.get(screen);
  if (!load) {
    const file = files[`./${screen}.ts`];
    load = (file ? file() : Promise.resolve({ default: {} })).then(async (module) => {
      resourceMessages[screen] = module.default as StringMap;
      // The providers read their messages again: react-admin's polyglot provider replaces its phrases.
      await Promise.all([i18nProvider.changeLocale(LOCALE), portugueseI18nProvider.changeLocale(LOCALE)]);
    });
    load.catch(() => loading.delete(screen));
    loading.set(screen, load);
  }
  return load;
}

/** Every resource's texts (for the sidebar's entries). */
export const loadAllLabels = (): Promise<unknown> =>
  Promise.all(Object.keys(files).map((file) => loadLabels(file.replace(/^\.\/(.*)\.ts$/, '$1'))));

/** A resource's texts as loaded (its `language`, say), or nothing yet. */
export const labelsOf = (screen: string) => resourceMessages[screen] as Record<string, unknown> | undefined;
