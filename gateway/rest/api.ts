import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import type { AuthService } from '../users/auth.service';
import { endpoints, JSON_TYPE, type Endpoint, type Route } from './route';

/**
 * The REST API under /api/v1 (OAuth2 password sign-in, pages as `{data, count}`, errors as `{detail}` with 422s in
 * pydantic's shape), and its OpenAPI document built from the same schemas.
 */
export function restApi(routes: Route[], auth: AuthService, served = { document: true }): Endpoint[] {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'OAuth2PasswordBearer', {
    type: 'oauth2',
    flows: { password: { tokenUrl: '/api/v1/login/access-token', scopes: {} } },
  });
  const endpointsServed = endpoints(routes, auth, registry);
  const document = JSON.stringify(
    new OpenApiGeneratorV3(registry.definitions).generateDocument({
      openapi: '3.0.3',
      info: {
        title: 'Sistema de Integração',
        version: '1.0.0',
        description:
          'REST API of the Sistema de Integração gateway. The same operations are served as GraphQL at /graphql.',
      },
      servers: [{ url: '/' }],
    }),
  );
  const fixed = (path: string, body: string): Endpoint => ({
    method: 'GET',
    path,
    form: false,
    answer: async () => ({ status: 200, body, contentType: JSON_TYPE }),
  });
  return served.document ? [...endpointsServed, fixed('/openapi.json', document)] : endpointsServed;
}
