import { afterAll, beforeAll, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

it('probe', async () => {
  const su = await t.superuserToken();
  const show = (label: string, a: any) => console.log(label, a.status, a.headers.get('content-type'), a.text.slice(0, 600));
  const deep = '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } }';
  show('depth', await t.graphql(deep, {}, su));
  const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: createItem(title: "x") { id }`).join(' ');
  show('alias', await t.graphql(`mutation { ${aliases} }`, {}, su));
  const frags = `fragment F1 on Item { id title description owner_id }
fragment F2 on Item { ...F1 ...F1 ...F1 ...F1 }
fragment F3 on Item { ...F2 ...F2 ...F2 ...F2 }
fragment F4 on Item { ...F3 ...F3 ...F3 ...F3 }
mutation { createItem(title: "x") { ...F4 } }`;
  show('cost', await t.graphql(frags, {}, su));
  show('gql malformed', await t.request('POST', '/graphql', { raw: '{"query": ' }));
  show('gql big', await t.request('POST', '/graphql', { raw: JSON.stringify({ query: '{ me { id } }', x: 'a'.repeat(200000) }) }));
  show('rest big', await t.request('POST', '/api/v1/users/signup', { raw: JSON.stringify({ email: 'a@b.com', password: 'a'.repeat(200000) }) }));
  show('rest big form', await t.request('POST', '/api/v1/login/access-token', { raw: 'username=a&password=' + 'a'.repeat(200000), contentType: 'application/x-www-form-urlencoded' }));
  show('rest malformed', await t.request('POST', '/api/v1/users/signup', { raw: '{"email": ' }));
  show('rest array', await t.request('POST', '/api/v1/users/signup', { json: [1, 2] }));
  show('rest null', await t.request('POST', '/api/v1/users/signup', { raw: 'null' }));
  show('rest text', await t.request('POST', '/api/v1/users/signup', { raw: 'hello', contentType: 'text/plain' }));
  show('rest no body', await t.request('POST', '/api/v1/users/signup', {}));
  show('bad uuid', await t.request('GET', '/api/v1/items/abc', { token: su }));
  show('unknown uuid', await t.request('GET', '/api/v1/items/3fa85f64-5717-4562-b3fc-2c963f66afa6', { token: su }));
  show('gql noauth', await t.graphql('{ me { id } }'));
  show('gql badid', await t.graphql('{ Item(id: "abc") { id } }', {}, su));
  show('gql wrong type', await t.graphql('mutation { createItem(title: 5) { id } }', {}, su));
  show('gql get', await t.request('GET', '/graphql?query=%7Bme%7Bid%7D%7D', { token: su }));
  show('store', await t.request('POST', '/api/v1/clients/', { token: su, json: { url: 'x', nuvemshop_store_id: '9007199254740993' } }));
  show('store2', await t.request('POST', '/api/v1/clients/', { token: su, json: { url: 'x', nuvemshop_store_id: 9007199254740991 } }));
  show('store3', await t.request('POST', '/api/v1/clients/', { token: su, json: { url: 'x', nuvemshop_store_id: 1.5 } }));
  show('store4', await t.request('POST', '/api/v1/clients/', { token: su, json: { url: 'x', nuvemshop_store_id: 'abc' } }));
  show('method', await t.request('PATCH', '/api/v1/items/', { token: su }));
  show('skip', await t.request('GET', '/api/v1/items/?skip=-1&limit=abc', { token: su }));
});
