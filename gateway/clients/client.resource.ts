import { boolean, datetime, id, int, map, state, text, url } from '../kit/field';
import { Resource, type QueuedWork } from '../kit/resource';
import type { CreateOf, PublicOf, UpdateOf } from '../kit/field';
import type { EntityOf } from '../kit/entity';
import { SCOPES_MAX } from '../platforms/nuvemshop-scopes';

/**
 * Where a client's synchronisation stands: `not_connected` (a credential or the store missing), `never_synced`, `idle`
 * (its last run succeeded), `partial` (its last run ended with products it could not write), a run `queued` or
 * `running`, the last run `failed`, or a state that stops every
 * call to its store until staff or the store act (`token_revoked`, `suspended`, `disconnected`).
 */
export const SYNC_STATES = [
  'not_connected',
  'never_synced',
  'idle',
  'partial',
  'queued',
  'running',
  'failed',
  'token_revoked',
  'suspended',
  'disconnected',
] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/** What a client must hold to be synced: both credentials and its store. */
export const CONNECTION_FIELDS = ['hiper_token', 'nuvemshop_token', 'nuvemshop_store_id'] as const;

/** What a client must hold to call its store: the store's token and id. */
export const STORE_FIELDS = ['nuvemshop_token', 'nuvemshop_store_id'] as const;

/** The states that stop every call to a client's store until staff or the store act. */
export const STOPPED_STATES = ['token_revoked', 'suspended', 'disconnected'] as const;

/** Which payment states send an order to Hiper. */
export const ORDERS_SEND_ON = ['paid', 'authorized'] as const;
/** When Hiper has taken a sent order's units out of its own stock. */
export const ORDERS_RELEASE_ON = ['invoiced', 'processed'] as const;

/** Nuvemshop `payment_details.method` → Hiper `idMeioDePagamento`, unless a client says otherwise. */
export const DEFAULT_PAYMENT_IDS: Readonly<Record<string, number>> = { credit_card: 4, debit_card: 5, pix: 12 };

/** A store connection: one line per field; its table, REST, OpenAPI, GraphQL and the admin follow from it. */
export const clientResource = new Resource(
  'Client',
  {
    id: id(),
    url: url({
      required: true,
      max: 255,
      // One client per store address: two clients of one URL could not be told apart by the staff choosing them.
      unique: true,
      listed: true,
      sortable: true,
      searchable: true,
      example: 'https://loja.example.com',
    }),
    nuvemshop_store_id: int({
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      default: 0,
      unique: true,
      listed: true,
      sortable: true,
      description: 'Nuvemshop store id; 0 when not linked',
      example: 1234567,
    }),
    hiper_token: text({ nullable: true, max: 4096, secret: true, listed: true }),
    nuvemshop_token: text({ nullable: true, max: 4096, secret: true, listed: true }),
    // Settings, read in the edit dialog: the list keeps its width for what tells a client's state.
    hiper_sync_update_image: boolean({ default: true }),
    hiper_sync_update_dimensions: boolean({ default: true }),
    nuvemshop_location_id: text({
      nullable: true,
      max: 64,
      description: 'When set, stock is written to this location’s inventory levels',
    }),
    sync_state: state(SYNC_STATES, {
      default: 'never_synced',
      tones: {
        not_connected: 'warning',
        never_synced: 'neutral',
        idle: 'success',
        partial: 'warning',
        queued: 'neutral',
        running: 'info',
        failed: 'error',
        token_revoked: 'error',
        suspended: 'error',
        disconnected: 'error',
      },
      readOnly: true,
      listed: true,
      filterable: true,
      description: 'Where the store synchronisation stands for this client',
    }),
    last_synced_at: datetime({ nullable: true, readOnly: true, listed: true, description: 'When a run last ended' }),
    catalogue_synced_at: datetime({
      nullable: true,
      readOnly: true,
      description: 'When a catalogue run last wrote the store: until then the client is never_synced',
    }),
    name: text({
      nullable: true,
      max: 255,
      listed: true,
      description: 'The store’s name, read from Nuvemshop on install',
    }),
    installed_at: datetime({
      nullable: true,
      readOnly: true,
      description: 'When the app was last installed on the store',
    }),
    nuvemshop_scopes: text({
      nullable: true,
      readOnly: true,
      max: SCOPES_MAX,
      description:
        'The permissions (scopes) the store granted the app at its install, comma-separated as Nuvemshop answered ' +
        'them; empty when unknown (a token typed in)',
      example: 'read_products,write_products,read_orders,write_orders',
    }),
    nuvemshop_missing_scopes: text({
      nullable: true,
      readOnly: true,
      max: SCOPES_MAX,
      description:
        'The scopes the product needs that the store did not grant, or that a call was refused for (403), ' +
        'comma-separated; what needs them does without (a new install of the app grants them)',
      example: 'read_customers',
    }),
    orders_enabled: boolean({ default: false, description: 'Send this store’s orders to Hiper' }),
    orders_send_on: state(ORDERS_SEND_ON, {
      default: 'paid',
      tones: { paid: 'neutral', authorized: 'neutral' },
      description: 'Which payment states send an order: paid, or authorized as well',
    }),
    orders_payment_ids: map(
      {
        key: text({
          min: 1,
          max: 64,
          pattern: '[A-Za-z0-9_.-]+',
          description: 'a Nuvemshop payment_details.method, such as credit_card or pix (letters, digits, _ . -)',
        }),
        value: int({ min: 1, max: 2 ** 31 - 1, description: 'a Hiper idMeioDePagamento, a whole number from 1' }),
      },
      {
        nullable: true,
        description:
          'Nuvemshop payment_details.method → Hiper idMeioDePagamento, e.g. {"credit_card": 4, "debit_card": 5, ' +
          '"pix": 12} (null: that default); a method not in the map holds the order',
        example: { credit_card: 4, debit_card: 5, pix: 12 },
      },
    ),
    orders_release_on: state(ORDERS_RELEASE_ON, {
      default: 'invoiced',
      tones: { invoiced: 'neutral', processed: 'neutral' },
      description: 'When Hiper has taken a sent order’s units out of its own stock: invoiced or processed',
    }),
    orders_cancel_in_store: boolean({ default: true, description: 'An order Hiper cancels is cancelled in the store' }),
    hiper_marketplace_cnpj: text({
      nullable: true,
      max: 14,
      description: 'Sent as Marketplace.Cnpj when set (required of establishments in Santa Catarina)',
    }),
    hiper_marketplace_name: text({ nullable: true, max: 255, description: 'Sent as Marketplace.Nome when set' }),
    orders_enabled_at: datetime({
      nullable: true,
      readOnly: true,
      description: 'When orders were last turned on: orders placed before are not sent',
    }),
    redacted_at: datetime({
      nullable: true,
      readOnly: true,
      description: 'When the store’s data was erased at its request (store/redact); the record stays for staff',
    }),
    locations_read_at: datetime({
      nullable: true,
      readOnly: true,
      description:
        'When the client’s locations last matched the store’s: read ("Ler estoques da loja", a location webhook), or ' +
        'changed by staff through the store (their order, the default)',
    }),
    locations_error: text({
      nullable: true,
      readOnly: true,
      max: 500,
      description: 'Why the last read of the store’s stock locations failed, in Portuguese; empty when it worked',
    }),
    archived_at: datetime({
      nullable: true,
      readOnly: true,
      description:
        'When the client was deleted: left out of lists, its synchronisation and orders stopped, its history kept; ' +
        'a superuser restores or purges it',
    }),
  },
  {
    screen: 'clientes',
    // Named as people know it: by its store's name, its URL beside it (alone while it has no name).
    title: 'name',
    subtitle: 'url',
    menu: 10,
    icon: 'Business',
    // "Sincronizar agora": a run queued at once (or the one already queued or running); not offered to a client that
    // cannot be synced.
    actions: [
      {
        name: 'sync',
        mutation: 'syncClient',
        needs: CONNECTION_FIELDS,
        unavailable: { field: 'sync_state', values: ['not_connected', ...STOPPED_STATES] },
      },
      // "Ler estoques da loja": the store's stock locations read into the client's locations (a job, at once); it
      // needs the store alone, not Hiper.
      {
        name: 'read_locations',
        mutation: 'readStoreLocations',
        needs: STORE_FIELDS,
        unavailable: { field: 'sync_state', values: STOPPED_STATES },
      },
    ],
    // Deleting a client archives it: its orders, runs, product links and webhook events are the retailer's history.
    // Purged by a superuser with them (children first; what only the synchronisation keeps goes by its cascade).
    archive: {
      field: 'archived_at',
      history: [
        { table: 'webhook_events', column: 'client_id' },
        { table: 'orders', column: 'client_id' },
        { table: 'sync_runs', column: 'client_id' },
        { table: 'product_links', column: 'client_id' },
      ],
    },
    queues: (client, was): QueuedWork[] => {
      const id = String(client.id);
      // Archived: the app's webhooks for its store are deleted at Nuvemshop by a job, retried when Nuvemshop fails.
      if (client.archivedAt && !was?.archivedAt)
        return [{ queue: 'client-archived', data: { clientId: id }, singletonKey: id }];
      // Restored: its store's webhooks registered again, as after an install.
      if (!client.archivedAt && was?.archivedAt) {
        const { storeId, storeToken } = storeConnectionOf(client);
        return storeId > 0 && storeToken ? [{ queue: 'store-install', data: { storeId } }] : [];
      }
      // Orders turned on (a new client with them on, or off → on): the store's order webhooks are registered at
      // once, not at the first sweep.
      return client.ordersEnabled && !was?.ordersEnabled
        ? [{ queue: 'orders-webhooks', data: { clientId: id }, singletonKey: id }]
        : [];
    },
    // A client's state follows what it holds: a credential removed makes it `not_connected`, the last one given back
    // makes it what it was before (`never_synced` until a catalogue run has written its store); a credential staff
    // change takes it out of the state that credential's refusal put it in, and the next run decides. A store token
    // typed in comes with no grant: its scopes are unknown until a refusal names one.
    settle: (client, was) => {
      client.syncState = settledSyncState(client, was);
      if (was && was.nuvemshopToken !== client.nuvemshopToken) {
        client.nuvemshopScopes = null;
        client.nuvemshopMissingScopes = null;
      }
    },
  },
);

/** The fields of CONNECTION_FIELDS a client (as the ORM holds it) lacks. */
export function missingConnection(row: StoreConnectionFields): (typeof CONNECTION_FIELDS)[number][] {
  const c = storeConnectionOf(row);
  return CONNECTION_FIELDS.filter((name) =>
    name === 'hiper_token' ? !c.hiperKey : name === 'nuvemshop_token' ? !c.storeToken : c.storeId <= 0,
  );
}

const MISSING_NAMES: Record<(typeof CONNECTION_FIELDS)[number], string> = {
  hiper_token: 'the Hiper token',
  nuvemshop_token: 'the Nuvemshop token',
  nuvemshop_store_id: 'the Nuvemshop store id',
};

/** Why a client cannot be synced, naming what it lacks: `Missing the Hiper token and the Nuvemshop store id`. */
export function missingConnectionMessage(missing: readonly (typeof CONNECTION_FIELDS)[number][]): string {
  const names = missing.map((name) => MISSING_NAMES[name]);
  return `Missing ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]}`;
}

/** Why a client that holds every credential and its store still cannot be synced or swept (its store stopped us). */
export const NOT_CONNECTED = 'Client is not connected to both platforms';

/**
 * The 409's detail for a client the synchronisation or the orders cannot work with, given what it lacks
 * (`missingConnection`): those fields named (`Missing the Nuvemshop store id`), or, when it lacks nothing, that its
 * store does not let us in.
 */
export function notConnectedMessage(missing: readonly (typeof CONNECTION_FIELDS)[number][]): string {
  return missing.length ? missingConnectionMessage(missing) : NOT_CONNECTED;
}

/**
 * The state a client's row should hold given what it holds (and held, on an update): `token_revoked` left when its
 * Nuvemshop token changes and `failed` when its Hiper key does; another stopping state stays; without a credential
 * or the store it is `not_connected`; else `never_synced` until a catalogue run has written its store, then `idle`.
 */
export function settledSyncState(row: ClientEntity, before: ClientEntity | null = null): SyncState {
  const state = storeConnectionOf(row).state;
  const fixed =
    (state === 'token_revoked' && !!before && !!row.nuvemshopToken && row.nuvemshopToken !== before.nuvemshopToken) ||
    (state === 'failed' && !!before && !!row.hiperToken && row.hiperToken !== before.hiperToken);
  if (!fixed && (STOPPED_STATES as readonly string[]).includes(state)) return state;
  if (missingConnection(row).length) return 'not_connected';
  if (fixed || !state || state === 'not_connected' || state === 'never_synced' || state === 'idle')
    return row.catalogueSyncedAt ? 'idle' : 'never_synced';
  return state;
}

type ClientFields = typeof clientResource.fields;
export type ClientPublic = PublicOf<ClientFields>;
export type ClientCreate = CreateOf<ClientFields>;
export type ClientUpdate = UpdateOf<ClientFields>;
/** A client as the ORM holds it. */
export type ClientEntity = EntityOf<typeof clientResource>;

/** The properties of a client the store synchronisation reads. */
export const STORE_CONNECTION_PROPS = [
  'hiperToken',
  'nuvemshopToken',
  'nuvemshopStoreId',
  'hiperSyncUpdateImage',
  'hiperSyncUpdateDimensions',
  'nuvemshopLocationId',
  'syncState',
  'archivedAt',
] as const satisfies readonly (keyof ClientEntity)[];

/** The fields of a client the store synchronisation reads. */
export type StoreConnectionFields = Pick<ClientEntity, (typeof STORE_CONNECTION_PROPS)[number]>;

/** What the store synchronisation reads of a client (as the ORM holds it): credentials, store, flags and state. */
export function storeConnectionOf(row: StoreConnectionFields) {
  return {
    hiperKey: row.hiperToken || null,
    storeToken: row.nuvemshopToken || null,
    storeId: Number(row.nuvemshopStoreId) || 0,
    updateImage: !!row.hiperSyncUpdateImage,
    updateDimensions: !!row.hiperSyncUpdateDimensions,
    locationId: row.nuvemshopLocationId || null,
    state: row.syncState,
    /** Deleted by staff: nothing acts for it until a superuser restores it. */
    archived: !!row.archivedAt,
  };
}

/** A client is synced when it has both credentials and a store, no state stops it, and it is not archived. */
export const isConnected = (client: StoreConnectionFields) => {
  const c = storeConnectionOf(client);
  const stopped = (STOPPED_STATES as readonly string[]).includes(c.state);
  return !!c.hiperKey && !!c.storeToken && c.storeId > 0 && !stopped && !c.archived;
};
