import { z } from 'zod';
import type { Resource } from '../kit/resource';
import { messages } from '../messages';
import type { ResourceOperations } from '../kit/service';
import { IdParams, ListQuery, listOf, Message, noNul, NUL_MESSAGE } from '../validation';
import { route, type Route } from './route';

/** A text filter's value: the exact text, within the field's own length (a longer one could match nothing). */
const exactText = (max = 255) => z.string().max(max).refine(noNul, NUL_MESSAGE);

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

/** A list's query: `skip` and `limit`, `q` when a field is searchable, and each filter field as itself. */
function listQuery(resource: Resource) {
  const searchable = resource.searched.length > 0;
  const filters = Object.keys(resource.filters);
  if (!searchable && !filters.length) return ListQuery;
  const filterRules = Object.fromEntries(
    filters.map((name) => {
      const field = resource.fields[name];
      const rule =
        field.kind === 'state'
          ? z.enum(field.values as [string, ...string[]])
          : field.kind === 'boolean'
            ? z.enum(['true', 'false']).transform((value) => value === 'true')
            : field.kind === 'text'
              ? exactText(field.max)
              : z.guid();
      return [name, rule.optional()];
    }),
  );
  return ListQuery.extend({
    ...(searchable ? { q: z.string().max(255).refine(noNul, NUL_MESSAGE).optional() } : {}),
    ...filterRules,
  }).meta({ id: `${resource.name}ListQuery` });
}

/**
 * A body read by `schema` that refuses, as pydantic's `extra='forbid'` does, a field the resource does not have: a
 * misspelt or unsupported field is an error, not silently dropped. A field the resource answers but does not take
 * (`id`, a state the system sets) is ignored, so a record read and sent back whole is accepted.
 */
function refusingUnknown(resource: Resource, schema: z.ZodType): z.ZodType {
  const known = new Set(Object.keys(resource.fields));
  return z.preprocess((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
    for (const [key, value] of Object.entries(input))
      if (!known.has(key))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'Extra inputs are not permitted',
          input: value,
          params: { type: 'extra_forbidden' },
        });
    return input;
  }, schema);
}

/**
 * The REST routes of a declared resource, under the API's one set of conventions: `GET /<path>/` a
 * page `{data, count}`, `POST /<path>/`, `GET`, `PUT` and `DELETE /<path>/{id}` (the last answering
 * `{message}`), each only when the resource offers the operation, and documented from the same schemas.
 */
export function resourceRoutes(resource: Resource, service: ResourceOperations): Route[] {
  const { noun, path, messages: said } = resource;
  const tag = path;
  const one = resource.public;
  const errors: Record<number, string> = { 404: said.notFound };
  if (resource.options.owner) errors[403] = messages.notEnoughPermissions;
  const conflict: Record<number, string> = resource.unique.length ? { 409: said.taken } : {};
  const query = listQuery(resource);
  const routes: Route[] = [];
  if (resource.offers('list'))
    routes.push(
      route({
        method: 'get',
        path: `/${path}/`,
        tag,
        summary: `Read ${noun}s`,
        auth: true,
        query,
        response: listOf(one, `${resource.name}sPublic`),
        handler: ({ user, query: given }) => {
          const { skip, limit, q, ...filter } = given as z.output<typeof ListQuery> & Record<string, unknown>;
          const filters = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
          return service.list(user, {
            skip,
            limit,
            q: q as string | undefined,
            ...(Object.keys(filters).length ? { filter: filters } : {}),
          });
        },
      }),
    );
  if (resource.offers('create'))
    routes.push(
      route({
        method: 'post',
        path: `/${path}/`,
        tag,
        summary: `Create ${noun}`,
        auth: true,
        body: refusingUnknown(resource, resource.create.schema),
        secrets: resource.secrets,
        response: one,
        errors: conflict,
        handler: ({ user, body }) => service.create(user, body as object),
      }),
    );
  if (resource.offers('get'))
    routes.push(
      route({
        method: 'get',
        path: `/${path}/:id`,
        tag,
        summary: `Read ${noun} by id`,
        auth: true,
        params: IdParams,
        response: one,
        errors,
        handler: ({ user, params }) => service.get(user, params.id),
      }),
    );
  if (resource.offers('update'))
    routes.push(
      route({
        method: 'put',
        path: `/${path}/:id`,
        tag,
        summary: `Update ${article(noun)} ${noun}`,
        auth: true,
        params: IdParams,
        body: refusingUnknown(resource, resource.update.schema),
        secrets: resource.secrets,
        response: one,
        errors: { ...errors, ...conflict },
        handler: ({ user, params, body }) => service.update(user, params.id, body as object),
      }),
    );
  if (resource.offers('delete'))
    routes.push(
      route({
        method: 'delete',
        path: `/${path}/:id`,
        tag,
        summary: `Delete ${article(noun)} ${noun}`,
        auth: true,
        params: IdParams,
        response: Message,
        errors,
        handler: async ({ user, params }) => {
          await service.delete(user, params.id);
          return { message: said.deleted };
        },
      }),
    );
  const { restore, purge } = service;
  if (resource.options.archive && restore && purge) {
    const refusals = { ...errors, 403: messages.notEnoughPrivileges, 409: said.notArchived };
    routes.push(
      route({
        method: 'post',
        path: `/${path}/:id/restore`,
        tag,
        summary: `Restore an archived ${noun} (superuser)`,
        auth: true,
        params: IdParams,
        response: one,
        errors: refusals,
        handler: ({ user, params }) => restore.call(service, user, params.id),
      }),
      route({
        method: 'post',
        path: `/${path}/:id/purge`,
        tag,
        summary: `Delete an archived ${noun} and its history for good (superuser)`,
        auth: true,
        params: IdParams,
        response: Message,
        errors: refusals,
        handler: async ({ user, params }) => {
          await purge.call(service, user, params.id);
          return { message: said.purged };
        },
      }),
    );
  }
  return routes;
}
