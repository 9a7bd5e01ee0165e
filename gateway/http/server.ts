import http from 'node:http';
import type { Express } from 'express';

/**
 * A Node HTTP server for an Express app whose requests and responses are made with Express's own prototypes.
 * Express gives every request and response the app's prototypes by `Object.setPrototypeOf`, which leaves V8 unable
 * to optimise any property access on them afterwards: in a bare Express 5 app that one call tripled the CPU a request
 * takes (measured: 210 µs against 70 µs per request here, a plain `node:http` answer taking 32 µs).
 *
 * So requests and responses are made by subclasses of Node's own, whose prototypes sit above Express's, and these
 * become the app's prototypes: Express's call then sets the prototype an object already has, which changes nothing.
 * They are classes, not functions calling Node's constructors, because V8 sizes an object by its constructor: a
 * response made by a function adding none of Node's fields itself outgrew its fast layout and was kept as a
 * dictionary (2.9 µs to make a request and its response against 0.3 µs, and every read of a response's field a
 * lookup in a hash table).
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
  // Its prototype is express's request from here on, which the class cannot declare.
  app.request = Request.prototype as unknown as typeof app.request;
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
