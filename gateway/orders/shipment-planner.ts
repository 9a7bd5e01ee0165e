import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import type { LocationCatalogues } from '../locations/location-catalogue';
import { locationsOf } from '../locations/location-keys';
import { HiperKeyRefused } from '../platforms/hiper.client';
import type { NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { PermissionMissing } from '../platforms/nuvemshop.errors';
import type { NuvemshopOrder } from '../platforms/nuvemshop.shapes';
import { permissionMissingText } from '../platforms/nuvemshop-scopes';
import type { JobQueue } from '../queue/queue';
import { linesOf } from './order-mapping';
import { moveOrder, orderRow, type OrderRow } from './order-rows';
import { hiperOf, shipmentAccount, type SalesAccount } from './shipment-accounts';
import { shipmentNumber, shipmentShares } from './shipment-mapping';
import { splitIntoShipments, type OrderFields } from './shipment-rows';
import { shipmentsOf, type Shipment } from './shipments';
import { orderNotes } from '../../schema/staff-notes';

/** A shipment row on its way: the order's shipments, this one, the account it goes to and its share of the payment. */
export interface ShipmentPlan {
  shipments: Shipment[];
  shipment: Shipment;
  account: SalesAccount;
  /** Its share of the order's payment, decimal text. */
  total: string;
}

/** What the planner says of a row: its shipment's plan, or why it waits; null for a row sent whole, as before. */
export type Planned = { plan: ShipmentPlan } | { hold: string } | { gone: true } | { skip: string } | null;

/** Why a shipment whose store's fulfillment orders cannot be read waits. */
const holdShipments = (scope: string) =>
  `Remessas não lidas: ${permissionMissingText([scope])} (reinstale o app na loja para concedê-la e use Reenviar)`;

const decimal = (cents: number) => (cents / 100).toFixed(2);

/**
 * Which shipment an order row sends and where: a row of a client with several live locations is one of its order's
 * shipments (the first row split into one per fulfillment order the first time it is read), each into the Hiper account
 * of the location it is assigned to. A client with one location or none keeps one row per order, sent whole into its
 * own account.
 */
export class ShipmentPlanner {
  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly jobs: JobQueue,
    private readonly catalogues: LocationCatalogues,
  ) {}

  /** The plan of a row waiting to be sent (received or held), its order read from the store just now. */
  async plan(
    em: EntityManager,
    row: OrderRow,
    order: NuvemshopOrder,
    store: NuvemshopStoreClient,
    client: { id: string; key: string },
    links: Map<number, string>,
    fields: OrderFields,
  ): Promise<Planned> {
    const locations = await locationsOf(em, client.id, client.key);
    if (!row.fulfillment_order_id && locations.length <= 1) return null;
    let fulfillmentOrders = order.fulfillment_orders;
    try {
      fulfillmentOrders ??= await store.listFulfillmentOrders(order.id);
    } catch (error) {
      if (!(error instanceof PermissionMissing)) throw error;
      return { hold: holdShipments(error.scope ?? 'read_fulfillment_orders') };
    }
    // A store that names no shipment has the order sent whole, as before.
    if (!row.fulfillment_order_id && fulfillmentOrders.length === 0) return null;
    const read = shipmentsOf(order, fulfillmentOrders);
    if ('problem' in read) return { hold: read.problem };
    const { shipments } = read;
    const { shares } = shipmentShares(order, shipments);
    const accounts = shipments.map((s) => shipmentAccount(client.id, locations, s.locationId, client.key));
    let shipmentId = row.fulfillment_order_id;
    if (!shipmentId) {
      await splitIntoShipments(
        em,
        this.jobs,
        row.id,
        fields,
        shipments.map((shipment, k) => ({
          shipment,
          locationId: accounts[k].locationId,
          lines: linesOf(shipment.items, links),
          total: decimal(shares[k]),
          hiperNumber: shipmentNumber(order, shipments, shipment),
        })),
      );
      // Split now, or by another worker a moment before: the row is the shipment it now names.
      const now = await orderRow(em, row.id);
      if (!now?.fulfillment_order_id) return { skip: `the order is ${now?.state ?? 'gone'}` };
      shipmentId = now.fulfillment_order_id;
      row.location_id = now.location_id;
    }
    const k = shipments.findIndex((s) => s.id === shipmentId);
    if (k < 0) return { gone: true };
    // The store may assign a shipment not yet sent to another location: the row follows it.
    if (accounts[k].locationId !== row.location_id) {
      await moveOrder(em, row.id, { location_id: accounts[k].locationId });
    }
    await moveOrder(em, row.id, { total: decimal(shares[k]) });
    return { plan: { shipments, shipment: shipments[k], account: accounts[k], total: decimal(shares[k]) } };
  }

  /**
   * The product ids of a shipment's variants in the account it goes to, when that is a location's own (matched by
   * SKU); null for the client's account, whose ids are the links'. A key the account refuses holds the shipment.
   */
  async accountIds(plan: ShipmentPlan): Promise<{ ids: Map<number, string> | null } | { hold: string }> {
    const { account, shipment } = plan;
    if (!account.own || !account.locationId) return { ids: null };
    const skus = shipment.items.map((item) => item.line.sku ?? '').filter(Boolean);
    let bySku: Map<string, string>;
    try {
      bySku = await this.catalogues.idsFor(account.locationId, hiperOf(this.orm, this.config, account), skus);
    } catch (error) {
      if (error instanceof HiperKeyRefused)
        return { hold: orderNotes.location_key_refused(account.locationName ?? '?') };
      throw error;
    }
    const ids = new Map<number, string>();
    for (const item of shipment.items) {
      const id = item.line.sku ? bySku.get(item.line.sku) : undefined;
      if (id) ids.set(Number(item.line.variant_id), id);
    }
    return { ids };
  }
}
