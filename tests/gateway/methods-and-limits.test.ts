import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ GRAPHQL_MAX_TOKENS: '500' });
});
afterAll(() => t?.close());

describe('a known path with another method', () => {
  it.each([
    ['PATCH', '/api/v1/items/', 'GET, POST'],
    ['PUT', '/api/v1/users/me', 'GET, PATCH, DELETE'],
    ['GET', '/api/v1/login/access-token', 'POST'],
    ['POST', '/api/v1/clients/00000000-0000-0000-0000-000000000000', 'GET, PUT, DELETE'],
  ])('%s %s is 405 naming the allowed methods', async (method, path, allow) => {
    const answer = await t.request(method, path);
    expect(answer).toMatchObject({ status: 405, body: { detail: 'Method Not Allowed' } });
    expect(answer.headers.get('allow')).toBe(allow);
  });

  it('an unknown path is 404', async () => {
    expect(await t.request('GET', '/api/v1/nothing-here')).toMatchObject({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });
});

describe('GraphQL documents', () => {
  it('past the token bound are refused by the parser with a clear message', async () => {
    const nested = `{ ${'__type(name: "Query") { fields { type { '.repeat(400)}name${' } } }'.repeat(400)} }`;
    const answer = await t.graphql(nested);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toMatch(/Document contains more tha. 500 tokens/);
    expect(answer.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('under it are served', async () => {
    expect((await t.graphql('{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('login with a very long password', () => {
  it('is simply a wrong password', async () => {
    const answer = await t.request('POST', '/api/v1/login/access-token', {
      form: { username: 'admin@example.com', password: 'x'.repeat(1000) },
    });
    expect(answer).toMatchObject({ status: 400, body: { detail: 'Incorrect email or password' } });
  });
});
