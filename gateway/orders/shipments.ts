import type { NuvemshopFulfillmentOrder, NuvemshopOrder, NuvemshopOrderLine } from '../platforms/nuvemshop.shapes';
import { consumerCostCents, toCents } from './order-mapping';
import { orderNotes } from '../../schema/staff-notes';

/** One shipment of an order (a fulfillment order), read in either of the store's shapes. */
export interface Shipment {
  /** The fulfillment order's id. */
  id: string;
  /** Its number as the store gives it (from 1), else its place among the order's. */
  number: string;
  /** The store location it is assigned to, and its name. */
  locationId: string | null;
  locationName: string | null;
  status: string;
  /** The freight the buyer paid for it, in cents. */
  freightCents: number;
  /** The order's lines it ships (a line may be split over shipments), in the order's order. */
  items: { line: NuvemshopOrderLine; index: number; quantity: number }[];
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value).trim());

/** The order lines a fulfillment order ships: its line items matched to the order's by line id, else by variant. */
function itemsOf(order: NuvemshopOrder, fo: NuvemshopFulfillmentOrder): Shipment['items'] | null {
  const products = order.products ?? [];
  const items: Shipment['items'] = [];
  for (const item of fo.line_items ?? []) {
    const lineId = text(item.order_line_item_id ?? item.external_id);
    const variantId = text(item.variant?.variant_id ?? item.variant_id);
    let index = lineId ? products.findIndex((p) => p.id !== undefined && String(p.id) === lineId) : -1;
    if (index < 0 && variantId) index = products.findIndex((p) => String(p.variant_id) === variantId);
    const quantity = Number(item.quantity);
    if (index < 0 || !Number.isInteger(quantity) || quantity <= 0) return null;
    const same = items.find((i) => i.index === index);
    if (same) same.quantity += quantity;
    else items.push({ line: products[index], index, quantity });
  }
  return items.sort((a, b) => a.index - b.index);
}

/** The numeric order of the shipments' numbers, then the store's own order. */
const byNumber = (a: { number: string; at: number }, b: { number: string; at: number }) => {
  const [x, y] = [Number(a.number), Number(b.number)];
  return Number.isFinite(x) && Number.isFinite(y) && x !== y ? x - y : a.at - b.at;
};

/**
 * An order's shipments from its fulfillment orders, first to last by number, or why they cannot be sent as they are
 * (a line item no order line matches, or shipments that do not add up to the order's lines). The freight is each
 * one's `shipping.consumer_cost`; an order that still says its freight itself (`shipping_cost_customer`, the older
 * shape) and whose shipments' sum differs has the difference on its first shipment, so that together they make the
 * order's total.
 */
export function shipmentsOf(
  order: NuvemshopOrder,
  fulfillmentOrders: readonly NuvemshopFulfillmentOrder[],
): { shipments: Shipment[] } | { problem: string } {
  const shipments: (Shipment & { at: number })[] = [];
  for (const [at, fo] of fulfillmentOrders.entries()) {
    const items = itemsOf(order, fo);
    if (!items) return { problem: orderNotes.shipment_unmatched(text(fo.number) || String(fo.id)) };
    shipments.push({
      id: String(fo.id),
      number: text(fo.number) || String(at + 1),
      locationId: text(fo.assigned_location?.location_id ?? fo.assigned_location?.id) || null,
      locationName: text(fo.assigned_location?.name) || null,
      status: text(fo.status),
      freightCents: consumerCostCents(fo.shipping),
      items,
      at,
    });
  }
  const products = order.products ?? [];
  const shipped = products.map((_, index) =>
    shipments.reduce((sum, s) => sum + s.items.filter((i) => i.index === index).reduce((n, i) => n + i.quantity, 0), 0),
  );
  if (shipments.length > 0 && products.some((line, index) => Number(line.quantity) !== shipped[index])) {
    return { problem: orderNotes.shipments_incomplete };
  }
  shipments.sort(byNumber);
  const said = order.shipping_cost_customer;
  if (shipments.length > 0 && said !== undefined && said !== null) {
    const sum = shipments.reduce((total, s) => total + s.freightCents, 0);
    shipments[0].freightCents += toCents(said) - sum;
  }
  return { shipments: shipments.map(({ at: _at, ...shipment }) => shipment) };
}
