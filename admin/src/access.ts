/**
 * Which screens a user may open: the one rule behind the auth provider's `canAccess`, the menu and the routes.
 * Users Management (the `admin` resource) is for superusers; every other screen for anyone signed in.
 * The gateway enforces the same rule on its side: this only spares people screens they cannot use.
 */
export function canAccess(user: object | undefined | null, resource: string): boolean {
  if (!user) return false;
  if (resource === 'admin') return (user as { is_superuser?: unknown }).is_superuser === true;
  return true;
}
