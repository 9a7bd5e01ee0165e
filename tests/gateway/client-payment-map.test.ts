import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * A client's payment map (Nuvemshop method → Hiper id) is a JSON object through REST and GraphQL, as the contract
 * shows it: read and sent back whole, written by a script, and read by the orders; anything else is a 422 naming the
 * entry at fault.
 */
const suite = orderSuite();

const MAP_KEY = 'Invalid key: a Nuvemshop payment_details.method, such as credit_card or pix (letters, digits, _ . -)';

async function newClient(json: Record<string, unknown> = {}) {
  const created = await suite.t.request('POST', '/api/v1/clients/', {
    token: suite.su,
    json: { url: `https://mapa-${crypto.randomUUID().slice(0, 8)}.example.com`, ...json },
  });
  expect(created.status, created.text).toBe(200);
  return created.body as { id: string; orders_payment_ids: unknown };
}

const put = (id: string, value: unknown) =>
  suite.t.request('PUT', `/api/v1/clients/${id}`, { token: suite.su, json: { orders_payment_ids: value } });
const read = async (id: string) =>
  (await suite.t.request('GET', `/api/v1/clients/${id}`, { token: suite.su })).body.orders_payment_ids;

describe('orders_payment_ids through REST', () => {
  it('is an object a script writes, read back as one; a client read and sent back whole is taken', async () => {
    const client = await newClient({ orders_payment_ids: { pix: 12 } });
    expect(client.orders_payment_ids).toEqual({ pix: 12 });
    expect(await read(client.id)).toEqual({ pix: 12 });

    const changed = await put(client.id, { pix: 13, boleto: 7 });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.orders_payment_ids).toEqual({ pix: 13, boleto: 7 });

    const whole = await suite.t.request('GET', `/api/v1/clients/${client.id}`, { token: suite.su });
    const back = await suite.t.request('PUT', `/api/v1/clients/${client.id}`, { token: suite.su, json: whole.body });
    expect(back.status, back.text).toBe(200);
    expect(back.body.orders_payment_ids).toEqual({ pix: 13, boleto: 7 });

    // Cleared: the default applies.
    expect((await put(client.id, null)).body.orders_payment_ids).toBeNull();
  });

  it('is documented as an object of whole Hiper ids, of at most 50 methods', async () => {
    const document = (await suite.t.request('GET', '/api/v1/openapi.json')).body;
    const { ClientUpdate, ClientPublic } = document.components.schemas;
    expect(ClientUpdate.properties.orders_payment_ids).toMatchObject({
      type: 'object',
      nullable: true,
      additionalProperties: { type: 'integer', minimum: 1, maximum: 2147483647 },
      maxProperties: 50,
      example: { credit_card: 4, debit_card: 5, pix: 12 },
    });
    expect(ClientPublic.properties.orders_payment_ids).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'integer' },
    });
  });

  const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`meio_${i}`, i + 1]));
  it.each([
    [{ pix: 'x' }, ['pix'], 'int_parsing', 'Input should be a valid integer'],
    [{ pix: 0 }, ['pix'], 'greater_than_equal', 'Input should be greater than or equal to 1'],
    [{ pix: 1.5 }, ['pix'], 'int_parsing', 'Input should be a valid integer'],
    [{ '': 1 }, [''], 'value_error', MAP_KEY],
    [{ 'cartão de crédito': 4 }, ['cartão de crédito'], 'value_error', MAP_KEY],
    [many, [], 'too_long', 'Dictionary should have at most 50 entries, not 51'],
    ['{"pix":12}', [], 'dict_type', 'Input should be a valid dictionary: a JSON object, not JSON text in a string'],
    [[['pix', 12]], [], 'dict_type', 'Input should be a valid dictionary'],
  ])(
    'refuses %j with a 422 naming the entry, through REST and GraphQL, and keeps what it held',
    async (value, at, type, msg) => {
      const client = await newClient({ orders_payment_ids: { pix: 12 } });
      const refused = await put(client.id, value);
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.detail).toEqual([
        expect.objectContaining({ type, loc: ['body', 'orders_payment_ids', ...at], msg }),
      ]);
      const created = await suite.t.request('POST', '/api/v1/clients/', {
        token: suite.su,
        json: { url: 'https://mapa-recusado.example.com', orders_payment_ids: value },
      });
      expect(created.status).toBe(422);
      expect(created.body.detail).toEqual(refused.body.detail);

      const gql = await suite.t.graphql(
        'mutation($id: ID!, $v: JSON) { updateClient(id: $id, orders_payment_ids: $v) { id } }',
        { id: client.id, v: value },
        suite.su,
      );
      expect(gql.body.errors[0].message).toBe(msg);
      expect(gql.body.errors[0].extensions).toMatchObject({ status: 422, detail: refused.body.detail });
      expect(await read(client.id)).toEqual({ pix: 12 });
    },
  );
});

describe('orders_payment_ids through GraphQL', () => {
  it('is a JSON object in createClient and updateClient, and answered as one', async () => {
    const created = await suite.t.graphql(
      'mutation($url: String!, $v: JSON) { createClient(url: $url, orders_payment_ids: $v) { id orders_payment_ids } }',
      { url: 'https://mapa-graphql.example.com', v: { pix: 12, debit_card: 5 } },
      suite.su,
    );
    expect(created.body.errors).toBeUndefined();
    const { id, orders_payment_ids } = created.body.data.createClient;
    expect(orders_payment_ids).toEqual({ pix: 12, debit_card: 5 });

    // An object literal in the document itself is taken as a variable is.
    const updated = await suite.t.graphql(
      'mutation($id: ID!) { updateClient(id: $id, orders_payment_ids: {pix: 14}) { orders_payment_ids } }',
      { id },
      suite.su,
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateClient.orders_payment_ids).toEqual({ pix: 14 });
    const again = await suite.t.graphql('query($id: ID!) { Client(id: $id) { orders_payment_ids } }', { id }, suite.su);
    expect(again.body.data.Client.orders_payment_ids).toEqual({ pix: 14 });
    expect(await read(id)).toEqual({ pix: 14 });
  });
});

describe('the orders', () => {
  it('read the map written as an object: pix paid with its Hiper id, a method left out of it held', async () => {
    const c = await suite.tools.clientWithCatalogue({ orders_payment_ids: { pix: 12 } });
    expect(await read(c.id)).toEqual({ pix: 12 });
    const byPix = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }],
      payment_details: { method: 'pix', credit_card_company: null, installments: '1' },
    });
    await suite.tools.webhook(c.storeId, 'order/paid', byPix.id);
    await suite.tools.waitForOrder(c.id, byPix.id, ['sent']);
    expect(c.account.orders[0].body.meiosDePagamento).toEqual([expect.objectContaining({ idMeioDePagamento: 12 })]);

    // The map replaces the default: a card is not in it.
    const byCard = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }],
      payment_details: { method: 'credit_card', credit_card_company: 'visa', installments: '1' },
    });
    await suite.tools.webhook(c.storeId, 'order/paid', byCard.id);
    const held = await suite.tools.waitForOrder(c.id, byCard.id, ['held']);
    expect(held.hold_reason).toBe('Meio de pagamento sem código no Hiper: credit_card');
  });
});
