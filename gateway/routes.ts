import { callbackRoutes } from './rest/routes/callback.routes';
import { clientRoutes } from './rest/routes/client.routes';
import { itemRoutes } from './rest/routes/item.routes';
import { loginRoutes, userRoutes } from './rest/routes/user.routes';
import type { Route } from './rest/route';
import type { Services } from './services';

/** Every REST route under /api/v1, in the order the OpenAPI document lists them. */
export function restRoutes(services: Services): Route[] {
  return [
    ...loginRoutes(services.auth),
    ...userRoutes(services.users),
    ...itemRoutes(services.items),
    ...clientRoutes(services.clients),
    ...callbackRoutes(services.callback),
  ];
}
