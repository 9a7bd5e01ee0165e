import { boolean, datetime, id, int, json, reference, state, text, type Tone } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';

/**
 * An order's states: `received` (seen, not payable yet), `held` (waits for a person; `hold_reason` says why),
 * `sending`, `sent` (Hiper's id known), `processed`, `rejected` (Hiper processed it with an error), `invoiced` (NF-e
 * known and written to the store), `shipped`, `cancelled`, `uncertain` (a send whose outcome is unknown).
 */
export const ORDER_STATES = [
  'received',
  'held',
  'sending',
  'sent',
  'processed',
  'rejected',
  'invoiced',
  'shipped',
  'cancelled',
  'uncertain',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];
/** How screens colour an order's state: waiting on a person or unknown in amber, refused in red, done in green. */
const ORDER_TONES = {
  received: 'neutral',
  held: 'warning',
  sending: 'info',
  sent: 'success',
  processed: 'success',
  rejected: 'error',
  invoiced: 'success',
  shipped: 'success',
  cancelled: 'neutral',
  uncertain: 'warning',
} as const satisfies Record<OrderState, Tone>;

/** The states "Reenviar" is offered in: waiting for a person, refused by Hiper, or of unknown outcome. */
export const RESENDABLE_STATES = ['held', 'rejected', 'uncertain'] as const satisfies readonly OrderState[];
/** The states "Já está no Hiper" is offered in: a send whose outcome is unknown. */
export const MARKABLE_SENT_STATES = ['uncertain'] as const satisfies readonly OrderState[];

/** States as the API's descriptions name them: `held, rejected or uncertain`. */
export const statesText = (states: readonly string[]) =>
  states.length > 1 ? `${states.slice(0, -1).join(', ')} or ${states.at(-1)}` : states[0];

/** One line of an order, as shown: the store's SKU and name, and the Hiper product it maps to (null: no link). */
export interface OrderLine {
  sku: string | null;
  name: string;
  quantity: number;
  price: string;
  hiper_id: string | null;
}

/** One step of an order's history: when, the state it reached, and why. */
export interface OrderHistoryEntry {
  at: string;
  state: OrderState;
  note: string;
}

/**
 * A store's order on its way into the client's Hiper: one row per (client, Nuvemshop order id), written by the webhook
 * that announced it or the sweep that found it, and moved only by the product (never written through the API).
 */
export const orderResource = new Resource(
  'Order',
  {
    id: id(),
    client_id: reference('client', 'Client', { readOnly: true, listed: true, filterable: true, onDelete: 'restrict' }),
    nuvemshop_order_id: int({ min: 0, max: Number.MAX_SAFE_INTEGER, readOnly: true, description: 'Nuvemshop’s id' }),
    number: int({
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      nullable: true,
      readOnly: true,
      listed: true,
      description: 'The number the store shows its buyer (null until the order is read)',
    }),
    fulfillment_order_id: text({
      nullable: true,
      max: 64,
      readOnly: true,
      description: 'The shipment (fulfillment order) this row sends; null for a store with one location',
    }),
    location_id: reference('location', 'Location', {
      nullable: true,
      readOnly: true,
      listed: true,
      onDelete: 'set null',
      description: 'The location that ships it; null for a store with one location',
    }),
    state: state(ORDER_STATES, {
      default: 'received',
      readOnly: true,
      listed: true,
      filterable: true,
      tones: ORDER_TONES,
    }),
    hold_reason: text({ nullable: true, max: 1000, readOnly: true, listed: true, description: 'Why it waits' }),
    payment_status: text({ nullable: true, max: 16, readOnly: true, listed: true }),
    total: text({
      nullable: true,
      max: 20,
      readOnly: true,
      listed: true,
      display: 'money',
      description: 'Decimal text, e.g. 99.90',
    }),
    customer_name: text({ nullable: true, max: 255, readOnly: true, listed: true }),
    hiper_order_id: text({ nullable: true, max: 64, readOnly: true, description: 'The sales order’s id in Hiper' }),
    hiper_code: text({ nullable: true, max: 32, readOnly: true, listed: true, description: 'Hiper’s LV code' }),
    hiper_number: text({
      nullable: true,
      max: 32,
      readOnly: true,
      description:
        'The number its sales order has in Hiper (numeroPedidoDeVenda): the order’s, or {number}-{k} for one of several shipments',
    }),
    nfe_key: text({ nullable: true, max: 64, readOnly: true, description: 'The NF-e access key' }),
    tracking_code: text({ nullable: true, max: 128, readOnly: true }),
    last_error: text({ nullable: true, max: 2000, readOnly: true }),
    cancel_refused: boolean({
      default: false,
      readOnly: true,
      filterable: true,
      description: 'Hiper refused to cancel it after the store cancelled it: it waits for a person',
    }),
    lines: json({
      readOnly: true,
      display: 'table',
      items: {
        sku: text({ nullable: true }),
        name: text(),
        quantity: int(),
        price: text({ display: 'money', description: 'Decimal text, e.g. 49.95' }),
        hiper_id: text({ nullable: true, description: 'The Hiper product it maps to; null: no product link' }),
      },
      description: '[{sku, name, quantity, price, hiper_id}]',
    }),
    history: json({
      readOnly: true,
      display: 'timeline',
      items: { at: datetime(), state: state(ORDER_STATES, { tones: ORDER_TONES }), note: text() },
      description: '[{at, state, note}], oldest first',
    }),
    received_at: datetime({ readOnly: true, listed: true, sortable: true }),
    sent_at: datetime({ nullable: true, readOnly: true, listed: true }),
    updated_at: datetime({ readOnly: true }),
    // Bookkeeping of the product's own, answered but hidden from people: what `q` matches (the number, the buyer and
    // the SKUs in one text), the lease of a send under way, and how many of Hiper's events have been read.
    search_text: text({
      nullable: true,
      readOnly: true,
      searchable: true,
      hidden: true,
      description: 'What `q` matches: the number, the buyer and the SKUs',
    }),
    store_status: text({ nullable: true, max: 16, readOnly: true, description: 'The order’s status in the store' }),
    placed_at: datetime({ nullable: true, readOnly: true, description: 'When the buyer placed it' }),
    sending_since: datetime({
      nullable: true,
      readOnly: true,
      hidden: true,
      description: 'When its send to Hiper began',
    }),
    hiper_events_seen: int({ min: 0, max: 2 ** 31 - 1, default: 0, readOnly: true, hidden: true }),
    refused_digest: text({
      nullable: true,
      max: 64,
      readOnly: true,
      hidden: true,
      description: 'The digest of the sales order Hiper last refused: the same body is never posted again by itself',
    }),
    status_read_at: datetime({
      nullable: true,
      readOnly: true,
      hidden: true,
      description: 'When Hiper’s events of the order were last read',
    }),
    fulfil_refused_at: datetime({
      nullable: true,
      readOnly: true,
      hidden: true,
      description: 'When the store refused to fulfil the order (never asked again by itself)',
    }),
    cancel_requested_at: datetime({
      nullable: true,
      readOnly: true,
      hidden: true,
      description: 'When Hiper accepted to cancel the order, until its events confirm it',
    }),
  },
  {
    operations: ['list', 'get'],
    screen: 'pedidos',
    title: 'number',
    menu: 12,
    icon: 'List',
    unique: [['client_id', 'nuvemshop_order_id', 'fulfillment_order_id']],
    // "Reenviar" (held, rejected, uncertain) and "Já está no Hiper" (uncertain); the server refuses the others.
    actions: [
      { name: 'resend', mutation: 'resendOrder', only: { field: 'state', values: RESENDABLE_STATES } },
      { name: 'markSent', mutation: 'markOrderSent', only: { field: 'state', values: MARKABLE_SENT_STATES } },
    ],
    description: 'A store order on its way into Hiper, and the invoice and shipment back',
  },
);

export type OrderPublic = PublicOf<typeof orderResource.fields>;
