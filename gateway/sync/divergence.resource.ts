import { datetime, id, reference, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import type { EntityOf } from '../kit/entity';

/** What a reconciliation compares, per SKU (and per location when the client has locations). */
export const DIVERGENCE_KINDS = [
  'stock',
  'price',
  'promotional_price',
  'published',
  'only_in_store',
  'only_in_hiper',
] as const;
/**
 * `open` while the store and Hiper disagree and the product cannot write it itself; `repaired` once the product wrote
 * Hiper's value over the store's; `resolved` when a later reconciliation no longer finds it (the row is kept, so staff
 * see what went away and when it was last seen).
 */
export const DIVERGENCE_STATES = ['open', 'repaired', 'resolved'] as const;

export type DivergenceKind = (typeof DIVERGENCE_KINDS)[number];
export type DivergenceState = (typeof DIVERGENCE_STATES)[number];

/**
 * One difference the nightly reconciliation found between a client's store and Hiper, with what each side says:
 * kept up to date by each reconciliation (gateway/sync/reconciler.ts), read by staff.
 */
export const divergenceResource = new Resource(
  'Divergence',
  {
    id: id(),
    client_id: reference('client', 'Client', { readOnly: true, filterable: true, listed: true, onDelete: 'cascade' }),
    sku: text({ max: 64, readOnly: true, listed: true, sortable: true, description: 'The variant’s SKU' }),
    location_id: text({
      max: 64,
      nullable: true,
      readOnly: true,
      listed: true,
      description: 'The store location (its Nuvemshop id) of a stock compared per location; null otherwise',
    }),
    kind: state(DIVERGENCE_KINDS, {
      readOnly: true,
      listed: true,
      description: 'stock, price, promotional_price, published, only_in_store or only_in_hiper',
      tones: {
        stock: 'neutral',
        price: 'neutral',
        promotional_price: 'neutral',
        published: 'neutral',
        only_in_store: 'neutral',
        only_in_hiper: 'neutral',
      },
    }),
    store_value: text({
      max: 255,
      nullable: true,
      readOnly: true,
      listed: true,
      description: 'What the store says (null: the store does not have it)',
    }),
    hiper_value: text({
      max: 255,
      nullable: true,
      readOnly: true,
      listed: true,
      description: 'What Hiper says (null: Hiper does not have it)',
    }),
    state: state(DIVERGENCE_STATES, {
      default: 'open',
      readOnly: true,
      listed: true,
      filterable: true,
      tones: { open: 'warning', repaired: 'success', resolved: 'neutral' },
      description: 'open, repaired (the product wrote Hiper’s value) or resolved (gone at a later reconciliation)',
    }),
    first_seen: datetime({ readOnly: true, listed: true, description: 'The reconciliation that first found it' }),
    last_seen: datetime({ readOnly: true, listed: true, sortable: true, description: 'The last one that found it' }),
  },
  {
    table: 'divergences',
    path: 'divergences',
    screen: 'divergencias',
    operations: ['list', 'get'],
    order: [['last_seen', 'desc']],
    title: 'sku',
    menu: 6,
    icon: 'List',
    description: 'What the nightly reconciliation found different between each store and Hiper',
  },
);

export type DivergencePublic = PublicOf<typeof divergenceResource.fields>;
export type DivergenceEntity = EntityOf<typeof divergenceResource>;
