import type { IncomingHttpHeaders } from 'node:http';
import type { AuthChecker } from 'type-graphql';
import type { Caller } from '../auth/auth.service';
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
 * The context keeps the two values it reads of the request, not the request: Apollo's executor interface hands each
 * operation a request context holding this one under accessors made anew for every request, which V8 keeps outside
 * the young generation until the next full collection. Whatever the context references lives that long too; the
 * HTTP request and response behind it (their headers, Express's and compression's state) would be copied and promoted
 * with every read (bench/README.md, "Why a GraphQL read cost more to collect").
 */
export function buildContext(req: ContextRequest, services: Services): Context {
  const { authorization } = req.headers;
  let user: Promise<SignedInUser> | undefined;
  const results = new Map<string, Promise<unknown>>();
  return {
    services,
    caller: { ip: req.ip ?? 'unknown' },
    user: () => (user ??= services.auth.authenticate(authorization)),
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
