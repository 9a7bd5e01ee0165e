import { datetime, id, int, reference, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import type { EntityOf } from '../kit/entity';

/** Why a stock value was written: Hiper's stock changed, an order reserved units, or released them. */
export const MOVEMENT_REASONS = ['hiper', 'reserved', 'released'] as const;
export type MovementReason = (typeof MOVEMENT_REASONS)[number];

/** One stock value the product wrote for a SKU at a location, with the value the store had before and why. */
export const stockMovementResource = new Resource(
  'StockMovement',
  {
    id: id(),
    client_id: reference('client', 'Client', { readOnly: true, listed: true, filterable: true, onDelete: 'cascade' }),
    location_id: reference('location', 'Location', {
      nullable: true,
      readOnly: true,
      listed: true,
      filterable: true,
      onDelete: 'cascade',
    }),
    sku: text({ max: 64, readOnly: true, listed: true, filterable: true }),
    value: int({ min: 0, max: 2 ** 31 - 1, readOnly: true, listed: true }),
    previous: int({ min: 0, max: 2 ** 31 - 1, nullable: true, readOnly: true, listed: true }),
    reason: state(MOVEMENT_REASONS, {
      readOnly: true,
      listed: true,
      filterable: true,
      tones: { hiper: 'info', reserved: 'warning', released: 'success' },
    }),
    order_id: reference('order', 'Order', { nullable: true, readOnly: true, listed: true, onDelete: 'set null' }),
    created_at: datetime({ readOnly: true, listed: true, description: 'When it was written' }),
  },
  {
    operations: ['list', 'get'],
    path: 'stock-movements',
    screen: 'movimentos-de-estoque',
    title: 'sku',
    menu: 0,
    icon: 'List',
    description: 'A stock value written for a SKU at a location, and why',
  },
);

export type StockMovementPublic = PublicOf<typeof stockMovementResource.fields>;
export type StockMovementEntity = EntityOf<typeof stockMovementResource>;
