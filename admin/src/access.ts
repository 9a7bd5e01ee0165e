/**
 * Which screens a user may open: the one rule behind the auth provider's `canAccess`, the menu and the routes.
 * Users Management (the `admin` resource) is for superusers; every other screen for anyone signed in.
 * The gateway enforces the same rule on its side: this only spares people screens they cannot use.
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
export const dependsOnUser = (resource: string): boolean => resource === 'admin';
