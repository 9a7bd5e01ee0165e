import { afterAll, beforeAll, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

it('probe', async () => {
  const su = await t.superuserToken();
  const show = (label: string, a: any) => console.log(label, a.status, a.text.slice(0, 400));
  let v: unknown = 'x';
  for (let i = 0; i < 3000; i++) v = [v];
  show('deep vars', await t.request('POST', '/graphql', { token: su, raw: JSON.stringify({ query: 'mutation($t: String!) { createItem(title: $t) { id } }', variables: { t: v } }) }));
  show('deep query', await t.graphql('{ me ' + '{ id '.repeat(3000) + '}'.repeat(3000) + ' }', {}, su));
  show('deep list', await t.graphql('mutation { createItem(title: ' + '['.repeat(3000) + '"x"' + ']'.repeat(3000) + ') { id } }', {}, su));
  show('no query', await t.request('POST', '/graphql', { token: su, json: {} }));
  show('batch', await t.request('POST', '/graphql', { token: su, json: [{ query: '{ me { id } }' }] }));
});
