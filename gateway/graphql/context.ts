import type { IncomingHttpHeaders } from 'node:http';
import type { AuthChecker } from 'type-graphql';
import type { Caller } from '../users/auth.service';
import type { Services } from '../services';
import type { SignedInUser } from '../users/user.schemas';

export interface Context {
  services: Services;
  caller: Caller;
  /** The signed-in user, authenticated once per request with the REST statuses (as GraphQL codes). */
  user(): Promise<SignedInUser>;
  /** Shares one result between fields of one request (a list and its `_allXMeta` read the same page). */
  once<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** The request as the context reads it: the caller's address and the Authorization header. */
export interface ContextRequest {
  ip?: string;
  headers: IncomingHttpHeaders;
}

/**
 * The context keeps the two values it reads of the request, not the request: whatever still holds a context after its
 * answer is sent (Apollo's context for the executor until the collector frees it, a promise still pending) then holds
 * two strings, not the HTTP request and response with their headers and every handler's state.
 */
export function buildContext(req: ContextRequest, services: Services): Context {
  const { authorization } = req.headers;
  // The address as a string of its own: a closure over `req` would keep the whole request alive with the context.
  const address = req.ip;
  let user: Promise<SignedInUser> | undefined;
  const results = new Map<string, Promise<unknown>>();
  return {
    services,
    caller: { ip: address ?? 'unknown' },
    user: () => (user ??= services.auth.authenticate(authorization, address)),
    once: <T>(key: string, load: () => Promise<T>) => {
      if (!results.has(key)) results.set(key, load());
      return results.get(key) as Promise<T>;
    },
  };
}

/** `@Authorized()` means signed in; finer rules (superuser, ownership) live in the services. */
export const authChecker: AuthChecker<Context> = async ({ context }) => {
  await context.user();
  return true;
};
