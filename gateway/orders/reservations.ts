import type { EntityManager } from '@mikro-orm/postgresql';

/** Where a client without location rows keeps its one stock figure, in the keys below. */
export const STORE_WIDE = 'store';

/** Units held back at one location for one Hiper product or variation, and the newest order holding them. */
export interface Held {
  units: number;
  orderId: string;
}

/** The key of a location's holding of a Hiper product or variation (`STORE_WIDE` for a client without locations). */
export const heldKey = (location: string, hiperId: string) => `${location}\n${hiperId}`;

/** The order states that still hold units: on their way to Hiper or sent, and not yet out of its stock. */
function holdingStates(releaseOn: string): string[] {
  return ['received', 'held', 'sending', 'uncertain', 'sent', ...(releaseOn === 'invoiced' ? ['processed'] : [])];
}

/**
 * Units of a client's store orders that Hiper's stock still counts, by location and by the Hiper product or variation
 * of their lines: paid (or authorized) orders on their way or sent and not yet out of Hiper's stock. An order
 * releases its units at the client's `orders_release_on` (`processed` or `invoiced`), or when cancelled or rejected.
 *
 * Each order row is one shipment, held at the location it is assigned to; a row without one (an order of a store with
 * one location) is held at `defaultLocation`, the client's default location, or store-wide (`STORE_WIDE`) when the
 * client has no location rows.
 */
export async function reservedUnits(
  em: EntityManager,
  clientId: string,
  hiperIds: readonly string[],
  releaseOn: string,
  defaultLocation: string | null = null,
): Promise<Map<string, Held>> {
  if (hiperIds.length === 0) return new Map();
  const holding = holdingStates(releaseOn);
  const rows = (await em.execute(
    `select ${locationOf('?')} as location, line->>'hiper_id' as hiper_id,
            sum((line->>'quantity')::int)::int as units, (array_agg(orders.id order by orders.created_at desc))[1] as order_id
       from orders, jsonb_array_elements(orders.lines) as line
      where orders.client_id = ? and orders.payment_status in ('paid', 'authorized')
        and orders.state in (${holding.map(() => '?').join(', ')})
        and line->>'hiper_id' in (select jsonb_array_elements_text(?::jsonb))
      group by 1, 2`,
    [...locationValues(defaultLocation), clientId, ...holding, JSON.stringify(hiperIds)],
  )) as { location: string; hiper_id: string; units: number; order_id: string }[];
  return new Map(rows.map((r) => [heldKey(r.location, r.hiper_id), { units: r.units, orderId: r.order_id }]));
}

/**
 * The newest order of each (location, Hiper product) given that no longer holds units there: released, cancelled or
 * rejected, or its shipment now assigned elsewhere. What gave back the units a write no longer holds.
 */
export async function releasedBy(
  em: EntityManager,
  clientId: string,
  wanted: readonly { location: string; hiperId: string }[],
  releaseOn: string,
  defaultLocation: string | null = null,
): Promise<Map<string, string>> {
  if (wanted.length === 0) return new Map();
  const holding = holdingStates(releaseOn);
  const rows = (await em.execute(
    `select distinct on (w.location, w.hiper_id) w.location, w.hiper_id, orders.id as order_id
       from jsonb_to_recordset(?::jsonb) as w(location text, hiper_id text)
       join orders on orders.client_id = ?
       cross join lateral jsonb_array_elements(orders.lines) as line
      where line->>'hiper_id' = w.hiper_id
        and not (orders.payment_status in ('paid', 'authorized')
                 and orders.state in (${holding.map(() => '?').join(', ')})
                 and ${locationOf('?')} = w.location)
      order by w.location, w.hiper_id, orders.updated_at desc`,
    [
      JSON.stringify(wanted.map((w) => ({ location: w.location, hiper_id: w.hiperId }))),
      clientId,
      ...holding,
      ...locationValues(defaultLocation),
    ],
  )) as { location: string; hiper_id: string; order_id: string }[];
  return new Map(rows.map((r) => [heldKey(r.location, r.hiper_id), r.order_id]));
}

/** Where an order row's units are held: its shipment's location, else the default given, else store-wide. */
const locationOf = (placeholder: string) => `coalesce(orders.location_id::text, ${placeholder}::text, '${STORE_WIDE}')`;
const locationValues = (defaultLocation: string | null) => [defaultLocation];
