import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Units of a client's store orders that Hiper's stock still counts: paid (or authorized) orders on their way or sent
 * and not yet out of Hiper's stock, by the Hiper product or variation of their lines. An order releases its units at
 * the client's `orders_release_on` (`processed` or `invoiced`), or when cancelled or rejected.
 */
export async function reservedUnits(
  em: EntityManager,
  clientId: string,
  hiperIds: readonly string[],
  releaseOn: string,
): Promise<Map<string, number>> {
  if (hiperIds.length === 0) return new Map();
  const holding = [
    'received',
    'held',
    'sending',
    'uncertain',
    'sent',
    ...(releaseOn === 'invoiced' ? ['processed'] : []),
  ];
  const rows = (await em.execute(
    `select line->>'hiper_id' as hiper_id, sum((line->>'quantity')::int)::int as units
       from orders, jsonb_array_elements(orders.lines) as line
      where orders.client_id = ? and orders.payment_status in ('paid', 'authorized')
        and orders.state in (${holding.map(() => '?').join(', ')})
        and line->>'hiper_id' in (${hiperIds.map(() => '?').join(', ')})
      group by 1`,
    [clientId, ...holding, ...hiperIds],
  )) as { hiper_id: string; units: number }[];
  return new Map(rows.map((r) => [r.hiper_id, r.units]));
}
