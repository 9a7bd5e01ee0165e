import createCache from '@emotion/cache';
import type { ReactNode } from 'react';
import { AdminContext, Form, memoryStore, TextInput } from 'react-admin';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { App } from '../App';
import { i18nProvider } from '../i18n';
import { STYLE_CACHE_KEY } from '../layout/keptStyles';
import { PRERENDERED_ID } from './names';
import { LOCALE } from '../store';
import { darkTheme, lightTheme } from '../themes';

export { PRERENDERED_ID };

/**
 * The public pages the build writes already rendered (admin/vite.config.mts, `prerenderPublicPages`), each in both
 * appearances: a signed-out visitor sees the page at once, and the app's code loads only once they use it
 * (loader.ts). Not the others: /signup shows what the server says of registration, /reset-password a form
 * or "invalid link" by its address's token, and /callback sends the store's code at once.
 */
export const PRERENDERED_PAGES = ['/login', '/recover-password'];
export const APPEARANCES = ['light', 'dark'] as const;
type Appearance = (typeof APPEARANCES)[number];

const storeFor = (appearance: Appearance) => memoryStore({ theme: appearance, locale: LOCALE });

/** React's HTML for `element`, every lazy part of it loaded: what the browser's first render draws. */
async function html(element: ReactNode): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(element, { onError: (error) => void errors.push(error) });
  let text = '';
  for await (const chunk of prelude) text += String(chunk);
  if (errors.length) throw new Error('rendering failed', { cause: errors[0] });
  return text;
}

/** The Emotion class (`css-…`) of each <label> in `markup`. */
const labelClasses = (markup: string) =>
  Array.from(markup.matchAll(/<label class="[^"]*\b(css-[\w-]+)"/g), (match) => match[1]!);

/** The CSS Emotion wrote beside the elements for `className`. */
function stylesOf(markup: string, className: string): string {
  const name = className.slice(`${STYLE_CACHE_KEY}-`.length);
  const found = new RegExp(`<style data-emotion="${STYLE_CACHE_KEY} [^"]*\\b${name}\\b[^"]*">([^<]*)</style>`).exec(
    markup,
  );
  if (!found) throw new Error(`no styles for ${className}`);
  return found[1]!;
}

/** A TextInput's label, empty (resting) and shrunk, in one appearance: its Emotion classes and the shrunk one's CSS. */
interface LabelStyles {
  empty: string;
  shrunk: string;
  css: string;
}

/** Found once per appearance, whatever the number of pages. */
const labelStyles = new Map<Appearance, Promise<LabelStyles>>();

/** react-admin's TextInput drawn empty and filled, as the app's fields draw it, and its label's two styles. */
async function findLabelStyles(appearance: Appearance): Promise<LabelStyles> {
  const field = (value: string) => (
    <StaticRouter location="/">
      <AdminContext
        store={storeFor(appearance)}
        i18nProvider={i18nProvider}
        theme={lightTheme}
        darkTheme={darkTheme}
        defaultTheme="light"
      >
        <Form record={{ probe: value }}>
          <TextInput source="probe" />
        </Form>
      </AdminContext>
    </StaticRouter>
  );
  const [emptyMarkup, filledMarkup] = await Promise.all([html(field('')), html(field('text'))]);
  const [empty] = labelClasses(emptyMarkup);
  const [shrunk] = labelClasses(filledMarkup);
  if (!empty || !shrunk || empty === shrunk) throw new Error('no shrunk label style found');
  return { empty, shrunk, css: stylesOf(filledMarkup, shrunk) };
}

/**
 * A field's label moves up out of the way when the field has the focus or holds text (MUI's "shrink"). MUI draws that
 * from React state, with a style of its own, which a page rendered here cannot switch to. This gives that style (as
 * the app's fields draw it) to a page's labels of the empty kind while the loader marks them shrunk (`data-shrink`,
 * as MUI does).
 */
async function shrinkStyles(page: string, appearance: Appearance): Promise<string> {
  if (!labelStyles.has(appearance)) labelStyles.set(appearance, findLabelStyles(appearance));
  const { empty, shrunk, css } = await labelStyles.get(appearance)!;
  const other = labelClasses(page).find((className) => className !== empty);
  if (other) throw new Error(`a label (${other}) is not of react-admin's TextInput: its shrunk style is not known`);
  const selector = `#${PRERENDERED_ID} label.${empty}[data-shrink="true"]`;
  return `<style>${css.replaceAll(`.${shrunk}`, selector)}</style>`;
}

/**
 * A page as the app's first render draws it for a signed-out visitor in that appearance: the same App, inside a
 * router at that address, with a store holding only the appearance, and an Emotion cache of the app's key, whose
 * styles are written beside the elements (the app's cache takes them in when it starts, as it does the kept styles).
 * Then the labels' shrunk style.
 */
export async function renderPage(location: string, appearance: Appearance): Promise<string> {
  const page = await html(
    <StaticRouter location={location}>
      <App store={storeFor(appearance)} styleCache={createCache({ key: STYLE_CACHE_KEY })} />
    </StaticRouter>,
  );
  return page + (await shrinkStyles(page, appearance));
}
