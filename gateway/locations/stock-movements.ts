import type { EntityManager } from '@mikro-orm/postgresql';
import type { MovementReason } from './stock-movement.resource';

/** The largest value the table's int columns hold. */
const INT_MAX = 2 ** 31 - 1;

/** One stock value written for a SKU at a location (null: a client without location rows), and why. */
export interface Movement {
  clientId: string;
  locationId: string | null;
  sku: string;
  value: number;
  /** As the store last had it; null when not known. */
  previous: number | null;
  reason: MovementReason;
  orderId: string | null;
}

/**
 * Keeps movements as rows, in one statement, on the caller's transaction (`em` inside it): a write and its movements
 * are saved together. Each is stamped as it is inserted, so that a batch's movements read in the order written.
 */
export async function recordMovements(em: EntityManager, movements: readonly Movement[]): Promise<void> {
  if (!movements.length) return;
  await em.execute(
    `insert into stock_movements (id, client_id, location_id, sku, value, previous, reason, order_id, created_at, updated_at)
     select gen_random_uuid(), m.client_id, m.location_id, m.sku, m.value, m.previous, m.reason, m.order_id,
            clock_timestamp(), clock_timestamp()
       from jsonb_to_recordset(?::jsonb)
         as m(client_id uuid, location_id uuid, sku text, value int, previous int, reason text, order_id uuid)`,
    [
      JSON.stringify(
        movements.map((m) => ({
          client_id: m.clientId,
          location_id: m.locationId,
          sku: m.sku.slice(0, 64),
          value: Math.min(m.value, INT_MAX),
          previous: m.previous === null ? null : Math.min(m.previous, INT_MAX),
          reason: m.reason,
          order_id: m.orderId,
        })),
      ),
    ],
  );
}
