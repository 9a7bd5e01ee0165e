import { expect } from 'vitest';
import type { TestGateway } from './gateway';
import type { HiperAccount, HiperStandIn } from './standins/hiper';
import type { NuvemshopApiStandIn, StandInStore } from './standins/nuvemshop-api';

/** The app's secret the location tests' gateway checks webhooks with, and the stand-in signs them with. */
export const LOCATIONS_APP_SECRET = 'locations-app-secret';

/** Store ids, unique within a test file's stand-in. */
let nextStore = 9300;

/** What the location tests do against one gateway and the Nuvemshop stand-in. */
export function locationTools(t: TestGateway, su: string, nuvemshop: NuvemshopApiStandIn) {
  /** A client with a store of the stand-in (and a Hiper key that is never called), its store's locations named. */
  async function storeClient(names: string[] = ['Loja'], flags: Record<string, unknown> = {}) {
    const storeId = nextStore++;
    const store = nuvemshop.addStore(storeId);
    store.locations[0].name = names[0];
    for (const name of names.slice(1)) store.addLocation(name);
    const created = await t.request('POST', '/api/v1/clients/', {
      token: su,
      json: {
        url: `https://estoques${storeId}.example.com`,
        name: `Loja ${storeId}`,
        hiper_token: `hiper-key-of-client-${storeId}`,
        nuvemshop_token: store.token,
        nuvemshop_store_id: storeId,
        ...flags,
      },
    });
    expect(created.status, created.text).toBe(200);
    return { id: created.body.id as string, storeId, store };
  }

  /** The client's locations as the API lists them, in the store's priority order (deleted ones last). */
  async function locationsOf(clientId: string, token = su) {
    const list = await t.request('GET', `/api/v1/locations/?client_id=${clientId}&limit=1000`, { token });
    expect(list.status, list.text).toBe(200);
    return (list.body.data as any[]).sort(
      (a, b) => Number(!!a.deleted_at) - Number(!!b.deleted_at) || a.priority - b.priority,
    );
  }

  /** Waits until every read of stock locations queued is done (nothing queued, retried or running). */
  async function readsDone(timeoutMs = 20_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await t.sql<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = 'locations-read' and state in ('created', 'retry', 'active')`,
      );
      if (row.n === 0) return;
      if (Date.now() > until) throw new Error(`${row.n} location reads still pending`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** "Ler estoques da loja" (202), and its read done; answers the client as the API then shows it. */
  async function readNow(clientId: string) {
    const asked = await t.request('POST', `/api/v1/clients/${clientId}/locations/read`, { token: su });
    expect(asked.status, asked.text).toBe(202);
    await readsDone();
    return (await t.request('GET', `/api/v1/clients/${clientId}`, { token: su })).body;
  }

  /** The calls the store received, by route (after the first `since`). */
  const routes = (storeId: number, since = 0) =>
    nuvemshop
      .requestsOf(storeId)
      .slice(since)
      .map((r) => r.route);

  /** The store's locations as its own list orders them: name, priority and whether it is the default. */
  const storeSide = (store: StandInStore) =>
    store.stockLocations.byPriority().map((l) => ({
      name: l.name,
      priority: l.priority,
      is_default: store.stockLocations.default?.id === l.id,
    }));

  return { storeClient, locationsOf, readsDone, readNow, routes, storeSide };
}
/** One of a client's locations as a test sets it up: the store's location, and the Hiper account that feeds it. */
export interface LocationSpec {
  name: string;
  /** Its own Hiper account (a copy of the client's catalogue with stock of its own), the client's, or none. */
  feed: 'own' | 'client' | 'none';
  /** Its own account's stock of each code of the client's catalogue (0 unless told); `undefined`: not in it at all. */
  stockOf?: (codigo: number) => number | undefined;
  isDefault?: boolean;
}

export interface PlacedLocation {
  /** Our row's id. */
  id: string;
  /** The store's location id. */
  storeId: string;
  name: string;
  account?: HiperAccount;
}

/**
 * Gives a client location rows, as "Ler estoques da loja" would have read them from its store, in the order given
 * (the first is the first read, the store's priority 0), each fed as told: its own key entered by staff through the
 * API (`PUT /api/v1/locations/{id}`), the client's, or none. The store gets the locations it lacks. Call it after the
 * client's catalogue is in its Hiper account: an own account copies it.
 */
export async function placeLocations(
  t: TestGateway,
  su: string,
  hiper: HiperStandIn,
  c: { id: string; store: StandInStore; account: HiperAccount },
  specs: LocationSpec[],
): Promise<PlacedLocation[]> {
  const placed: PlacedLocation[] = [];
  for (const [i, spec] of specs.entries()) {
    const storeLocation =
      i === 0
        ? Object.assign(c.store.locations[0], { name: spec.name })
        : (c.store.locations.find((l) => l.name === spec.name) ?? c.store.addLocation(spec.name));
    const [row] = await t.sql<{ id: string }>(
      `insert into locations (id, client_id, nuvemshop_location_id, name, priority, is_default, created_at, updated_at)
       values (gen_random_uuid(), $1, $2, $3, $4::int, $5, now() + make_interval(secs => $4::int), now()) returning id`,
      [c.id, storeLocation.id, spec.name, i, spec.isDefault ?? i === 0],
    );
    let account: HiperAccount | undefined;
    if (spec.feed === 'own') {
      account = hiper.addAccount();
      const stockOf = spec.stockOf ?? (() => 0);
      account.copyCatalogue(
        c.account,
        (codigo) => stockOf(codigo) ?? 0,
        (codigo) => covers(c.account, codigo, stockOf),
      );
      const keyed = await t.request('PUT', `/api/v1/locations/${row.id}`, {
        token: su,
        json: { hiper_token: account.key },
      });
      expect(keyed.status, keyed.text).toBe(200);
    }
    placed.push({ id: row.id, storeId: storeLocation.id, name: spec.name, account });
  }
  return placed;
}

/** Whether an own account holds a product of the catalogue: every one but those whose codes all say `undefined`. */
function covers(catalogue: HiperAccount, codigo: number, stockOf: (codigo: number) => number | undefined): boolean {
  const product = catalogue.product(codigo);
  const codes = product.variacao?.length ? product.variacao.map((v) => v.codigo) : [codigo];
  return codes.some((code) => stockOf(code) !== undefined);
}

/** A store variant's stock at each location, by the location's name. */
export function levelsByName(store: StandInStore, sku: string | number): Record<string, number | null> {
  const variant = store.variants.find((v) => v.sku === String(sku));
  if (!variant) throw new Error(`the store has no variant ${sku}`);
  return Object.fromEntries(
    variant.inventory_levels.map((l) => [
      store.locations.find((x) => x.id === l.location_id)?.name ?? l.location_id,
      l.stock,
    ]),
  );
}

/** A call to the API with its caller's token, as a benchmark or a test makes it. */
export type ApiCall = (method: string, path: string, json?: unknown) => Promise<{ status: number; body: any }>;

/**
 * Gives a client's store the locations named (beside its first), read into the client's rows as staff read them ("Ler
 * estoques da loja", until every one is a row), and each but the store's default (fed by the client's own key) the
 * key of a Hiper account of its own: a copy of the client's catalogue, `stockOf` each code's stock there (`k`: the
 * row's place in the list). Answers each store location's account by the store's location id.
 */
export async function ownLocationsThroughApi(
  api: ApiCall,
  hiper: HiperStandIn,
  c: { id: string; store: StandInStore; account: HiperAccount },
  names: string[],
  stockOf: (codigo: number, k: number) => number,
): Promise<Map<string, HiperAccount>> {
  for (const name of names) c.store.addLocation(name);
  const count = names.length + 1;
  expect((await api('POST', `/api/v1/clients/${c.id}/locations/read`)).status).toBe(202);
  const until = Date.now() + 60_000;
  let rows: { id: string; nuvemshop_location_id: string; is_default: boolean; deleted_at: string | null }[];
  for (;;) {
    const list = await api('GET', `/api/v1/locations/?client_id=${c.id}&limit=1000`);
    expect(list.status).toBe(200);
    rows = (list.body.data as typeof rows).filter((l) => !l.deleted_at);
    if (rows.length === count) break;
    if (Date.now() > until) throw new Error(`${rows.length} of ${count} locations read`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const feeds = new Map<string, HiperAccount>();
  for (const [k, row] of rows.entries()) {
    if (row.is_default) {
      feeds.set(row.nuvemshop_location_id, c.account);
      continue;
    }
    const own = hiper.addAccount();
    own.copyCatalogue(c.account, (codigo) => stockOf(codigo, k));
    const keyed = await api('PUT', `/api/v1/locations/${row.id}`, { hiper_token: own.key });
    expect(keyed.status).toBe(200);
    feeds.set(row.nuvemshop_location_id, own);
  }
  expect(feeds.size).toBe(count);
  return feeds;
}
