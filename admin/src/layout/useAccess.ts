import { useCanAccess } from 'react-admin';
import { accessByToken } from '../access';
import { getToken } from '../token';

/**
 * react-admin's `useCanAccess`, answered at once where the stored token alone decides (access.ts): the menu and a
 * resource's screen render in the app's first pass instead of after a round of the auth provider. Users Management
 * still asks the auth provider, which asks `me`.
 */
export function useAccess(
  resource: string,
  action: string,
): { canAccess?: boolean; isPending: boolean; error: unknown } {
  const known = accessByToken(resource, !!getToken());
  const asked = useCanAccess({ resource, action, enabled: known === undefined });
  return known === undefined ? asked : { canAccess: known, isPending: false, error: null };
}
