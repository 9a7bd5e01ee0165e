import { route } from '../rest/route';
import { IdParams, ListQuery, listOf, Message } from '../validation';
import { ClientCreate, ClientPublic, ClientUpdate } from './client.schemas';
import type { ClientService } from './client.service';

const ClientsPublic = listOf(ClientPublic, 'ClientsPublic');
const errors = { 404: 'Client not found' };

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
      body: ClientCreate,
      response: ClientPublic,
      errors: { 409: 'A client with this nuvemshop_store_id already exists' },
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
      body: ClientUpdate,
      response: ClientPublic,
      errors: { ...errors, 409: 'A client with this nuvemshop_store_id already exists' },
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
        return { message: 'Client deleted successfully' };
      },
    }),
  ];
}
