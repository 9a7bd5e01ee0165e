import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../queue/queue';
import type { OrderLine, OrderState } from './order.resource';
import { historyOf, orderRow } from './order-rows';
import type { Shipment } from './shipments';
import { orderNotes } from '../../schema/staff-notes';

/** A shipment's row as its split writes it: where it ships from, what it ships, and its share of the payment. */
export interface ShipmentRowFields {
  shipment: Shipment;
  locationId: string | null;
  lines: OrderLine[];
  total: string;
  /** The number its sales order takes in Hiper. */
  hiperNumber: string;
}

/** What every row of the order says of the store order itself. */
export interface OrderFields {
  number: number;
  payment_status: string;
  customer_name: string | null;
  store_status: string;
  placed_at: Date | null;
  search_text: string;
}

/**
 * An order of a store with several locations becomes one row per shipment, in one transaction: the row made when the
 * order was first seen becomes the first shipment's, and one row is inserted (with its job queued) for each other.
 * Exactly once whatever crashes or repeats: the first row is locked and split only while it names no shipment, each
 * other row is unique per (client, order, shipment), and a crash before the commit leaves the first row as it was.
 * Answers false when the row had been split (or had moved on) already.
 */
export async function splitIntoShipments(
  em: EntityManager,
  jobs: JobQueue,
  rowId: string,
  order: OrderFields,
  shipments: ShipmentRowFields[],
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const row = await orderRow(tx, rowId, true);
    if (!row || row.fulfillment_order_id || !(['received', 'held'] as OrderState[]).includes(row.state)) return false;
    const [{ received_at }] = (await tx.execute(`select received_at from orders where id = ?`, [rowId])) as {
      received_at: Date;
    }[];
    const [first, ...others] = shipments;
    await tx.execute(
      `update orders set fulfillment_order_id = ?, location_id = ?, lines = ?::jsonb, total = ?, hiper_number = ?,
              updated_at = now(), history = history || ?::jsonb
        where id = ?`,
      [
        first.shipment.id,
        first.locationId,
        JSON.stringify(first.lines),
        first.total,
        first.hiperNumber,
        historyOf(row.state, orderNotes.split_into(shipments.length)),
        rowId,
      ],
    );
    for (const [i, other] of others.entries()) {
      const k = i + 2;
      // Received with the order, a moment after the one before: the order's rows stay together, first to last.
      const made = (await tx.execute(
        `insert into orders (id, client_id, nuvemshop_order_id, fulfillment_order_id, location_id, state, number,
                             payment_status, total, hiper_number, customer_name, store_status, placed_at,
                             search_text, lines, history, received_at, updated_at, created_at)
         values (?, ?, ?, ?, ?, 'received', ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, now(), now())
         on conflict (client_id, nuvemshop_order_id, fulfillment_order_id) do nothing returning id`,
        [
          randomUUID(),
          row.client_id,
          row.nuvemshop_order_id,
          other.shipment.id,
          other.locationId,
          order.number,
          order.payment_status,
          other.total,
          other.hiperNumber,
          order.customer_name,
          order.store_status,
          order.placed_at,
          order.search_text,
          JSON.stringify(other.lines),
          historyOf('received', orderNotes.shipment_of(k, shipments.length, order.number)),
          new Date(new Date(received_at).getTime() + (k - 1)),
        ],
      )) as { id: string }[];
      for (const { id } of made) await jobs.send('order', { orderId: id }, { em: tx, singletonKey: id });
    }
    return true;
  });
}

/** The rows of a store order: one, or one per shipment. */
export async function rowsOfOrder(
  em: EntityManager,
  clientId: string,
  nuvemshopOrderId: string | number,
): Promise<{ id: string; state: OrderState; fulfillment_order_id: string | null }[]> {
  return (await em.execute(
    `select id, state, fulfillment_order_id from orders where client_id = ? and nuvemshop_order_id = ?
      order by received_at, created_at, id`,
    [clientId, nuvemshopOrderId],
  )) as { id: string; state: OrderState; fulfillment_order_id: string | null }[];
}
