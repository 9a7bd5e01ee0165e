import { notEnoughPrivileges } from '../errors';

/** Who is calling, for the per-address limits on public operations. */
export interface Caller {
  ip: string;
}

/** A signed-in caller as every permission check reads it: who, and whether a superuser. */
export interface Actor {
  id: string;
  isSuperuser: boolean;
}

/** A 403 unless the caller is a superuser. */
export function requireSuperuser(caller: Pick<Actor, 'isSuperuser'>): void {
  if (!caller.isSuperuser) throw notEnoughPrivileges();
}
