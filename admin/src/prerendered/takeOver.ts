import { CLICKED, FOCUSED, LEFT_EMPTY, PRERENDERED_ID, SUBMITTED } from './names';

/** Sets what a field holds past React's own setter, as the browser does when it is typed in. */
function setValue(field: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
}

/** What a field holds, set as the browser would when typed in: React and the form state hear an `input` event. */
function typeInto(field: HTMLInputElement, value: string) {
  setValue(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

const fieldNamed = (within: HTMLElement, name: string) =>
  Array.from(within.querySelectorAll('input')).find((field) => field.name === name);

/**
 * The app takes over a public page the build rendered (loader.ts), once it has drawn the same page in `drawn` and
 * before the browser paints: the build's page goes, and what the visitor did there carries over. Each field (by name)
 * shows what was typed in it, and the one that had the focus gets it, with its caret.
 *
 * The form's state hears of the typed values only in the function returned, to call once the form's first effects
 * have run and their updates are rendered (react-admin's form resets its values to the record's in one, and its
 * fields register again as it renders): it types them in, clicks again the buttons clicked (the same buttons, in the
 * same places), and sends the form if it was sent before the app was up.
 */
export function takeOverPrerendered(drawn: HTMLElement): (() => void) | undefined {
  const page = document.getElementById(PRERENDERED_ID);
  if (!page) return undefined;
  const typed = Array.from(page.querySelectorAll<HTMLInputElement>('input[name]'), (field) => ({
    name: field.name,
    value: field.value,
    focused: field.name === page.getAttribute(FOCUSED),
    // null where the field has no caret (an email field).
    caret: field.selectionStart,
  })).filter(({ value, focused }) => value || focused);
  const submitted = page.hasAttribute(SUBMITTED);
  const clicked = JSON.parse(page.getAttribute(CLICKED) ?? '[]') as number[];
  const leftEmpty = JSON.parse(page.getAttribute(LEFT_EMPTY) ?? '[]') as string[];
  page.remove();
  for (const { name, value, focused, caret } of typed) {
    const field = fieldNamed(drawn, name);
    if (!field) continue;
    setValue(field, value);
    if (!focused) continue;
    field.focus();
    if (caret !== null) field.setSelectionRange(caret, caret);
  }
  return () => {
    for (const { name, value } of typed) {
      const field = fieldNamed(drawn, name);
      if (field && value) typeInto(field, value);
    }
    // A field left empty showed its message: the form hears it was left, and shows the same.
    for (const name of leftEmpty) fieldNamed(drawn, name)?.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    const buttons = drawn.querySelectorAll('button');
    // One click a task: React renders what a click did before the next reads it (two clicks on "Show password"
    // hide it again). Then the form, once the clicks are in.
    const next = (index: number) => {
      if (index < clicked.length) {
        buttons[clicked[index]!]?.click();
        setTimeout(() => next(index + 1));
      } else if (submitted) drawn.querySelector('form')?.requestSubmit();
    };
    next(0);
  };
}
