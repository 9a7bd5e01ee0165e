import { expect } from 'vitest';
import type { OrderSuite } from './orders';
import type { HiperAccount } from './standins/hiper';
import type { OrderSeed, StandInStore, StoreOrder } from './standins/nuvemshop-api';

/**
 * A client of a store with two locations, each fed by its own Hiper account: the shop ("Loja", the store's first
 * location, fed by the client's own account) and a warehouse ("Depósito Sul", its own key and account, whose products
 * are the same SKUs under ids of its own). The location rows are made as reading the store's locations makes them,
 * the warehouse's key given as staff give it (`PUT /api/v1/locations/{id}`).
 */
export async function clientWithTwoLocations(suite: OrderSuite, flags: Record<string, unknown> = {}) {
  const c = await suite.tools.clientWithCatalogue(flags);
  const shop = c.store.locations[0];
  shop.name = 'Loja';
  const far = c.store.addLocation('Depósito Sul');
  // The warehouse's own Hiper account: the same SKUs (Hiper `codigo`), its own ids.
  const warehouse = suite.hiper.addAccount();
  const shirt = warehouse.add({ codigo: c.shirt.hiper.codigo, nome: 'Camiseta', preco: 50, quantidadeEmEstoque: 10 });
  const grade = warehouse.add({
    nome: 'Tênis',
    preco: 200,
    variacao: [
      { codigo: c.blue.hiper.codigo, nomeVariacaoA: 'Azul', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 5 },
      { codigo: c.black.hiper.codigo, nomeVariacaoA: 'Preto', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 5 },
    ],
  });
  const rows = await suite.t.sql<{ id: string }>(
    `insert into locations (id, client_id, nuvemshop_location_id, name, priority, is_default, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, 'Loja', 0, true, now() - interval '1 minute', now()),
            (gen_random_uuid(), $1, $3, 'Depósito Sul', 1, false, now(), now())
     returning id`,
    [c.id, shop.id, far.id],
  );
  const [shopRow, farRow] = rows.map((r) => r.id);
  const keyed = await suite.t.request('PUT', `/api/v1/locations/${farRow}`, {
    token: suite.su,
    json: { hiper_token: warehouse.key },
  });
  expect(keyed.status).toBe(200);
  return {
    ...c,
    shop,
    far,
    shopRow,
    farRow,
    warehouse,
    warehouseIds: { shirt: shirt.id, blue: grade.variacao![0].id, black: grade.variacao![1].id },
  };
}

/** Sets a variant's stock at each of the store's locations (what the store splits an order by). */
export function stockAt(store: StandInStore, variantId: number, levels: Record<string, number>) {
  for (const level of store.variant(variantId)!.inventory_levels) level.stock = levels[level.location_id] ?? 0;
}

/** An order the store ships from both locations: the shirt from the shop, the blue shoe from the warehouse. */
export function twoShipmentOrder(c: Awaited<ReturnType<typeof clientWithTwoLocations>>, seed: Partial<OrderSeed> = {}) {
  stockAt(c.store, c.shirt.variant.id, { [c.shop.id]: 10 });
  stockAt(c.store, c.blue.variant.id, { [c.far.id]: 10 });
  return c.store.seedOrder({
    lines: [
      { variant: c.shirt.variant, quantity: 2 },
      { variant: c.blue.variant, quantity: 1 },
    ],
    freights: [12, 8],
    ...seed,
  });
}

/** The order's rows as the API answers them, first shipment first. */
export async function rowsOf(suite: OrderSuite, clientId: string, order: StoreOrder) {
  const list = await suite.t.request('GET', `/api/v1/orders/?client_id=${clientId}&limit=1000`, { token: suite.su });
  expect(list.status).toBe(200);
  return (list.body.data as any[])
    .filter((o) => o.nuvemshop_order_id === order.id)
    .sort((a, b) => Date.parse(a.received_at) - Date.parse(b.received_at));
}

/** Waits until the order has `count` rows, each in one of `states`; answers them, first shipment first. */
export async function waitForShipments(
  suite: OrderSuite,
  clientId: string,
  order: StoreOrder,
  count: number,
  states: string[],
  timeoutMs = 20_000,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await rowsOf(suite, clientId, order);
    if (rows.length === count && rows.every((r) => states.includes(r.state))) return rows;
    if (Date.now() > until) {
      throw new Error(
        `order ${order.id} has ${rows.map((r) => r.state).join(', ') || 'no rows'}, not ${count} ${states}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The sales orders one account holds for a store order (by the observation the mapping writes). */
export const salesOrdersOf = (account: HiperAccount, order: StoreOrder) =>
  account.orders.filter((o) => String(o.body.observacaoDoPedidoDeVenda).includes(`(id ${order.id})`));
