import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import express, { Router } from 'express';
import type { Config } from '../config';
import type { Services } from '../services';
import { callbackRoutes } from '../callback/callback.routes';
import { clientRoutes } from '../clients/client.routes';
import { itemRoutes } from '../items/item.routes';
import { loginRoutes, userRoutes } from '../users/user.routes';
import { ApiError } from '../errors';
import { mountRoutes } from './route';
import { errorHandler } from './error-handler';

/** The REST /api/v1 dialect of REST-CONTRACT.md, and its OpenAPI document built from the same schemas. */
export function restApi(services: Services, config: Config): Router {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'OAuth2PasswordBearer', {
    type: 'oauth2',
    flows: { password: { tokenUrl: '/api/v1/login/access-token', scopes: {} } },
  });
  const routes = [
    ...loginRoutes(services.auth),
    ...userRoutes(services.users),
    ...itemRoutes(services.items),
    ...clientRoutes(services.clients),
    ...callbackRoutes(services.callback),
  ];
  const api = Router();
  api.use(express.json({ limit: config.BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] }));
  api.use(express.urlencoded({ limit: config.BODY_LIMIT, extended: false, parameterLimit: 50 }));

  registry.registerPath({
    method: 'get',
    path: '/api/v1/utils/health-check/',
    summary: 'Health check',
    tags: ['utils'],
    responses: {
      200: { description: 'Successful Response', content: { 'application/json': { schema: { type: 'boolean' } } } },
    },
  });
  api.get('/utils/health-check/', (_req, res) => {
    res.json(true);
  });
  api.use(mountRoutes(routes, services.auth, registry));

  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Sistema de Integração',
      version: '1.0.0',
      description:
        'REST API of the Sistema de Integração gateway. The same operations are served as GraphQL at /graphql.',
    },
    servers: [{ url: '/' }],
  });
  api.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  api.use((_req, _res, next) => next(new ApiError(404, 'Not Found')));
  api.use(errorHandler);
  return api;
}
