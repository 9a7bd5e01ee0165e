import type { NuvemshopOrder, NuvemshopOrderLine } from '../platforms/nuvemshop.shapes';
import type { OrderLine } from './order.resource';
import { buyerDocument } from './buyer-document';
import { ibgeCode } from './ibge';

/** A sales order as Hiper's `POST /pedido-de-venda/` takes it. */
export interface HiperSalesOrderBody {
  cliente: { documento: string; email: string; inscricaoEstadual: string; nomeDoCliente: string; nomeFantasia: string };
  enderecoDeCobranca: HiperAddress;
  enderecoDeEntrega: HiperAddress;
  itens: { produtoId: string; quantidade: number; precoUnitarioBruto: number; precoUnitarioLiquido: number }[];
  meiosDePagamento: { idMeioDePagamento: number; parcelas: number; valor: number }[];
  numeroPedidoDeVenda: string;
  observacaoDoPedidoDeVenda: string;
  valorDoFrete: number;
  Marketplace?: { Cnpj: string; Nome: string };
}

export interface HiperAddress {
  bairro: string;
  cep: string;
  codigoIbge: number;
  complemento: string;
  logradouro: string;
  numero: string;
}

/** What the mapping needs beyond the order: the client's links and settings. */
export interface MappingContext {
  /** Nuvemshop variant id → the Hiper product (or variation) id it was linked to. */
  links: Map<number, string>;
  /** `payment_details.method` → Hiper `idMeioDePagamento`. */
  paymentIds: Record<string, number>;
  marketplace?: { cnpj: string; name: string } | null;
  /**
   * The freight in cents when the order itself does not say it (the 2025-03 Order API keeps it on the fulfillment
   * orders): the sum of their `shipping.consumer_cost`.
   */
  freightCents?: number;
}

/** The order as Hiper should receive it, or the reasons it must wait for a person (exact texts staff read). */
export type Mapping = { lines: OrderLine[] } & ({ body: HiperSalesOrderBody; holds: [] } | { holds: string[] });

export const HOLD_DOCUMENT = 'CPF/CNPJ ausente ou inválido';
export const holdCity = (city: string, province: string) => `Município sem código IBGE: ${city}/${province}`;
export const holdProduct = (sku: string) => `Produto sem vínculo: ${sku}`;
export const holdPayment = (method: string) => `Meio de pagamento sem código no Hiper: ${method}`;

/** Decimal text (`"19.90"`) → cents. */
export const toCents = (value: unknown) => Math.round((Number(value) || 0) * 100);
export const money = (cents: number) => Math.round(cents) / 100;

/** A fulfillment order's freight in cents: `{value, currency}` as the 2025-03 pages show it, or a plain amount. */
export function consumerCostCents(shipping: { consumer_cost?: unknown } | null | undefined): number {
  const cost = shipping?.consumer_cost;
  const value = cost && typeof cost === 'object' ? (cost as { value?: unknown }).value : cost;
  return toCents(value);
}

/**
 * Net unit prices in cents: whatever makes the lines' net total equal `netTotal` (the order's discount, or a
 * surcharge) spread over the lines in proportion to their gross totals, the remainder on the last line. Where the
 * quantities make an exact split impossible the lines come within one cent per unit.
 */
export function spreadDiscount(lines: { unitCents: number; quantity: number }[], netTotal: number): number[] {
  const gross = lines.map((l) => l.unitCents * l.quantity);
  const grossTotal = gross.reduce((a, b) => a + b, 0);
  if (lines.length === 0) return [];
  if (grossTotal === 0) return lines.map(() => 0);
  const discount = grossTotal - netTotal;
  const lineNet = gross.map((g) => g - Math.round((discount * g) / grossTotal));
  lineNet[lineNet.length - 1] = netTotal - lineNet.slice(0, -1).reduce((a, b) => a + b, 0);
  const units = lineNet.map((net, i) => Math.max(0, Math.round(net / lines[i].quantity)));
  let error = netTotal - units.reduce((sum, u, i) => sum + u * lines[i].quantity, 0);
  // What is left goes first to a line of one unit (exact), then in whole units to others, last line first.
  const single = lines.findIndex((l) => l.quantity === 1);
  if (error !== 0 && single >= 0 && units[single] + error >= 0) {
    units[single] += error;
    error = 0;
  }
  for (let i = lines.length - 1; i >= 0 && error !== 0; i--) {
    const step = Math.trunc(error / lines[i].quantity);
    if (step === 0 || units[i] + step < 0) continue;
    units[i] += step;
    error -= step * lines[i].quantity;
  }
  return units;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value).trim());

/** What every sales order of a store order shares: the buyer, the addresses and the payment, or why it waits. */
export interface OrderParts {
  holds: string[];
  documento: string | null;
  cliente: Omit<HiperSalesOrderBody['cliente'], 'documento'>;
  cobranca: HiperAddress;
  entrega: HiperAddress;
  paymentId: number;
  parcelas: number;
  note: string;
}

/** The buyer, the addresses and the payment of a store order; the holds in the order staff read them. */
export function orderParts(order: NuvemshopOrder, context: Pick<MappingContext, 'paymentIds'>): OrderParts {
  const holds: string[] = [];
  // Without the `read_customers` scope there is no `customer`: the order's own contact_identification says it.
  const documento =
    buyerDocument(order.customer?.identification) ?? buyerDocument(order.contact_identification) ?? null;
  if (!documento) holds.push(HOLD_DOCUMENT);

  const shipping = order.shipping_address ?? {};
  const shippingCode = ibgeCode(shipping.city, shipping.province);
  if (!shippingCode) holds.push(holdCity(text(shipping.city), text(shipping.province)));
  const entrega: HiperAddress = {
    bairro: text(shipping.locality),
    cep: text(shipping.zipcode).replace(/\D/g, ''),
    codigoIbge: shippingCode ?? 0,
    complemento: text(shipping.floor),
    logradouro: text(shipping.address),
    numero: text(shipping.number),
  };
  // Billing falls back to the shipping address when the order has none of its own.
  let cobranca = entrega;
  if (order.billing_address && order.billing_city) {
    const billingCode = ibgeCode(order.billing_city, order.billing_province);
    if (!billingCode) {
      const hold = holdCity(text(order.billing_city), text(order.billing_province));
      if (!holds.includes(hold)) holds.push(hold);
    }
    cobranca = {
      bairro: text(order.billing_locality),
      cep: text(order.billing_zipcode).replace(/\D/g, ''),
      codigoIbge: billingCode ?? 0,
      complemento: text(order.billing_floor),
      logradouro: text(order.billing_address),
      numero: text(order.billing_number),
    };
  }
  const name = text(order.customer?.name) || text(order.contact_name) || text(shipping.name);
  // A company buyer is named by its legal name, with its trade name and state registration (IE) beside it.
  const company = order.billing_customer_type === 'company' || documento?.length === 14;
  return {
    holds,
    documento,
    cliente: {
      email: text(order.customer?.email) || text(order.contact_email),
      inscricaoEstadual: company ? text(order.billing_state_registration) : '',
      nomeDoCliente: (company && text(order.billing_business_name)) || name,
      nomeFantasia: company ? text(order.billing_trade_name) : '',
    },
    cobranca,
    entrega,
    paymentId: context.paymentIds[text(order.payment_details?.method) || 'desconhecido'],
    parcelas: Math.max(1, Math.trunc(Number(order.payment_details?.installments) || 1)),
    note: text(order.note),
  };
}

/** The hold of an order whose payment method has no Hiper id, if it has none. */
export const paymentHold = (order: NuvemshopOrder, parts: OrderParts) =>
  Number.isInteger(parts.paymentId) ? null : holdPayment(text(order.payment_details?.method) || 'desconhecido');

/** The lines of an order (or of one of its shipments), as shown, with the Hiper product each was linked to. */
export function linesOf(items: { line: NuvemshopOrderLine; quantity: number }[], links: Map<number, string>) {
  return items.map(({ line, quantity }): OrderLine => {
    const linked = links.get(Number(line.variant_id));
    return {
      sku: line.sku ?? null,
      name: line.name,
      quantity,
      price: (toCents(line.price) / 100).toFixed(2),
      hiper_id: linked ?? null,
    };
  });
}

/** A store order → Hiper's sales order, or the reasons it waits for a person. */
export function mapOrder(order: NuvemshopOrder, context: MappingContext): Mapping {
  const parts = orderParts(order, context);
  const holds = [...parts.holds];
  const products = order.products ?? [];
  const lines = linesOf(
    products.map((line) => ({ line, quantity: Number(line.quantity) })),
    context.links,
  );
  for (const line of lines) {
    if (!line.hiper_id) holds.push(holdProduct(line.sku ?? line.name));
  }
  if (lines.length === 0) holds.push(holdProduct('(nenhum item)'));
  const payment = paymentHold(order, parts);
  if (payment) holds.push(payment);

  if (holds.length > 0) return { lines, holds };

  const total = toCents(order.total);
  const freight =
    order.shipping_cost_customer === undefined || order.shipping_cost_customer === null
      ? (context.freightCents ?? 0)
      : toCents(order.shipping_cost_customer);
  const units = spreadDiscount(
    lines.map((l) => ({ unitCents: toCents(l.price), quantity: l.quantity })),
    total - freight,
  );
  const body: HiperSalesOrderBody = {
    cliente: { documento: parts.documento!, ...parts.cliente },
    enderecoDeCobranca: parts.cobranca,
    enderecoDeEntrega: parts.entrega,
    itens: lines.map((l, i) => ({
      produtoId: l.hiper_id!,
      quantidade: l.quantity,
      precoUnitarioBruto: money(toCents(l.price)),
      precoUnitarioLiquido: money(units[i]),
    })),
    meiosDePagamento: [{ idMeioDePagamento: parts.paymentId, parcelas: parts.parcelas, valor: money(total) }],
    numeroPedidoDeVenda: String(order.number),
    observacaoDoPedidoDeVenda: `Nuvemshop #${order.number} (id ${order.id})${parts.note ? ` — ${parts.note}` : ''}`,
    valorDoFrete: money(freight),
  };
  if (context.marketplace?.cnpj) {
    body.Marketplace = { Cnpj: context.marketplace.cnpj, Nome: context.marketplace.name };
  }
  return { lines, body, holds: [] };
}
