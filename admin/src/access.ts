import { declarationOf, isResourceName } from './dataProvider/resourceTypes';

/**
 * Which screens a user may open: the one rule behind the auth provider's `canAccess`, the menu and the routes.
 * A resource its declaration lets only superusers read (Users Management, the e-mails) is for superusers; every
 * other screen for anyone signed in. The gateway enforces the same rule on its side: this only spares people
 * screens they cannot use.
 */
export function canAccess(user: object | undefined | null, resource: string): boolean {
  if (!user) return false;
  if (dependsOnUser(resource)) return (user as { is_superuser?: unknown }).is_superuser === true;
  return true;
}

/**
 * Whether the answer for a screen depends on who the user is. Where it does not, a stored token is enough, and the
 * screen's data is asked for at once, beside `me` rather than after it.
 */
export const dependsOnUser = (resource: string): boolean =>
  isResourceName(resource) && declarationOf(resource).read === 'superuser';

/**
 * What a stored token alone decides, without asking who the user is: no token, no screen; a screen that does not
 * depend on the user opens. `undefined` when the answer needs `me` (Users Management). The auth provider's
 * `canAccess` and the screens' own checks (useAccess) both start here, so a signed-in start shows its list at once.
 */
export function accessByToken(resource: string, hasToken: boolean): boolean | undefined {
  if (!hasToken) return false;
  return dependsOnUser(resource) ? undefined : true;
}
