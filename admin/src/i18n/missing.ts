/**
 * What a screen shows for a text its labels file (labels/<screen>.ts) does not give: words made from the key
 * (`fields.remind_at` → "Remind at", `values.status.open` → "Open") rather than the key itself, so that a new
 * resource reads as it should before its labels are written. The build warns of each one missing (vite.config.mts).
 */
const ACTIONS: Record<string, string> = {
  'action.create': 'Add',
  'action.edit': 'Edit',
  'action.delete': 'Delete',
  'action.show': 'Show',
  'notifications.created': 'Created',
  'notifications.updated': 'Saved',
  'navigation.previous': 'Previous',
  'navigation.next': 'Next',
  'navigation.page': 'Page %{page}',
  empty: 'Nothing here yet.',
};

/** `remind_at` → `Remind at`. */
export const readable = (name: string) => {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
};

/** A missing text's words: a resource's from its key, any other key as itself (react-admin's own convention). */
export function missingText(key: string, options: Record<string, unknown> = {}): string {
  const found = /^resources\.([^.]+)\.(.+)$/.exec(key);
  if (!found) return key;
  const [, screen, rest] = found;
  const text = ACTIONS[rest] ?? (/^(menu|title|table|name|type)$/.test(rest) ? readable(screen) : undefined);
  const words = text ?? readable(rest.slice(rest.lastIndexOf('.') + 1));
  return words.replace(/%\{(\w+)\}/g, (_, name: string) => String(options[name] ?? ''));
}
