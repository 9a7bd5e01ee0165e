/**
 * The stand-in store's fulfillment orders (MultiCD), as Nuvemshop makes them with each order and serves them: "if
 * there is a location capable of fulfilling the entire order, stock will be shipped from that location. If a single
 * location cannot fulfill the entire order, it is split across different locations" (ERP guidelines). How it splits is
 * unverified: here by the locations' priority, whole lines first. Served in the shape of Tiendanube's own mocks (the
 * older one: `assigned_location.id`, `line_items[].order_line_item_id`) or of the 2025-03 pages
 * (`assigned_location.location_id`, `line_items[].variant.variant_id`, `unit_price`), as the order itself is.
 */

/** A store location as the split reads it: the lower `priority` ships first. */
export interface ShippingLocation {
  id: string;
  name: string;
  priority: number;
}

/** An order line as the split reads it. */
export interface LineToShip {
  id: number;
  product_id: number;
  variant_id: number;
  price: string;
  quantity: number;
}

export type FulfillmentStatus =
  'UNPACKED' | 'PACKED' | 'DISPATCHED' | 'READY_FOR_PICKUP' | 'DELIVERED' | 'NOT_DELIVERED' | 'CANCELLED';

export const FULFILLMENT_STATUSES: readonly FulfillmentStatus[] = [
  'UNPACKED',
  'PACKED',
  'DISPATCHED',
  'READY_FOR_PICKUP',
  'DELIVERED',
  'NOT_DELIVERED',
  'CANCELLED',
];

/** A fulfillment order as the stand-in keeps it (served through `servedFulfillmentOrder`). */
export interface FulfillmentOrder {
  id: string;
  /** "The unique fulfillment order nice number": its place among the order's, from 1, as text. */
  number: string;
  status: FulfillmentStatus;
  assigned_location: { id: string; name: string };
  line_items: {
    id: string;
    quantity: number;
    order_line_item_id: number;
    variant_id: number;
    product_id: number;
    unit_price: number;
  }[];
  tracking_info: { code: string | null; url: string | null; carrier?: string | null } | null;
  shipping: {
    type: 'ship' | 'pickup' | 'non-shippable';
    carrier: string | null;
    option: string | null;
    merchant_cost: { value: number; currency: string };
    consumer_cost: { value: number; currency: string };
  };
  recipient: { name: string; phone: string | null; identifier: string | null };
  fulfilled_at: string | null;
  created_at: string;
  updated_at: string;
  /** What the last PATCH said of notifying the customer (inside `tracking_info`; false unless it said true). */
  notified?: boolean;
  /** Every PATCH body it took, in order: for tests to inspect. */
  patches?: Record<string, unknown>[];
}

/** How a seeded order's fulfillment orders are made. */
export interface ShipmentPlan {
  /** The store's live locations. */
  locations: readonly ShippingLocation[];
  /** A variant's stock at a location; null: not managed (never runs out); undefined: unknown (never runs out). */
  stockAt: (variantId: number, locationId: string) => number | null | undefined;
  /** The locations to ship from, one fulfillment order each, lines dealt out in turn (a test's explicit split). */
  named?: readonly ShippingLocation[];
  /** The order's freight: all of it on the first fulfillment order, unless `freights` says each one's. */
  freight: number;
  freights?: readonly number[];
  shippingType?: 'ship' | 'pickup' | 'non-shippable';
  recipient: FulfillmentOrder['recipient'];
}

/** A ULID-like id. */
const ulid = () =>
  `01${Array.from({ length: 24 }, () => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Math.floor(Math.random() * 32)]).join('')}`;

const byPriority = (locations: readonly ShippingLocation[]) =>
  [...locations].sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));

/**
 * The lines each location ships: one location (the first by priority) when one can ship every line, else each line
 * whole from the first location that has its units, the rest split over the locations by priority, and what no
 * location has from the first (Nuvemshop itself can oversell: `issues.unclaimed_stock`).
 */
export function splitByStock(
  lines: readonly LineToShip[],
  locations: readonly ShippingLocation[],
  stockAt: ShipmentPlan['stockAt'],
): { location: ShippingLocation; items: { line: LineToShip; quantity: number }[] }[] {
  const ordered = byPriority(locations);
  const left = new Map<string, number | null>();
  const stock = (line: LineToShip, location: ShippingLocation) => {
    const key = `${line.variant_id} ${location.id}`;
    if (!left.has(key)) left.set(key, stockAt(line.variant_id, location.id) ?? null);
    return left.get(key)!;
  };
  const take = (line: LineToShip, location: ShippingLocation, units: number) => {
    const had = stock(line, location);
    if (had !== null) left.set(`${line.variant_id} ${location.id}`, had - units);
  };
  const whole = ordered.find((location) =>
    lines.every((line) => {
      const has = stockAt(line.variant_id, location.id);
      return has === null || has === undefined || has >= line.quantity;
    }),
  );
  if (whole || ordered.length === 1) {
    return [{ location: whole ?? ordered[0], items: lines.map((line) => ({ line, quantity: line.quantity })) }];
  }
  const shipped = new Map<string, { line: LineToShip; quantity: number }[]>();
  const give = (location: ShippingLocation, line: LineToShip, quantity: number) => {
    if (quantity <= 0) return;
    take(line, location, quantity);
    const items = shipped.get(location.id) ?? [];
    const same = items.find((item) => item.line === line);
    if (same) same.quantity += quantity;
    else items.push({ line, quantity });
    shipped.set(location.id, items);
  };
  const parted: LineToShip[] = [];
  for (const line of lines) {
    const from = ordered.find((location) => {
      const has = stock(line, location);
      return has === null || has >= line.quantity;
    });
    if (from) give(from, line, line.quantity);
    else parted.push(line);
  }
  for (const line of parted) {
    let missing = line.quantity;
    for (const location of ordered) {
      const has = stock(line, location);
      const units = has === null ? missing : Math.min(missing, Math.max(0, has));
      give(location, line, units);
      missing -= units;
    }
    give(ordered[0], line, missing);
  }
  return ordered
    .filter((location) => shipped.has(location.id))
    .map((location) => ({ location, items: shipped.get(location.id)! }));
}

const money = (value: number) => ({ value: Math.round(value * 100) / 100, currency: 'BRL' });

/** An order's fulfillment orders, made as the order is (see `splitByStock`), numbered from 1. */
export function fulfillmentOrdersFor(lines: readonly LineToShip[], plan: ShipmentPlan, at: string): FulfillmentOrder[] {
  const parts = plan.named?.length
    ? plan.named.map((location, i) => ({
        location,
        items: lines.filter((_, j) => j % plan.named!.length === i).map((line) => ({ line, quantity: line.quantity })),
      }))
    : splitByStock(lines, plan.locations, plan.stockAt);
  const type = plan.shippingType ?? 'ship';
  return parts.map(({ location, items }, i) => ({
    id: ulid(),
    number: String(i + 1),
    status: 'UNPACKED',
    assigned_location: { id: location.id, name: location.name },
    line_items: items.map(({ line, quantity }) => ({
      id: ulid(),
      quantity,
      order_line_item_id: line.id,
      variant_id: line.variant_id,
      product_id: line.product_id,
      unit_price: Number(line.price),
    })),
    tracking_info: null,
    shipping: {
      type,
      carrier: type === 'pickup' ? null : 'Correios',
      option: type === 'pickup' ? 'Retirada na loja' : 'PAC',
      merchant_cost: { value: 0, currency: 'BRL' },
      consumer_cost: money(plan.freights ? (plan.freights[i] ?? 0) : i === 0 ? plan.freight : 0),
    },
    recipient: plan.recipient,
    fulfilled_at: null,
    created_at: at,
    updated_at: at,
  }));
}

/**
 * A fulfillment order as `GET /orders/{id}/fulfillment-orders` answers it: the older shape of Tiendanube's mocks, or
 * the 2025-03 one (an order served in the 2025-03 shape has its fulfillment orders so too).
 */
export function servedFulfillmentOrder(fo: FulfillmentOrder, newShape: boolean): Record<string, unknown> {
  const totalQuantity = fo.line_items.reduce((sum, item) => sum + item.quantity, 0);
  const totalPrice = fo.line_items.reduce((sum, item) => sum + item.unit_price * item.quantity, 0);
  const common = {
    id: fo.id,
    number: fo.number,
    total_quantity: totalQuantity,
    total_price: money(totalPrice),
    recipient: structuredClone(fo.recipient),
    shipping: structuredClone(fo.shipping),
    status: fo.status,
    tracking_info: fo.tracking_info
      ? { url: fo.tracking_info.url, code: fo.tracking_info.code }
      : { url: null, code: null },
    fulfilled_at: fo.fulfilled_at,
    created_at: fo.created_at,
    updated_at: fo.updated_at,
  };
  if (!newShape) {
    return {
      ...common,
      assigned_location: { id: fo.assigned_location.id, name: fo.assigned_location.name },
      line_items: fo.line_items.map((item) => ({
        id: item.id,
        quantity: item.quantity,
        order_line_item_id: String(item.order_line_item_id),
        created_at: fo.created_at,
        updated_at: fo.updated_at,
      })),
    };
  }
  return {
    ...common,
    assigned_location: { location_id: fo.assigned_location.id, name: fo.assigned_location.name },
    line_items: fo.line_items.map((item) => ({
      id: item.id,
      external_id: String(item.order_line_item_id),
      quantity: item.quantity,
      variant: { variant_id: String(item.variant_id) },
      product: { product_id: String(item.product_id) },
      unit_price: money(item.unit_price),
      created_at: fo.created_at,
      updated_at: fo.updated_at,
    })),
    discounts: [],
    status_history: [],
    tracking_info_history: [],
    tracking_events: [],
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Statuses past which nothing about the shipment changes. */
const FINAL: readonly FulfillmentStatus[] = ['DELIVERED', 'CANCELLED'];
/** Statuses of a fulfillment order already sent. */
const SENT: readonly FulfillmentStatus[] = ['DISPATCHED', 'DELIVERED', 'NOT_DELIVERED', 'READY_FOR_PICKUP'];

/** What a PATCH refusal is built with: the store's own answers (400 for what the workflow refuses). */
export type Refuse = (status: 400 | 404 | 422, description: string) => unknown;

/**
 * `PATCH /orders/{id}/fulfillment-orders/{fo_id}`: `status` and/or `tracking_info {code, url, notify_customer}` (the
 * notification is a field of `tracking_info`, false unless told; a top-level `notify_customer` is no field and changes
 * nothing), and the assigned location while the shipment is not packed. Refused as the 2025-03 page says: an unknown
 * status (422), then with 400 what its workflow forbids (READY_FOR_PICKUP only for pickup, non-shippable only
 * DELIVERED, back to UNPACKED only from PACKED, nothing after DELIVERED or CANCELLED), the shipping, destination or
 * recipient of one already sent, and the location of one packed or sent.
 */
export function patchFulfillmentOrder(
  fo: FulfillmentOrder,
  body: Record<string, unknown>,
  context: { orderCancelled: boolean; locations: readonly ShippingLocation[]; now: string; refuse: Refuse },
): FulfillmentOrder {
  const { refuse } = context;
  if (body.status !== undefined && !FULFILLMENT_STATUSES.includes(body.status as FulfillmentStatus)) {
    throw refuse(422, `status must be one of ${FULFILLMENT_STATUSES.join(', ')}`);
  }
  if (body.tracking_info !== undefined && body.tracking_info !== null && !isObject(body.tracking_info)) {
    throw refuse(422, 'tracking_info must be an object');
  }
  const tracking = isObject(body.tracking_info) ? body.tracking_info : undefined;
  if (tracking) {
    for (const field of ['code', 'url'] as const) {
      if (tracking[field] !== undefined && tracking[field] !== null && typeof tracking[field] !== 'string') {
        throw refuse(422, `tracking_info.${field} must be a string`);
      }
    }
    // "notify_customer": mandatory, not nullable, "the default value is false".
    if (tracking.notify_customer !== undefined && typeof tracking.notify_customer !== 'boolean') {
      throw refuse(400, 'tracking_info.notify_customer must be a boolean');
    }
  }
  const wanted = body.status === undefined ? undefined : (body.status as FulfillmentStatus);
  if (context.orderCancelled && wanted && wanted !== 'CANCELLED') {
    throw refuse(400, 'The order is cancelled: its fulfillment orders cannot change status');
  }
  if (wanted && wanted !== fo.status) {
    if (FINAL.includes(fo.status)) throw refuse(400, `A ${fo.status} fulfillment order cannot change status`);
    if (wanted === 'UNPACKED' && fo.status !== 'PACKED') {
      throw refuse(400, 'It is possible to go back to UNPACKED only from PACKED status');
    }
  }
  // "READY_FOR_PICKUP applies only to the pickup Shipping Type, while non-shippable… expect only the DELIVERED status".
  if (wanted && fo.shipping.type === 'pickup' && ['DISPATCHED', 'NOT_DELIVERED'].includes(wanted)) {
    throw refuse(400, `${wanted} does not apply to the pickup Shipping Type`);
  }
  if (wanted && fo.shipping.type !== 'pickup' && wanted === 'READY_FOR_PICKUP') {
    throw refuse(400, 'READY_FOR_PICKUP applies only to the pickup Shipping Type');
  }
  if (wanted && fo.shipping.type === 'non-shippable' && !['DELIVERED', 'CANCELLED'].includes(wanted)) {
    throw refuse(400, 'A non-shippable fulfillment order expects only the DELIVERED status');
  }
  for (const part of ['destination', 'shipping', 'recipient'] as const) {
    if (body[part] !== undefined && SENT.includes(fo.status)) {
      throw refuse(400, `Fulfillment Order Already sent Cannot be Update ${part} Information`);
    }
  }
  let location: ShippingLocation | undefined;
  if (body.assigned_location !== undefined) {
    if (fo.status !== 'UNPACKED') {
      throw refuse(400, 'Fulfillment Order Already packed or sent Cannot be Update Assigned Location Information');
    }
    const given = isObject(body.assigned_location)
      ? (body.assigned_location.location_id ?? body.assigned_location.id)
      : undefined;
    location = context.locations.find((l) => l.id === given);
    if (!location) throw refuse(400, `The location ${String(given)} does not exist`);
  }

  (fo.patches ??= []).push(structuredClone(body));
  if (location) fo.assigned_location = { id: location.id, name: location.name };
  if (wanted) fo.status = wanted;
  if (tracking) {
    fo.tracking_info = {
      code: (tracking.code as string | undefined) ?? null,
      url: (tracking.url as string | undefined) ?? null,
      carrier: (tracking.carrier as string | undefined) ?? null,
    };
    fo.notified = tracking.notify_customer === true;
  }
  if (fo.status === 'DISPATCHED' || fo.status === 'DELIVERED') fo.fulfilled_at ??= context.now;
  fo.updated_at = context.now;
  return fo;
}
