/** Where the loader (loader.ts) puts a public page rendered by the build, until the app takes it over (takeOver.ts). */
export const PRERENDERED_ID = 'prerendered';
/** Set on that page to the name of the field that has the focus, kept when the app's own fields take it. */
export const FOCUSED = 'data-focused';
/** Set on that page to the buttons (not the form's own) clicked before the app was up, by their place, as JSON. */
export const CLICKED = 'data-clicked';
/** Set on that page when its form was sent before the app was up. */
export const SUBMITTED = 'data-submitted';
/** The app's key in react-admin's store (store.ts): its keys in localStorage are `RaStore<key>.<name>`. */
export const STORE_APP_KEY = 'SistemaIntegracao';
/** Where that store keeps the appearance chosen, as JSON. */
export const APPEARANCE_KEY = `RaStore${STORE_APP_KEY}.theme`;
/** On a field: the message it shows when left empty (the app's own rule's), for the page to show before the app is up. */
export const REQUIRED_MESSAGE = 'data-required-message';
/** Set on that page to the fields left empty that show their message, as JSON: the app shows it too. */
export const LEFT_EMPTY = 'data-left-empty';
