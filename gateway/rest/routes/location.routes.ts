import { z } from 'zod';
import { clientResource } from '../../clients/client.resource';
import {
  DEFAULT_REFUSED,
  LOCATION_DELETED,
  LocationPriorities,
  PRIORITIES_REFUSED,
  STORE_STOPPED,
  STORE_UNREACHABLE,
  type LocationService,
} from '../../locations/location.service';
import { locationResource } from '../../locations/location.resource';
import { IdParams } from '../../validation';
import type { AuditLog } from '../../audit/audit-log';
import { route } from '../route';

const notConnected = `Missing … naming what the client lacks to call its store, or ${STORE_STOPPED}`;

/**
 * What staff do with a client's locations beyond the declared resource's routes: read them from the store now, send
 * their order and the default to the store.
 */
export function locationRoutes(locations: LocationService, audit: AuditLog) {
  return [
    route({
      method: 'post',
      path: '/clients/:id/locations/read',
      tag: 'clients',
      summary:
        "Ler estoques da loja: the store's locations read into the client's (`GET /locations`: new ones added, names, " +
        'priorities and the default refreshed, those the store no longer lists marked deleted), by a job queued now',
      auth: true,
      params: IdParams,
      response: clientResource.public,
      status: 202,
      errors: { 404: clientResource.messages.notFound, 409: notConnected },
      handler: ({ params, user }) =>
        audit.action(user, { action: 'read_locations', resource: 'Client', recordId: params.id }, (within) =>
          locations.requestRead(user, params.id, within),
        ),
    }),
    route({
      method: 'put',
      path: '/clients/:id/locations/priorities',
      tag: 'clients',
      summary:
        "A new order of the client's locations: every live one of our location rows' ids once, the first taking " +
        'priority 0, sent to the store (`PATCH /locations/priorities`) and mirrored once it took it',
      auth: true,
      params: IdParams,
      body: LocationPriorities,
      response: z.array(locationResource.public).meta({ id: 'LocationsInOrder' }),
      errors: {
        404: clientResource.messages.notFound,
        409: notConnected,
        422: `${PRIORITIES_REFUSED}: … its reason (nothing was changed); or an id that is not one of the client's live locations, one given twice, or one left out`,
        502: STORE_UNREACHABLE,
      },
      handler: ({ params, body, user }) =>
        audit.action(
          user,
          { action: 'priorities', resource: 'Client', recordId: params.id, changes: { location_ids: { after: body } } },
          (within) => locations.setPriorities(params.id, body, within),
        ),
    }),
    route({
      method: 'post',
      path: '/locations/:id/default',
      tag: 'locations',
      summary:
        "Tornar padrão: the location made the store's default (`PATCH /locations/{id}/chosen-as-default`), and the " +
        "only default of its client's once the store took it",
      auth: true,
      params: IdParams,
      response: locationResource.public,
      errors: {
        404: locationResource.messages.notFound,
        409: `${LOCATION_DELETED}, or ${notConnected}`,
        422: `${DEFAULT_REFUSED}: … its reason (nothing was changed)`,
        502: STORE_UNREACHABLE,
      },
      handler: ({ params, user }) =>
        audit.action(user, { action: 'default_location', resource: 'Location', recordId: params.id }, (within) =>
          locations.setDefault(params.id, within),
        ),
    }),
  ];
}
