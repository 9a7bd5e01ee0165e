import { itemResource } from '../../items/item.resource';
import type { ItemService } from '../../items/item.service';
import { messages } from '../../messages';
import { IdParams, ListQuery, listOf, Message } from '../../validation';
import { route } from '../route';

const ItemPublic = itemResource.public;
const ItemsPublic = listOf(ItemPublic, 'ItemsPublic');
const errors = { 403: messages.notEnoughPermissions, 404: messages.itemNotFound };

export function itemRoutes(items: ItemService) {
  return [
    route({
      method: 'get',
      path: '/items/',
      tag: 'items',
      summary: 'Read items',
      auth: true,
      query: ListQuery,
      response: ItemsPublic,
      handler: ({ user, query }) => items.list(user, query),
    }),
    route({
      method: 'post',
      path: '/items/',
      tag: 'items',
      summary: 'Create item',
      auth: true,
      body: itemResource.create.schema,
      response: ItemPublic,
      handler: ({ user, body }) => items.create(user, body),
    }),
    route({
      method: 'get',
      path: '/items/:id',
      tag: 'items',
      summary: 'Read item by id',
      auth: true,
      params: IdParams,
      response: ItemPublic,
      errors,
      handler: ({ user, params }) => items.get(user, params.id),
    }),
    route({
      method: 'put',
      path: '/items/:id',
      tag: 'items',
      summary: 'Update an item',
      auth: true,
      params: IdParams,
      body: itemResource.update.schema,
      response: ItemPublic,
      errors,
      handler: ({ user, params, body }) => items.update(user, params.id, body),
    }),
    route({
      method: 'delete',
      path: '/items/:id',
      tag: 'items',
      summary: 'Delete an item',
      auth: true,
      params: IdParams,
      response: Message,
      errors,
      handler: async ({ user, params }) => {
        await items.delete(user, params.id);
        return { message: messages.itemDeleted };
      },
    }),
  ];
}
