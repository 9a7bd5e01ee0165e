import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderHistoryEntry, OrderState } from './order.resource';

/** An order's row as the order work reads it. */
export interface OrderRow {
  id: string;
  client_id: string;
  nuvemshop_order_id: string;
  state: OrderState;
  hiper_order_id: string | null;
  hiper_events_seen: number;
  placed_at: Date | null;
  refused_digest: string | null;
  /** The shipment it sends (a store with several locations), and our row of the location that ships it. */
  fulfillment_order_id: string | null;
  location_id: string | null;
}

/** One step of history, as the jsonb array it is appended to. */
export const historyOf = (state: OrderState, note: string) =>
  JSON.stringify([{ at: new Date().toISOString(), state, note } satisfies OrderHistoryEntry]);

/** An order's row, locked for the transaction `em` is in when `lock`. */
export async function orderRow(em: EntityManager, id: string, lock = false): Promise<OrderRow | undefined> {
  const [row] = (await em.execute(
    `select id, client_id, nuvemshop_order_id, state, hiper_order_id, hiper_events_seen, placed_at, refused_digest,
            fulfillment_order_id, location_id
       from orders where id = ?${lock ? ' for update' : ''}`,
    [id],
  )) as OrderRow[];
  return row;
}

/** The columns the order work sets (a fixed list: nothing from a request names a column). */
type Settable =
  | 'state'
  | 'hold_reason'
  | 'last_error'
  | 'lines'
  | 'hiper_order_id'
  | 'hiper_code'
  | 'nfe_key'
  | 'tracking_code'
  | 'sent_at'
  | 'sending_since'
  | 'hiper_events_seen'
  | 'number'
  | 'payment_status'
  | 'total'
  | 'customer_name'
  | 'store_status'
  | 'placed_at'
  | 'search_text'
  | 'refused_digest'
  | 'status_read_at'
  | 'fulfil_refused_at'
  | 'cancel_requested_at'
  | 'cancel_refused'
  | 'fulfillment_order_id'
  | 'location_id'
  | 'hiper_number';

/**
 * Changes an order's row, only while it is in one of `from` (when given), appending `note` to its history under the
 * state it then has: answers whether it changed. The check and the change are one statement, so two workers never
 * both move an order out of the same state.
 */
export async function moveOrder(
  em: EntityManager,
  id: string,
  fields: Partial<Record<Settable, unknown>>,
  note?: string,
  from?: readonly OrderState[],
): Promise<boolean> {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [column, value] of Object.entries(fields)) {
    sets.push(`${column} = ?${column === 'lines' ? '::jsonb' : ''}`);
    values.push(column === 'lines' ? JSON.stringify(value) : value);
  }
  if (note) {
    // The entry names the state the order has after the change (a column read in SET is the old value).
    sets.push(
      `history = history || jsonb_build_array(jsonb_build_object('at', now(), 'state', coalesce(?::text, state::text), 'note', ?::text))`,
    );
    values.push(fields.state ?? null, note);
  }
  sets.push('updated_at = now()');
  let where = 'id = ?';
  values.push(id);
  if (from?.length) {
    where += ` and state in (${from.map(() => '?').join(', ')})`;
    values.push(...from);
  }
  const rows = (await em.execute(
    `update orders set ${sets.join(', ')} where ${where} returning id`,
    values,
  )) as unknown[];
  return rows.length > 0;
}

/**
 * The rows of a store order, made when first seen (webhook or sweep) and found afterwards: one per client and store
 * order id, whoever comes first, until a store with several locations has it split into one row per shipment (the
 * first made becoming the first shipment's; see shipment-rows.ts). No row is made for an order that has rows already,
 * split or not. Answers the first row's id and state, whether this call made it, and every row of the order.
 */
export async function upsertOrder(
  em: EntityManager,
  clientId: string,
  nuvemshopOrderId: number,
  note: string,
): Promise<{ id: string; state: OrderState; created: boolean; rows: { id: string; state: OrderState }[] }> {
  const made = (await em.execute(
    `insert into orders (id, client_id, nuvemshop_order_id, state, lines, history, received_at, updated_at, created_at)
     select ?, ?, ?, 'received', '[]'::jsonb, ?::jsonb, now(), now(), now()
      where not exists (select 1 from orders where client_id = ? and nuvemshop_order_id = ?)
     on conflict (client_id, nuvemshop_order_id, fulfillment_order_id) do nothing returning id, state`,
    [randomUUID(), clientId, nuvemshopOrderId, historyOf('received', note), clientId, nuvemshopOrderId],
  )) as { id: string; state: OrderState }[];
  if (made.length > 0) return { ...made[0], created: true, rows: made };
  const rows = (await em.execute(
    `select id, state from orders where client_id = ? and nuvemshop_order_id = ? order by received_at, created_at, id`,
    [clientId, nuvemshopOrderId],
  )) as { id: string; state: OrderState }[];
  return { ...rows[0], created: false, rows };
}
