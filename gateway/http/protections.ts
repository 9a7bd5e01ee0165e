import { randomUUID } from 'node:crypto';
import type { CorsOptions } from 'cors';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

/**
 * What every answer carries, whichever part of the server writes it: the API lane (/api/v1, /graphql) and the
 * Express app (the admin, /docs, the explorer) share these settings.
 */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/** Cross-origin calls from the configured origins only (none unless CORS_ORIGINS is set). */
export function corsOptions(config: Config): CorsOptions | undefined {
  if (!config.CORS_ORIGINS.length) return undefined;
  return { origin: config.CORS_ORIGINS, allowedHeaders: ['Authorization', 'Content-Type', 'Apollo-Require-Preflight'] };
}

/**
 * helmet's headers for HELMET_OPTIONS as one flat `[name, value, …]` list, asked of helmet once: its answer does not
 * depend on the request, so the API lane writes them with the status line instead of running twelve setters per
 * request.
 */
export function securityHeaders(): string[] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let done = false;
  helmet(HELMET_OPTIONS)({ headers: {} } as never, response as never, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously');
  return [...headers].flat();
}

/** Query parameters that carry secrets (reset tokens, authorization codes) are masked in logs. */
const SECRET_QUERY = /([?&](?:token|code|access_token)=)[^&#]*/gi;
export const maskUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/** The caller's X-Request-Id when it is a plain token, else a new one. */
export function requestId(given: string | string[] | undefined): string {
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
}

export const TIMED_OUT = 'The request took too long and was stopped';

/** Health checks are polled every few seconds by orchestrators: not worth a log line each. */
export const HEALTH_CHECK_PATH = '/api/v1/utils/health-check/';
