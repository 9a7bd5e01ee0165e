import { boolean, datetime, id, int, reference, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import type { EntityOf } from '../kit/entity';

/** A location's last stock run: never run, written, or failed (`stock_error` says why, in Portuguese). */
export const LOCATION_STOCK_STATES = ['never_synced', 'idle', 'failed'] as const;
export type LocationStockState = (typeof LOCATION_STOCK_STATES)[number];

/**
 * One of a store's stock locations (Nuvemshop's multi-inventory) and the Hiper account whose stock it shows. Rows are
 * read from the store ("Ler estoques da loja", the `location/*` webhooks), never created through the API; staff give
 * each its Hiper key, its order and the default. A client with no rows keeps one stock figure, as before.
 */
export const locationResource = new Resource(
  'Location',
  {
    id: id(),
    client_id: reference('client', 'Client', { readOnly: true, listed: true, filterable: true, onDelete: 'cascade' }),
    nuvemshop_location_id: text({
      required: true,
      max: 64,
      readOnly: true,
      description: 'The store’s location id',
    }),
    name: text({ nullable: true, max: 255, readOnly: true, listed: true, searchable: true }),
    // Masked for superusers too: staff give a location its key, and never need to read it back.
    hiper_token: text({
      nullable: true,
      max: 4096,
      secret: 'always',
      listed: true,
      description:
        'The Hiper account whose stock this location shows (masked for everyone, superusers included; the masked ' +
        'value sent back changes nothing); empty: the client’s own (for one location only), else 0',
    }),
    priority: int({ min: 0, max: 1000, default: 0, readOnly: true, listed: true, sortable: true }),
    is_default: boolean({ default: false, readOnly: true, listed: true }),
    stock_state: state(LOCATION_STOCK_STATES, {
      default: 'never_synced',
      readOnly: true,
      listed: true,
      filterable: true,
      tones: { never_synced: 'neutral', idle: 'success', failed: 'error' },
    }),
    stock_error: text({ nullable: true, max: 2000, readOnly: true, listed: true }),
    deleted_at: datetime({ nullable: true, readOnly: true, description: 'When the store deleted it' }),
  },
  {
    operations: ['list', 'get', 'update', 'delete'],
    screen: 'estoques',
    title: 'name',
    subtitle: 'nuvemshop_location_id',
    menu: 0,
    icon: 'Inventory',
    unique: [['client_id', 'nuvemshop_location_id']],
    description: 'A store location and the Hiper account whose stock it shows',
    // An emptied key is no key: the location follows the client's rule (its own key, else 0).
    settle: (location) => {
      if (!location.hiperToken?.trim()) location.hiperToken = null;
    },
  },
);

export type LocationPublic = PublicOf<typeof locationResource.fields>;
export type LocationEntity = EntityOf<typeof locationResource>;
