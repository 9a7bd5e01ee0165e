import type { StringMap } from 'react-admin';

/**
 * Each resource's texts once loaded, by screen name: the object the i18n providers' messages hold as `resources`
 * (i18n/index.ts), filled by labels/index.ts as screens open. A module of its own, importing nothing, so that both can
 * import it in any order.
 */
export const resourceMessages: StringMap = {};
