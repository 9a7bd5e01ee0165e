import { notEnoughPrivileges } from '../errors';

/** Who is calling, for the per-address limits on public operations. */
export interface Caller {
  ip: string;
}

/** A signed-in caller as every permission check reads it: who, and whether a superuser. */
export interface Actor {
  id: string;
  isSuperuser: boolean;
  /** Their e-mail and the address the request came from, as the audit log records who wrote. */
  email?: string;
  address?: string;
}

/** A 403 unless the caller is a superuser. */
export function requireSuperuser(caller: Pick<Actor, 'isSuperuser'>): void {
  if (!caller.isSuperuser) throw notEnoughPrivileges();
}
