import http from 'node:http';
import type { Express } from 'express';

/**
 * A Node HTTP server for an Express app whose requests and responses are made with Express's own prototypes, because
 * Express's per-request `Object.setPrototypeOf` keeps V8 from optimising every property access on them afterwards.
 * They are subclasses of Node's classes, not functions calling Node's constructors, because V8 sizes an object by its
 * constructor and keeps an outgrown one as a slow dictionary.
 */
export function expressServer(
  app: Express,
  options: http.ServerOptions,
  listener: http.RequestListener = app,
): http.Server {
  class Request extends http.IncomingMessage {
    #ip: string | undefined;
    /**
     * Express's `req.ip` (TRUST_PROXY's reading of X-Forwarded-For), worked out once a request: its handler and its
     * access log line both ask for it.
     */
    get ip(): string | undefined {
      return (this.#ip ??= Reflect.get(expressRequest, 'ip', this) as string | undefined);
    }
  }
  class Response extends http.ServerResponse {}
  const expressRequest = app.request;
  Object.setPrototypeOf(Request.prototype, expressRequest);
  Object.setPrototypeOf(Response.prototype, app.response);
  // Its prototype is express's request from here on, which the class cannot declare: set as the value it is.
  Reflect.set(app, 'request', Request.prototype);
  app.response = Response.prototype as typeof app.response;
  return http.createServer(
    {
      ...options,
      IncomingMessage: Request,
      ServerResponse: Response,
    },
    listener,
  );
}
