import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATES } from '../../gateway/orders/order.resource';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const CONTRACT_ROUTES = [
  'post /api/v1/login/access-token',
  'post /api/v1/login/test-token',
  'post /api/v1/password-recovery/{email}',
  'post /api/v1/reset-password/',
  'post /api/v1/password-recovery-html-content/{email}',
  'get /api/v1/users/',
  'post /api/v1/users/',
  'get /api/v1/users/me',
  'patch /api/v1/users/me',
  'patch /api/v1/users/me/password',
  'delete /api/v1/users/me',
  'post /api/v1/users/signup',
  'get /api/v1/users/{id}',
  'patch /api/v1/users/{id}',
  'delete /api/v1/users/{id}',
  'get /api/v1/items/',
  'post /api/v1/items/',
  'get /api/v1/items/{id}',
  'put /api/v1/items/{id}',
  'delete /api/v1/items/{id}',
  'get /api/v1/clients/',
  'get /api/v1/archived-clients/',
  'get /api/v1/archived-clients/{id}',
  'post /api/v1/clients/',
  'get /api/v1/clients/{id}',
  'put /api/v1/clients/{id}',
  'delete /api/v1/clients/{id}',
  // The store synchronisation's history: read-only resources.
  'get /api/v1/sync-runs/',
  'get /api/v1/sync-runs/{id}',
  'get /api/v1/client-health/',
  'get /api/v1/client-health/{id}',
  // What happened per day: the dashboard's and a client's charts.
  'get /api/v1/activity/',
  // The audit log, read-only and the superusers'.
  'get /api/v1/audit-events/',
  'get /api/v1/audit-events/{id}',
  'get /api/v1/divergences/',
  'get /api/v1/divergences/{id}',
  'get /api/v1/product-links/',
  'get /api/v1/product-links/{id}',
  // The mail outbox, a read-only resource: no create, update or delete.
  'get /api/v1/mail-jobs/',
  'get /api/v1/mail-jobs/{id}',
  'post /api/v1/clients/{id}/sync',
  'post /api/v1/clients/{id}/restore',
  'post /api/v1/clients/{id}/purge',
  // Stock locations (read from the store, each given its Hiper key) and the stock movements written to them.
  'get /api/v1/locations/',
  'get /api/v1/locations/{id}',
  'put /api/v1/locations/{id}',
  'delete /api/v1/locations/{id}',
  'post /api/v1/locations/{id}/default',
  'post /api/v1/clients/{id}/locations/read',
  'put /api/v1/clients/{id}/locations/priorities',
  'get /api/v1/stock-movements/',
  'get /api/v1/stock-movements/{id}',
  // Store orders: read-only, with staff's actions.
  'get /api/v1/orders/',
  'get /api/v1/orders/{id}',
  'post /api/v1/orders/{id}/resend',
  'post /api/v1/orders/{id}/mark-sent',
  'post /api/v1/clients/{id}/orders/sweep',
  // The webhooks received, a read-only history.
  'get /api/v1/webhook-events/',
  'get /api/v1/webhook-events/{id}',
  'get /api/v1/webhook-days/',
  'get /api/v1/webhook-days/{id}',
  'post /api/v1/callback/authorize',
  // Nuvemshop's webhooks: public, each signed.
  'post /api/v1/webhooks/nuvemshop',
  'post /api/v1/webhooks/nuvemshop/store-redact',
  'post /api/v1/webhooks/nuvemshop/customers-redact',
  'post /api/v1/webhooks/nuvemshop/customers-data-request',
  'get /api/v1/utils/health-check/',
];

/** Every absolute address in a page or script: served offline, there must be none it loads. */
const externalLoads = (html: string) => [...html.matchAll(/(?:src|href)="(https?:\/\/[^"]+)"/g)].map((m) => m[1]);

describe('OpenAPI document', () => {
  it('describes every route of the contract with its schemas', async () => {
    const answer = await t.request('GET', '/api/v1/openapi.json');
    expect(answer.status).toBe(200);
    const doc = answer.body;
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...CONTRACT_ROUTES].sort());
    const signup = doc.paths['/api/v1/users/signup'].post;
    const body = signup.requestBody.content['application/json'].schema;
    expect(body.$ref ?? body).toBeTruthy();
    const register = doc.components.schemas.UserRegister;
    expect(register.properties.password).toMatchObject({ type: 'string', minLength: 8, maxLength: 128 });
    expect(register.required).toEqual(expect.arrayContaining(['email', 'password']));
    for (const shape of ['ClientCreate', 'ClientUpdate', 'ClientPublic']) {
      expect(doc.components.schemas[shape].properties.url, shape).toMatchObject({ type: 'string', format: 'uri' });
    }
    expect(signup.responses['422']).toBeTruthy();
    const login = doc.paths['/api/v1/login/access-token'].post.requestBody.content;
    expect(Object.keys(login)).toEqual(['application/x-www-form-urlencoded', 'multipart/form-data']);
    expect(doc.paths['/api/v1/users/'].get.security).toEqual([{ OAuth2PasswordBearer: [] }]);
  });

  it('lists a state’s values in their declared order: an order’s lifecycle, in its shape and its list’s filter', async () => {
    const doc = (await t.request('GET', '/api/v1/openapi.json')).body;
    const lifecycle = [...ORDER_STATES];
    expect(lifecycle[0]).toBe('received');
    expect(doc.components.schemas.OrderPublic.properties.state.enum).toEqual(lifecycle);
    const filter = (
      doc.paths['/api/v1/orders/'].get.parameters as { name: string; schema: { enum?: string[] } }[]
    ).find((parameter) => parameter.name === 'state');
    expect(filter?.schema.enum).toEqual(lifecycle);
  });
});

describe('/docs', () => {
  it('serves the interactive page and its scripts from our own files', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(externalLoads(page.text)).toEqual([]);
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
    for (const asset of [...page.text.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map((m) => m[1])) {
      const file = await t.request('GET', asset);
      expect(file.status, asset).toBe(200);
    }
    const init = await t.request('GET', '/docs/init.js');
    expect(init.text).toContain('/api/v1/openapi.json');
  });
});

describe('GraphQL explorer', () => {
  it('answers a browser opening /graphql with the bundled explorer', async () => {
    expect(existsSync('dist/admin/graphiql/index.html'), 'build the admin first: npm run build').toBe(true);
    const page = await t.request('GET', '/graphql', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('GraphQL explorer');
    expect(externalLoads(page.text)).toEqual([]);
    const scripts = [...page.text.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect((await t.request('GET', src)).status, src).toBe(200);
  });

  it('still answers GraphQL requests on the same path', async () => {
    const answer = await t.graphql('{ __typename }');
    expect(answer.body).toEqual({ data: { __typename: 'Query' } });
  });
});

/** What production needs to start, beyond what the test gateway sets. */
const PRODUCTION = {
  NODE_ENV: 'production',
  SECRET_KEY: 'a-production-secret-key-for-the-docs-test',
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

describe('in production', () => {
  let production: TestGateway;
  beforeAll(async () => {
    production = await startTestGateway(PRODUCTION);
  });
  afterAll(() => production?.close());

  it('keeps /docs, the OpenAPI document and the explorer to itself: 404 as for an unknown address', async () => {
    for (const path of ['/docs', '/docs/', '/docs/init.js', '/api/v1/openapi.json']) {
      const answer = await production.request('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({ detail: 'Not Found' });
    }
    const explorer = await production.request('GET', '/graphql', { headers: { Accept: 'text/html' } });
    expect(explorer.status).toBe(404);
    expect(explorer.body).toEqual({ detail: 'Not Found' });
    // The API itself is served as before.
    expect((await production.graphql('{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
    expect((await production.request('GET', '/api/v1/utils/health-check/')).body).toBe(true);
  });

  it('serves them with PUBLIC_API_DOCS=true', async () => {
    const told = await startTestGateway({ ...PRODUCTION, PUBLIC_API_DOCS: 'true' });
    try {
      expect((await told.request('GET', '/docs')).status).toBe(200);
      expect((await told.request('GET', '/api/v1/openapi.json')).body.openapi).toMatch(/^3\./);
      const explorer = await told.request('GET', '/graphql', { headers: { Accept: 'text/html' } });
      expect(explorer.text).toContain('GraphQL explorer');
    } finally {
      await told.close();
    }
  });
});
