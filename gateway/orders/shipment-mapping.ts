import type { NuvemshopOrder } from '../platforms/nuvemshop.shapes';
import {
  holdProduct,
  linesOf,
  money,
  orderParts,
  paymentHold,
  spreadDiscount,
  toCents,
  type HiperSalesOrderBody,
  type Mapping,
  type MappingContext,
} from './order-mapping';
import type { Shipment } from './shipments';
import { orderNotes } from '../../schema/staff-notes';

/**
 * The money of an order's shipments: each line's net unit price in cents (the order's discount spread over every line
 * of every shipment, as for an order sent whole), and each shipment's payment share (its lines and its freight). The
 * shares make the order's total to the cent; where the quantities make an exact split of the discount impossible,
 * what is left goes to the shipment of most units, as it would to the order's lines.
 */
export function shipmentShares(order: NuvemshopOrder, shipments: readonly Shipment[]) {
  const total = toCents(order.total);
  const freight = shipments.reduce((sum, s) => sum + s.freightCents, 0);
  const flat = shipments.flatMap((s) =>
    s.items.map((item) => ({ unitCents: toCents(item.line.price), quantity: item.quantity })),
  );
  const spread = spreadDiscount(flat, total - freight);
  let at = 0;
  const units = shipments.map((s) => s.items.map(() => spread[at++]));
  const shares = shipments.map(
    (s, k) => s.items.reduce((sum, item, j) => sum + units[k][j] * item.quantity, 0) + s.freightCents,
  );
  const left = total - shares.reduce((a, b) => a + b, 0);
  if (left !== 0 && shares.length > 0) {
    const count = (s: Shipment) => s.items.reduce((n, item) => n + item.quantity, 0);
    const most = shipments.reduce((best, s, k) => (count(s) > count(shipments[best]) ? k : best), 0);
    shares[most] += left;
  }
  return { units, shares };
}

/** What a shipment's mapping needs beyond the order's: where it goes. */
export interface ShipmentContext extends Omit<MappingContext, 'freightCents'> {
  /**
   * The Hiper product of each variant in the account that receives the shipment, when that is not the client's own
   * (each account has its own ids, matched by SKU); null: the client's account, whose ids are the links'.
   */
  accountIds: Map<number, string> | null;
  /** The name of the location whose account that is, as staff read it. */
  locationName: string | null;
}

/** The number a shipment's sales order takes: the order's for a single shipment, `{number}-{k}` among several. */
export const shipmentNumber = (order: NuvemshopOrder, shipments: readonly Shipment[], shipment: Shipment) =>
  shipments.length > 1 ? `${order.number}-${shipment.number}` : String(order.number);

/**
 * One shipment of a store order → the sales order of the account that ships it, or why it waits: its lines, its
 * freight and its share of the payment; the buyer, addresses and payment method as the order's.
 */
export function mapShipment(
  order: NuvemshopOrder,
  shipments: readonly Shipment[],
  shipment: Shipment,
  context: ShipmentContext,
): Mapping {
  const parts = orderParts(order, context);
  const holds = [...parts.holds];
  const lines = linesOf(shipment.items, context.links);
  const ids = context.accountIds ?? context.links;
  for (const [i, line] of lines.entries()) {
    const sku = line.sku ?? line.name;
    if (!line.hiper_id) holds.push(holdProduct(sku));
    else if (!ids.get(Number(shipment.items[i].line.variant_id))) {
      holds.push(orderNotes.product_missing_at_location(sku, context.locationName ?? '?'));
    }
  }
  if (lines.length === 0) holds.push(holdProduct('(nenhum item)'));
  const payment = paymentHold(order, parts);
  if (payment) holds.push(payment);
  if (holds.length > 0) return { lines, holds };

  const k = shipments.indexOf(shipment);
  const { units, shares } = shipmentShares(order, shipments);
  const numero = shipmentNumber(order, shipments, shipment);
  const body: HiperSalesOrderBody = {
    cliente: { documento: parts.documento!, ...parts.cliente },
    enderecoDeCobranca: parts.cobranca,
    enderecoDeEntrega: parts.entrega,
    itens: shipment.items.map((item, j) => ({
      produtoId: ids.get(Number(item.line.variant_id))!,
      quantidade: item.quantity,
      precoUnitarioBruto: money(toCents(item.line.price)),
      precoUnitarioLiquido: money(units[k][j]),
    })),
    meiosDePagamento: [{ idMeioDePagamento: parts.paymentId, parcelas: parts.parcelas, valor: money(shares[k]) }],
    numeroPedidoDeVenda: numero,
    observacaoDoPedidoDeVenda: `Nuvemshop #${numero} (id ${order.id})${parts.note ? ` — ${parts.note}` : ''}`,
    valorDoFrete: money(shipment.freightCents),
  };
  if (context.marketplace?.cnpj) {
    body.Marketplace = { Cnpj: context.marketplace.cnpj, Nome: context.marketplace.name };
  }
  return { lines, body, holds: [] };
}
