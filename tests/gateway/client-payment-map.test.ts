import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

/** A client's payment map (Nuvemshop method → Hiper id) is taken only as the map it is, through REST and GraphQL. */
let t: TestGateway;
let su: string;
let clientId: string;

beforeAll(async () => {
  t = await startTestGateway();
  su = await t.superuserToken();
  const created = await t.request('POST', '/api/v1/clients/', { token: su, json: { url: 'https://mapa.example.com' } });
  clientId = created.body.id;
}, 60_000);
afterAll(() => t?.close());

const put = (value: unknown) =>
  t.request('PUT', `/api/v1/clients/${clientId}`, { token: su, json: { orders_payment_ids: value } });

describe('orders_payment_ids', () => {
  it('is saved and read back when it is a map of methods to whole Hiper ids', async () => {
    const saved = await put('{"pix": 12, "boleto": 7}');
    expect(saved.status, saved.text).toBe(200);
    const read = await t.request('GET', `/api/v1/clients/${clientId}`, { token: su });
    expect(JSON.parse(read.body.orders_payment_ids)).toEqual({ pix: 12, boleto: 7 });
    // Cleared: the default applies.
    expect((await put(null)).body.orders_payment_ids).toBeNull();
  });

  it.each([
    ['{"pix": "doze"}', 'Invalid value for "pix": a Hiper idMeioDePagamento, a whole number from 1'],
    ['{"pix": 0}', 'Invalid value for "pix": a Hiper idMeioDePagamento, a whole number from 1'],
    ['{"pix": 1.5}', 'Invalid value for "pix": a Hiper idMeioDePagamento, a whole number from 1'],
    [
      '{"cartão de crédito": 4}',
      'Invalid key "cartão de crédito": a Nuvemshop payment_details.method, such as credit_card or pix (letters, digits, _ . -)',
    ],
    ['[["pix", 12]]', 'Must be a JSON object'],
    ['pix=12', 'Must be a JSON object'],
  ])('refuses %s with a 422 saying why, and keeps what it held', async (value, message) => {
    await put('{"pix": 12}');
    const refused = await put(value);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'orders_payment_ids'], msg: message }),
    ]);
    const gql = await t.graphql(
      'mutation($id: ID!, $v: String) { updateClient(id: $id, orders_payment_ids: $v) { id } }',
      { id: clientId, v: value },
      su,
    );
    expect(gql.body.errors[0].message).toContain(message);
    const read = await t.request('GET', `/api/v1/clients/${clientId}`, { token: su });
    expect(read.body.orders_payment_ids).toBe('{"pix": 12}');
  });
});
