import { clientResource } from '../../clients/client.resource';
import type { ClientService } from '../../clients/client.service';
import { messages } from '../../messages';
import { IdParams, ListQuery, listOf, Message } from '../../validation';
import { route } from '../route';

const ClientPublic = clientResource.public;
const ClientsPublic = listOf(ClientPublic, 'ClientsPublic');
const errors = { 404: messages.clientNotFound };
const conflict = { 409: messages.alreadyExists('client', clientResource.unique) };

export function clientRoutes(clients: ClientService) {
  return [
    route({
      method: 'get',
      path: '/clients/',
      tag: 'clients',
      summary: 'Read clients',
      auth: true,
      query: ListQuery,
      response: ClientsPublic,
      handler: ({ user, query }) => clients.list(user, query),
    }),
    route({
      method: 'post',
      path: '/clients/',
      tag: 'clients',
      summary: 'Create client',
      auth: true,
      body: clientResource.create.schema,
      response: ClientPublic,
      errors: conflict,
      handler: ({ user, body }) => clients.create(user, body),
    }),
    route({
      method: 'get',
      path: '/clients/:id',
      tag: 'clients',
      summary: 'Read client by id',
      auth: true,
      params: IdParams,
      response: ClientPublic,
      errors,
      handler: ({ user, params }) => clients.get(user, params.id),
    }),
    route({
      method: 'put',
      path: '/clients/:id',
      tag: 'clients',
      summary: 'Update a client',
      auth: true,
      params: IdParams,
      body: clientResource.update.schema,
      response: ClientPublic,
      errors: { ...errors, ...conflict },
      handler: ({ user, params, body }) => clients.update(user, params.id, body),
    }),
    route({
      method: 'delete',
      path: '/clients/:id',
      tag: 'clients',
      summary: 'Delete a client',
      auth: true,
      params: IdParams,
      response: Message,
      errors,
      handler: async ({ user, params }) => {
        await clients.delete(user, params.id);
        return { message: messages.clientDeleted };
      },
    }),
  ];
}
