import { describe, expect, it } from 'vitest';
import { placeLocations } from '../support/locations';
import { syncSuite } from '../support/sync';

/**
 * Every stock value the product writes for a SKU at a location is kept as a movement, read at
 * `/api/v1/stock-movements/?client_id=&location_id=&sku=` and through GraphQL: the SKU an exact text filter, as the
 * resource kit derives one for any text field declared filterable (OpenAPI parameter, GraphQL filter, bounds).
 */
const suite = syncSuite({ hiper: { pageSize: 10 }, nuvemshop: { bucket: { size: 40, drainPerSecond: 40 } } });

const get = (path: string) => suite.t.request('GET', path, { token: suite.su });

describe('stock movements', () => {
  it('keep a client’s stock writes without locations too: its one figure, what the store had, and why', async () => {
    const c = await suite.tools.connectedClient();
    const cap = c.account.add({ codigo: 4001, nome: 'Boné', quantidadeEmEstoque: 5 });
    c.account.add({ codigo: 40011, nome: 'Boné infantil', quantidadeEmEstoque: 2 });
    await suite.tools.syncNow(c.id);
    // Created with its stock in POST /products: nothing was written apart, so nothing moved yet.
    expect((await get(`/api/v1/stock-movements/?client_id=${c.id}`)).body.count).toBe(0);
    c.account.setStock(cap.id, 3);
    await suite.tools.syncNow(c.id, 'stock');
    c.account.setStock(cap.id, 8);
    await suite.tools.syncNow(c.id, 'stock');

    const list = await get(`/api/v1/stock-movements/?client_id=${c.id}&sku=4001`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.data.map((m: any) => [m.location_id, m.sku, m.value, m.previous, m.reason, m.order_id])).toEqual([
      [null, '4001', 8, 3, 'hiper', null],
      [null, '4001', 3, 5, 'hiper', null],
    ]);
    // Exact: another SKU that begins the same is not among them.
    expect((await get(`/api/v1/stock-movements/?client_id=${c.id}&sku=400`)).body.count).toBe(0);
    const one = await get(`/api/v1/stock-movements/${list.body.data[0].id}`);
    expect(one.body).toMatchObject({ sku: '4001', value: 8, client_id: c.id });
  });

  it('are filtered by location and SKU through REST and GraphQL alike', async () => {
    const c = await suite.tools.connectedClient();
    const mug = c.account.add({ nome: 'Caneca', preco: 20, quantidadeEmEstoque: 5 });
    const [, warehouse] = await placeLocations(suite.t, suite.su, suite.hiper, c, [
      { name: 'Loja', feed: 'client' },
      { name: 'Depósito', feed: 'own', stockOf: () => 2 },
    ]);
    await suite.tools.syncNow(c.id);
    warehouse.account!.setStock(mug.codigo, 4);
    await suite.tools.syncNow(c.id, 'stock');

    const rest = await get(`/api/v1/stock-movements/?client_id=${c.id}&location_id=${warehouse.id}&sku=${mug.codigo}`);
    expect(rest.body.data.map((m: any) => [m.value, m.previous])).toEqual([
      [4, 2],
      [2, null],
    ]);
    const answer = await suite.t.graphql(
      `query ($filter: StockMovementFilter) {
         allStockMovements(filter: $filter, sortField: "created_at", sortOrder: "DESC") { value previous reason location_id }
         _allStockMovementsMeta(filter: $filter) { count }
       }`,
      { filter: { client_id: c.id, location_id: warehouse.id, sku: String(mug.codigo) } },
      suite.su,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.allStockMovements.map((m: any) => [m.value, m.previous, m.reason])).toEqual([
      [4, 2, 'hiper'],
      [2, null, 'hiper'],
    ]);
    expect(answer.body.data._allStockMovementsMeta.count).toBe(2);
    const all = await get(`/api/v1/stock-movements/?client_id=${c.id}&sku=${mug.codigo}`);
    expect(all.body.count).toBe(3);
  });

  it('refuse a SKU filter longer than the field or with a NUL, and describe it in OpenAPI and the schema', async () => {
    const long = await get(`/api/v1/stock-movements/?sku=${'9'.repeat(65)}`);
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body.detail)).toContain('sku');
    const nul = await get(`/api/v1/stock-movements/?sku=a%00b`);
    expect(nul.status).toBe(422);
    expect(JSON.stringify(nul.body.detail)).toContain('NUL');
    const graphql = await suite.t.graphql(
      `{ allStockMovements(filter: { sku: "${'9'.repeat(65)}" }) { id } }`,
      undefined,
      suite.su,
    );
    expect(JSON.stringify(graphql.body.errors)).toContain('sku');

    const doc = (await suite.t.request('GET', '/api/v1/openapi.json')).body;
    const parameters = doc.paths['/api/v1/stock-movements/'].get.parameters as { name: string; schema: any }[];
    expect(parameters.find((p) => p.name === 'sku')).toMatchObject({ schema: { type: 'string', maxLength: 64 } });
    const schema = await suite.t.graphql(
      `{ __type(name: "StockMovementFilter") { inputFields { name type { name } } } }`,
    );
    expect(schema.body.data.__type.inputFields).toContainEqual({ name: 'sku', type: { name: 'String' } });
  });
});
