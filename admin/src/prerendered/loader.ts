/**
 * The public pages' own script, the only one they run until they are used (admin/vite.config.mts,
 * `prerenderPublicPages`). The page came with its content already rendered, in both appearances, each in a
 * <template>; this puts the visitor's in the page, before the first paint.
 *
 * Its fields show the focus and move their label up out of the way as the app's do, by MUI's own marks (the
 * `Mui-focused` class and `data-shrink`; the build gives the shrunk labels their style).
 *
 * The app's code (`data-entry`, the admin's entry) loads on the first sign of use: a pointer or key pressed, a touch,
 * text put in a field (a password manager's, say), a click (a screen reader's has no pointer) or a form sent. Until the app is up, the page's fields take what is
 * typed, its links are plain links, and a form sent is held (`data-submitted`), as is a click on another button
 * (showing the password, say: `data-clicked`): the app takes the fields, the focus, the clicks and the held form over
 * when it draws the page (prerendered/takeOver.ts). A signed-in visitor gets the app at once,
 * which sends them on, and not the page.
 *
 * A classic script, built on its own (vite.config.mts) and run where it stands: what it imports is bundled in.
 */
import { TOKEN_KEY } from '../token';
import { APPEARANCE_KEY, CLICKED, FOCUSED, LEFT_EMPTY, PRERENDERED_ID, REQUIRED_MESSAGE, SUBMITTED } from './names';

const USE = ['pointerdown', 'keydown', 'touchstart', 'input', 'click', 'submit'];

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * A field's focus and label as MUI would draw them, on focus, on leaving and on each change. The page notes which
 * field has the focus, for the app to give it back: the app's first field takes it as it is drawn (`autoFocus`).
 */
function showState(this: HTMLElement, event: Event) {
  const field = event.target;
  if (!(field instanceof HTMLInputElement)) return;
  const focused = event.type === 'focusout' ? false : field === document.activeElement;
  if (focused) this.setAttribute(FOCUSED, field.name);
  // Left for nothing else on the page (a click on the page's background, another window): no field has it.
  else if (event.type === 'focusout' && !(event as FocusEvent).relatedTarget) this.removeAttribute(FOCUSED);
  const control = field.closest('.MuiFormControl-root');
  const label = control?.querySelector('label');
  for (const element of [label, field.closest('.MuiInputBase-root')]) element?.classList.toggle('Mui-focused', focused);
  label?.setAttribute('data-shrink', String(focused || field.value !== ''));
  // A required field left empty says so as the app's does (MUI's `Mui-error` mark, its helper text); typed in, no more.
  const message = field.getAttribute(REQUIRED_MESSAGE);
  const helper = control?.querySelector('.MuiFormHelperText-root');
  if (!message || !helper) return;
  const left = new Set(JSON.parse(this.getAttribute(LEFT_EMPTY) ?? '[]') as string[]);
  const wrong = field.value === '' && (event.type === 'focusout' || left.has(field.name));
  if (wrong) left.add(field.name);
  else left.delete(field.name);
  this.setAttribute(LEFT_EMPTY, JSON.stringify([...left]));
  for (const element of [label, field.closest('.MuiInputBase-root'), helper])
    element?.classList.toggle('Mui-error', wrong);
  field.setAttribute('aria-invalid', String(wrong));
  helper.firstElementChild!.textContent = wrong ? message : '\u200b';
}

const script = document.currentScript!;
let started = false;

function start() {
  if (started) return;
  started = true;
  for (const type of USE) document.removeEventListener(type, start, true);
  const app = document.createElement('script');
  app.type = 'module';
  app.crossOrigin = '';
  app.src = script.dataset.entry!;
  document.head.appendChild(app);
}

if (stored(TOKEN_KEY)) {
  start();
} else {
  const appearance = stored(APPEARANCE_KEY) === JSON.stringify('dark') ? 'dark' : 'light';
  const template = document.getElementById(`${PRERENDERED_ID}-${appearance}`) as HTMLTemplateElement;
  const page = document.createElement('div');
  page.id = PRERENDERED_ID;
  page.appendChild(template.content.cloneNode(true));
  for (const type of ['focusin', 'focusout', 'input']) page.addEventListener(type, showState);
  // A click on a button that does something in the app (not the form's own, which sends it): noted by its place.
  page.addEventListener('click', (event) => {
    const button = (event.target as Element).closest('button[type="button"]');
    if (!button) return;
    const place = Array.from(page.querySelectorAll('button')).indexOf(button as HTMLButtonElement);
    const clicked = JSON.parse(page.getAttribute(CLICKED) ?? '[]') as number[];
    page.setAttribute(CLICKED, JSON.stringify([...clicked, place]));
  });
  script.before(page);
  // Sent before the app is up: held (the page's form has no address to go to), for the app to send.
  page.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      page.setAttribute(SUBMITTED, '');
    },
    true,
  );
  for (const type of USE) document.addEventListener(type, start, { capture: true, passive: true });
}
