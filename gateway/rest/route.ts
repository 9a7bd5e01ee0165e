import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import type { AuthService, Caller } from '../users/auth.service';
import type { Admission, AdmissionRequest } from '../http/admission';
import type { SignedInUser } from '../users/user.schemas';
import { ValidationFailed } from '../errors';
import { validate } from '../validation';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Schema = z.ZodType;
/** What a schema gives once validated: nothing without one, anything for a route whose schemas are not known. */
type Out<S> = unknown extends S ? unknown : S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<B, Q, P, A extends boolean> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  user: A extends true ? SignedInUser : undefined;
  caller: Caller;
  /** The body's bytes as received, for a route that takes `rawBody` (and then validates `body` itself). */
  raw: Buffer | undefined;
  headers: IncomingHttpHeaders;
}

export interface Route<B = unknown, Q = unknown, P = unknown, A extends boolean = boolean> {
  method: Method;
  /** Express path below /api/v1, e.g. `/users/:id`. */
  path: string;
  summary: string;
  tag: string;
  /** Needs a bearer token. Superuser and ownership rules live in the services. */
  auth: A;
  body?: B;
  /** The body's fields whose values a validation error never echoes (a resource's secrets). */
  secrets?: ReadonlySet<string>;
  /** Login takes a form (urlencoded or multipart), every other body is JSON. */
  form?: boolean;
  /**
   * The body is handed over unparsed, as bytes, up to this size (e.g. `1mb`; past it, 413): for a signature over the
   * body as sent. `body` then only documents it; the handler reads it.
   */
  rawBody?: string;
  /**
   * For a `rawBody` route: decides from the headers and the caller's address, before a byte of the body is read, how
   * much of it is read and under what bound the request runs, or refuses it (throws).
   */
  admit?: (request: AdmissionRequest) => Promise<Admission>;
  query?: Q;
  params?: P;
  /** The successful answer: a schema, or 'html' for a text/html page. */
  response: Schema | 'html';
  /** The successful answer's status: 200 unless told (202 for work accepted and done later). */
  status?: number;
  /** Documented failures beyond authentication and validation. */
  errors?: Record<number, string>;
  handler: (input: RouteInput<B, Q, P, A>) => Promise<unknown>;
}

/** Infers a route's types from its schemas; keeps route tables readable. */
export const route = <
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
  A extends boolean,
>(
  r: Route<B, Q, P, A>,
): Route => r as Route;

const ErrorDetail = z.object({ detail: z.string() }).meta({ id: 'HTTPError' });
const ValidationDetail = z
  .object({
    detail: z.array(
      z.object({
        type: z.string(),
        loc: z.array(z.union([z.string(), z.number()])),
        msg: z.string(),
        input: z.unknown().optional(),
      }),
    ),
  })
  .meta({ id: 'HTTPValidationError' });

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** A form's fields are read one by one, so a missing one echoes no input (FastAPI answers `null`), not the form. */
function validateForm<S extends Schema>(
  schema: S,
  data: unknown,
  root: 'body',
  secrets?: ReadonlySet<string>,
): z.output<S> {
  try {
    return validate(schema, data, root, secrets);
  } catch (error) {
    if (error instanceof ValidationFailed) {
      throw new ValidationFailed(error.issues.map((i) => (i.type === 'missing' ? { ...i, input: null } : i)));
    }
    throw error;
  }
}

function document(registry: OpenAPIRegistry, r: Route): void {
  const json = (schema: Schema) => ({ 'application/json': { schema } });
  const responses: Record<string, { description: string; content?: object }> = {
    [r.status ?? 200]: {
      description: r.status === 202 ? 'Accepted' : 'Successful Response',
      content: r.response === 'html' ? { 'text/html': { schema: z.string() } } : json(r.response),
    },
  };
  if (r.body || r.query || r.params)
    responses[422] = { description: 'Validation Error', content: json(ValidationDetail) };
  if (r.auth) {
    responses[401] = { description: 'Not authenticated', content: json(ErrorDetail) };
    responses[403] = {
      description: 'Could not validate credentials, or not enough privileges',
      content: json(ErrorDetail),
    };
  }
  for (const [status, description] of Object.entries(r.errors ?? {})) {
    responses[status] = { description, content: json(ErrorDetail) };
  }
  registry.registerPath({
    method: r.method,
    path: `/api/v1${openApiPath(r.path)}`,
    summary: r.summary,
    tags: [r.tag],
    security: r.auth ? [{ OAuth2PasswordBearer: [] }] : undefined,
    request: {
      params: r.params as z.ZodObject | undefined,
      query: r.query as z.ZodObject | undefined,
      body: r.body
        ? {
            required: true,
            content: Object.fromEntries(
              (r.form ? ['application/x-www-form-urlencoded', 'multipart/form-data'] : ['application/json']).map(
                (type) => [type, { schema: r.body as Schema }],
              ),
            ),
          }
        : undefined,
    },
    responses,
  });
}

export interface RestRequest {
  params: Record<string, string | undefined>;
  /** The query string, parsed when a route reads it. */
  query(): Record<string, unknown>;
  body: unknown;
  /** The body's bytes, for an endpoint that takes `rawBody`. */
  raw?: Buffer;
  headers: IncomingHttpHeaders;
  ip: string;
}

export interface RestAnswer {
  status: number;
  body: string;
  contentType: string;
}

/** A route made ready to answer: its schemas checked, its handler called, its result written as JSON or HTML. */
export interface Endpoint {
  method: Uppercase<Method>;
  /** Path below /api/v1, with `:param` segments. */
  path: string;
  /** Takes a form body (urlencoded or multipart). */
  form: boolean;
  /** Takes its body unparsed, up to this size. */
  rawBody?: string;
  admit?: Route['admit'];
  answer(request: RestRequest): Promise<RestAnswer>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** Every route as an endpoint, each documented in the OpenAPI registry from the same schemas it validates with. */
export function endpoints(routes: Route[], auth: AuthService, registry: OpenAPIRegistry): Endpoint[] {
  return routes.map((r) => {
    document(registry, r);
    return {
      method: r.method.toUpperCase() as Uppercase<Method>,
      path: r.path,
      form: Boolean(r.form),
      rawBody: r.rawBody,
      admit: r.admit,
      answer: async (request) => {
        const user = r.auth ? await auth.authenticate(request.headers.authorization, request.ip) : undefined;
        const input = {
          params: r.params ? validate(r.params as Schema, request.params, 'path') : undefined,
          query: r.query ? validate(r.query as Schema, request.query(), 'query') : undefined,
          body:
            r.body && !r.rawBody
              ? (r.form ? validateForm : validate)(r.body as Schema, request.body, 'body', r.secrets)
              : undefined,
          user,
          caller: { ip: request.ip },
          raw: request.raw,
          headers: request.headers,
        };
        const result = await r.handler(input);
        const status = r.status ?? 200;
        return r.response === 'html'
          ? { status, body: String(result), contentType: HTML_TYPE }
          : { status, body: JSON.stringify(result), contentType: JSON_TYPE };
      },
    };
  });
}
