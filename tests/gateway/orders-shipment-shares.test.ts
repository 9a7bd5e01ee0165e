import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NuvemshopFulfillmentOrder, NuvemshopOrder } from '../../gateway/platforms/nuvemshop.shapes';
import { mapShipment } from '../../gateway/orders/shipment-mapping';
import { shipmentsOf } from '../../gateway/orders/shipments';

/**
 * The money of an order split into shipments, over random orders: the discount spread over every line of every
 * shipment, each shipment's payment its own lines and freight, and the shipments together the order's total to the
 * cent, whichever shape the store serves its fulfillment orders in.
 */
const cents = (value: unknown) => Math.round(Number(value) * 100);
const text = (c: number) => (c / 100).toFixed(2);

const anOrder = fc
  .record({
    lines: fc.array(
      fc.record({ price: fc.integer({ min: 1, max: 50_000 }), quantity: fc.integer({ min: 1, max: 6 }) }),
      { minLength: 1, maxLength: 6 },
    ),
    shipments: fc.integer({ min: 1, max: 3 }),
    discountShare: fc.double({ min: 0, max: 0.9, noNaN: true }),
    freights: fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 3, maxLength: 3 }),
    newShape: fc.boolean(),
    seed: fc.integer({ min: 0, max: 1000 }),
  })
  .map(({ lines, shipments, discountShare, freights, newShape, seed }) => {
    const subtotal = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
    const discount = Math.floor(subtotal * discountShare);
    const products = lines.map((l, i) => ({
      id: 7000 + i,
      product_id: 500 + i,
      variant_id: 900 + i,
      name: `Produto ${i}`,
      price: text(l.price),
      quantity: l.quantity,
      sku: String(3000 + i),
    }));
    const order = {
      id: 123456,
      number: 321,
      discount: text(discount),
      status: 'open',
      payment_status: 'paid',
      payment_details: { method: 'pix', installments: '1' },
      contact_identification: '52998224725',
      shipping_address: { city: 'Florianópolis', province: 'SC', address: 'Rua A', number: '1', zipcode: '88010000' },
      products,
      created_at: '2026-12-01T10:00:00+0000',
      updated_at: '2026-12-01T10:00:00+0000',
    } as NuvemshopOrder;
    // Each line to a shipment, some split over two, as the store may.
    const items: { line: number; quantity: number }[][] = Array.from({ length: shipments }, () => []);
    products.forEach((p, i) => {
      const k = (seed + i) % shipments;
      if (p.quantity > 1 && shipments > 1 && (seed + i) % 2 === 0) {
        items[k].push({ line: i, quantity: 1 });
        items[(k + 1) % shipments].push({ line: i, quantity: p.quantity - 1 });
      } else items[k].push({ line: i, quantity: p.quantity });
    });
    const fos = items
      .map((its, k) => ({
        id: `01FO${k}`,
        number: String(k + 1),
        status: 'UNPACKED',
        assigned_location: newShape ? { location_id: `L${k}`, name: `Estoque ${k}` } : { id: `L${k}`, name: `E ${k}` },
        line_items: its.map(({ line, quantity }) =>
          newShape
            ? { id: `I${line}`, external_id: String(products[line].id), quantity, variant: { variant_id: '0' } }
            : { id: `I${line}`, order_line_item_id: String(products[line].id), quantity },
        ),
        shipping: { type: 'ship', consumer_cost: { value: freights[k] / 100, currency: 'BRL' } },
      }))
      .filter((fo) => fo.line_items.length > 0);
    const freight = fos.reduce((sum, fo) => sum + cents(fo.shipping.consumer_cost.value), 0);
    order.total = text(subtotal - discount + freight);
    if (!newShape) order.shipping_cost_customer = text(freight);
    return { order, fos: fos as NuvemshopFulfillmentOrder[] };
  });

describe('an order’s shipments', () => {
  it('together make the order’s total to the cent, each paying its own lines and freight', () => {
    fc.assert(
      fc.property(anOrder, ({ order, fos }) => {
        const read = shipmentsOf(order, fos);
        if ('problem' in read) throw new Error(read.problem);
        const { shipments } = read;
        const links = new Map(order.products.map((p) => [Number(p.variant_id), `hiper-${p.variant_id}`]));
        const bodies = shipments.map((shipment) => {
          const mapping = mapShipment(order, shipments, shipment, {
            links,
            accountIds: null,
            locationName: shipment.locationName,
            paymentIds: { pix: 12 },
          });
          if (!('body' in mapping)) throw new Error(mapping.holds.join('; '));
          return mapping.body;
        });
        const paid = bodies.map((b) => cents(b.meiosDePagamento[0].valor));
        expect(paid.reduce((a, b) => a + b, 0)).toBe(cents(order.total));
        for (const body of bodies) {
          const units = body.itens.reduce((n, i) => n + i.quantidade, 0);
          const lines = body.itens.reduce((sum, i) => sum + cents(i.precoUnitarioLiquido) * i.quantidade, 0);
          // Hiper's check: payments equal the lines and the freight, within a cent a unit where no exact split exists.
          expect(
            Math.abs(lines + cents(body.valorDoFrete) - cents(body.meiosDePagamento[0].valor)),
          ).toBeLessThanOrEqual(units);
          for (const item of body.itens) expect(item.precoUnitarioLiquido).toBeGreaterThanOrEqual(0);
          expect(body.numeroPedidoDeVenda).toMatch(bodies.length > 1 ? /^321-[1-3]$/ : /^321$/);
        }
        expect(bodies.reduce((sum, b) => sum + cents(b.valorDoFrete), 0)).toBe(
          fos.reduce((sum, fo) => sum + cents((fo.shipping!.consumer_cost as { value: number }).value), 0),
        );
        // Every unit of every line is in exactly one shipment.
        for (const [i, line] of order.products.entries()) {
          const shipped = shipments.flatMap((s) => s.items.filter((item) => item.index === i));
          expect(shipped.reduce((n, item) => n + item.quantity, 0)).toBe(Number(line.quantity));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('that do not add up to the order’s lines are not sent, and say why', () => {
    const order = {
      id: 1,
      number: 10,
      total: '30.00',
      products: [{ id: 5, product_id: 1, variant_id: 2, name: 'A', price: '10.00', quantity: 3, sku: '1' }],
    } as NuvemshopOrder;
    const fo = (quantity: number, lineId = '5'): NuvemshopFulfillmentOrder => ({
      id: 'F',
      number: '1',
      status: 'UNPACKED',
      line_items: [{ id: 'I', order_line_item_id: lineId, quantity }],
    });
    expect(shipmentsOf(order, [fo(2)])).toEqual({
      problem: 'As remessas da loja não somam os itens do pedido: confira na Nuvemshop e use Reenviar',
    });
    expect(shipmentsOf(order, [fo(3, '99')])).toEqual({
      problem: 'A remessa 1 da loja tem um item que não está no pedido: confira na Nuvemshop e use Reenviar',
    });
  });
});
