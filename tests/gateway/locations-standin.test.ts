import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NuvemshopClient } from '../../gateway/platforms/nuvemshop.client';
import { NuvemshopRefused, PermissionMissing } from '../../gateway/platforms/nuvemshop.errors';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

/**
 * The Nuvemshop stand-in's locations, which every location test leans on: no kinder than the platform's pages (its
 * list's shape, the plan's limit, the refusals of a new order and default, the scope they need), and the webhooks a
 * merchant's changes send, signed as Nuvemshop signs them, only for the events the app registered.
 */
let nuvemshop: NuvemshopApiStandIn;
let receiver: http.Server;
const received: { body: string; signature: string | undefined }[] = [];
const SECRET = 'stand-in-secret';
let nextStore = 9500;

beforeAll(async () => {
  nuvemshop = await startNuvemshopApi();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-linkedstore-hmac-sha256'] as string | undefined,
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  nuvemshop.sendWebhooksTo({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, secret: SECRET });
});
afterAll(async () => {
  await nuvemshop?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

function storeClient() {
  const id = nextStore++;
  const store = nuvemshop.addStore(id);
  const api = new NuvemshopClient({ baseUrl: nuvemshop.url, userAgent: 'Testes (dev@example.com)', timeoutMs: 5000 });
  return { id, store, api: api.store(id, store.token) };
}

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('the stand-in’s locations', () => {
  it('lists them as the documentation shows, in priority order, with the default', async () => {
    const { store, api } = storeClient();
    const depot = store.addLocation('Depósito Sul');
    const [first, second]: Record<string, unknown>[] = (await api.listLocations()).map((l) => ({ ...l }));
    expect(Object.keys(first).sort()).toEqual(
      [
        'address',
        'allows_pickup',
        'created_at',
        'id',
        'is_default',
        'name',
        'priority',
        'store_id',
        'updated_at',
      ].sort(),
    );
    expect(first).toMatchObject({
      id: store.locations[0].id,
      name: { pt_BR: 'Depósito' },
      priority: 0,
      is_default: true,
    });
    expect(second).toMatchObject({ id: depot.id, name: { pt_BR: 'Depósito Sul' }, priority: 1, is_default: false });
    expect(String(first.id)).toMatch(/^01[0-9A-Z]{24}$/);
  });

  it('keeps to the plan’s limit of locations', async () => {
    const { store } = storeClient();
    store.stockLocations.limit = 2;
    await store.stockLocations.add('Loja');
    await expect(store.stockLocations.add('Quiosque')).rejects.toThrow("The store's plan allows 2 location(s)");
    expect(() => store.addLocation('Outro')).toThrow();
    expect(store.locations).toHaveLength(2);
    store.stockLocations.limit = Infinity;
    await store.stockLocations.add('Quiosque');
    expect(store.locations).toHaveLength(3);
  });

  it('takes a new order naming every location once, and refuses any other, changing nothing', async () => {
    const { store, api } = storeClient();
    const [a, b] = [store.locations[0], store.addLocation('Loja')];
    await api.setLocationPriorities([
      { id: b.id, priority: 0 },
      { id: a.id, priority: 1 },
    ]);
    expect(store.stockLocations.byPriority().map((l) => l.name)).toEqual(['Loja', 'Depósito']);
    // Reordered, the default stays where it was.
    expect(store.stockLocations.default?.name).toBe('Depósito');
    for (const [body, status, said] of [
      [[{ id: a.id, priority: 0 }], 422, 'The priorities must include every location of the store'],
      [
        [
          { id: a.id, priority: 0 },
          { id: 'NAO-EXISTE', priority: 1 },
        ],
        404,
        'Location with such id does not exist',
      ],
      [
        [
          { id: a.id, priority: 0 },
          { id: b.id, priority: 0 },
        ],
        422,
        'Two locations cannot have the same priority',
      ],
      [
        [
          { id: a.id, priority: 0 },
          { id: a.id, priority: 1 },
        ],
        422,
        'A location cannot be given more than once',
      ],
      [[{ id: a.id, priority: -1 }], 422, 'Each location needs its id and a priority, a whole number from 0'],
    ] as const) {
      const error = await refusal(api.setLocationPriorities(body as unknown as { id: string; priority: number }[]));
      expect(error).toBeInstanceOf(NuvemshopRefused);
      expect({ status: (error as NuvemshopRefused).status, said: (error as NuvemshopRefused).detail }).toEqual({
        status,
        said,
      });
    }
    expect(store.stockLocations.byPriority().map((l) => l.name)).toEqual(['Loja', 'Depósito']);
  });

  it('makes a location the default, refuses an unknown one, and both calls need write_locations (403)', async () => {
    const { store, api } = storeClient();
    const shop = store.addLocation('Loja');
    const answer = (await api.chooseDefaultLocation(shop.id)) as Record<string, unknown>;
    expect(answer).toMatchObject({ id: shop.id, is_default: true });
    expect(store.stockLocations.default?.id).toBe(shop.id);
    const unknown = await refusal(api.chooseDefaultLocation('NAO-EXISTE'));
    expect(unknown).toMatchObject({ status: 404, detail: 'Location with such id does not exist' });

    store.scopes.delete('write_locations');
    expect(await refusal(api.chooseDefaultLocation(store.locations[0].id))).toBeInstanceOf(PermissionMissing);
    expect(await refusal(api.setLocationPriorities([]))).toBeInstanceOf(PermissionMissing);
    // Reading needs read_locations only.
    expect(await api.listLocations()).toHaveLength(2);
    store.scopes.delete('read_locations');
    expect(await refusal(api.listLocations())).toBeInstanceOf(PermissionMissing);
    expect(store.stockLocations.default?.id).toBe(shop.id);
  });

  it('sends a signed webhook for each change of the merchant, only for the events the app registered', async () => {
    const { id, store, api } = storeClient();
    const before = received.length;
    await store.stockLocations.add('Sem webhook');
    expect(received.length).toBe(before);
    expect(store.stockLocations.sent.at(-1)).toMatchObject({ event: 'location/created', status: 0 });

    for (const event of ['location/created', 'location/updated', 'location/deleted'])
      await api.createWebhook({ event, url: 'https://integracao.test/api/v1/webhooks/nuvemshop' });
    const kiosk = await store.stockLocations.add('Quiosque');
    await store.stockLocations.rename(kiosk.id, 'Quiosque Norte');
    await store.stockLocations.makeDefault(kiosk.id);
    await store.stockLocations.remove(store.locations[0].id);
    await expect(store.stockLocations.remove(kiosk.id)).rejects.toThrow('The default location cannot be deleted');
    const bodies = received.slice(before).map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.map((b) => [b.event, b.id === kiosk.id])).toEqual([
      ['location/created', true],
      ['location/updated', true],
      ['location/updated', false],
      ['location/updated', true],
      ['location/deleted', false],
    ]);
    expect(bodies.every((b) => b.store_id === id)).toBe(true);
    for (const r of received.slice(before))
      expect(r.signature).toBe(createHmac('sha256', SECRET).update(r.body).digest('hex'));
    // The deleted location's stock went with it.
    expect(store.variants.every((v) => v.inventory_levels.every((l) => l.location_id !== bodies[4].id))).toBe(true);
  });
});
