import type http from 'node:http';
import type { StandInStore, StoreOrder } from '../tests/support/standins/nuvemshop-api';
import { escape, formOf, page, send } from './html';

export interface StorePageOptions {
  store: () => StandInStore;
  /**
   * Tells the product what happened to an order, as Nuvemshop does: a signed webhook to the gateway. Answers the
   * gateway's HTTP status, or undefined while the gateway is not up yet.
   */
  notify: (event: 'order/paid' | 'order/cancelled', orderId: number) => Promise<number | undefined>;
}

const STATUS: Record<string, string> = { open: 'aberto', closed: 'arquivado', cancelled: 'cancelado' };
const PAYMENT: Record<string, string> = {
  paid: 'pago',
  pending: 'pendente',
  refunded: 'reembolsado',
  voided: 'anulado',
};
const SHIPPING: Record<string, string> = { unpacked: 'a embalar', unshipped: 'a enviar', shipped: 'enviado' };
const money = (text: string) => Number(text).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * The demo store as a page: the products the Nuvemshop stand-in holds for it (`/`, refreshed every few seconds), each
 * variant with a "Comprar" button that places a paid order as a buyer would (its stock taken, the paid webhook posted
 * to the product), the store's orders with what the product wrote back (the NF-e, the shipment), and the same as the
 * API would answer them (`/products.json`, `/orders.json`).
 */
export function storePage({ store, notify }: StorePageOptions): http.RequestListener {
  const name = (languages: Record<string, string>) => languages.pt ?? Object.values(languages)[0] ?? '';

  const invoiceOf = (s: StandInStore, order: StoreOrder) =>
    s.metafields.find((m) => m.owner_resource === 'Order' && m.owner_id === order.id && m.key === 'key')?.value;

  /**
   * An order of a shirt (in the shop) and the black running shoe in size 42 (only in the warehouse): Nuvemshop splits
   * it into two fulfillment orders, and the product sends each to its location's Hiper.
   */
  const fromBothLocations = (s: StandInStore) => {
    const named = (product: string) => s.products.find((p) => name(p.name) === product);
    const shirt = named('Camiseta Básica Branca')?.variants[0];
    const shoe = named('Tênis de Corrida')?.variants.find((v) => v.values.map(name).join('/') === 'Preto/42');
    if (!shirt || !shoe || !shoe.stock || !shirt.stock || s.locations.length < 2) return '';
    return `<form method="post" action="/orders"><input type="hidden" name="variant" value="${shirt.id}"><input type="hidden" name="variant" value="${shoe.id}"><button>Comprar a camiseta e o tênis preto 42 (um pedido que sai da loja e do depósito)</button></form>`;
  };

  const render = (note = '', error = false) => {
    const s = store();
    const rows = s.products
      .flatMap((p) =>
        p.variants.map((v, i) => {
          const image = p.images.find((im) => im.id === v.image_id) ?? (i === 0 ? p.images[0] : undefined);
          // The stand-in's CDN addresses lead nowhere: the picture shown is the one the product was sent with.
          const src = image ? s.sentSrc.get(image.id) : undefined;
          const values = v.values.map(name).join(' / ');
          const label = `${name(p.name)}${values ? ` — ${values}` : ''}`;
          const buy =
            p.published && (v.stock === null || v.stock > 0)
              ? `<form method="post" action="/orders"><input type="hidden" name="variant" value="${v.id}"><button aria-label="Comprar ${escape(label)}">Comprar</button></form>`
              : '<span class="muted">esgotado</span>';
          // A stock typed in the store's own admin, not in Hiper: the nightly reconciliation finds it and puts Hiper's back.
          const adjust =
            v.stock === null
              ? ''
              : `<form method="post" action="/variants/${v.id}/stock"><input name="stock" type="number" min="0" step="1" value="${v.inventory_levels[0]?.stock ?? v.stock}" aria-label="Estoque de ${escape(label)} digitado na loja" style="width:5em"> <button aria-label="Ajustar o estoque de ${escape(label)} na loja">Ajustar</button></form>`;
          return `<tr>
  <td>${p.id}</td>
  <td>${src && /^https?:/.test(src) ? `<img src="${escape(src)}" alt="" width="40" height="40"> ` : ''}${escape(label)}</td>
  <td>${escape(v.sku)}</td>
  <td>${escape(v.price)}</td>
  <td>${v.stock === null ? 'ilimitado' : v.stock}</td>
  <td>${p.published ? 'sim' : 'não'}</td>
  <td>${p.images.length}</td>
  <td class="muted">${escape(v.updated_at)}</td>
  <td>${buy}</td>
  <td>${adjust}</td>
</tr>`;
        }),
      )
      .join('\n');
    const orders = [...s.orders]
      .reverse()
      .map((o) => {
        const invoice = invoiceOf(s, o);
        const cancel =
          o.status === 'cancelled'
            ? ''
            : `<form method="post" action="/orders/${o.id}/cancel"><button aria-label="Cancelar o pedido ${o.number}">Cancelar</button></form>`;
        return `<tr>
  <td>#${o.number}</td>
  <td>${escape(o.products.map((l) => `${l.quantity} × ${l.name}${l.variant_values.length ? ` (${l.variant_values.join(' / ')})` : ''}`).join(', '))}</td>
  <td>${money(o.total)}</td>
  <td>${escape(PAYMENT[o.payment_status] ?? o.payment_status)}</td>
  <td>${escape(STATUS[o.status] ?? o.status)}</td>
  <td>${escape(SHIPPING[o.shipping_status] ?? o.shipping_status)}</td>
  <td>${invoice ? `<span title="${escape(invoice)}">${escape(invoice.slice(0, 8))}…${escape(invoice.slice(-6))}</span>` : '—'}</td>
  <td>${cancel}</td>
</tr>`;
      })
      .join('\n');
    return page(
      'Loja de demonstração (Nuvemshop)',
      `<h1>${escape(name(s.info.name as Record<string, string>))} (Nuvemshop de demonstração)</h1>
<p class="muted">Os produtos que a integração escreveu nesta loja, uma linha por variante. "Comprar" faz um pedido pago
como um comprador faria; ele segue para o Hiper de demonstração. "Ajustar" muda o estoque como alguém o digitaria no
painel da loja, sem passar pelo Hiper: a reconciliação o encontra e devolve o do Hiper (Divergências). A página se atualiza a cada 5 s. JSON:
<a href="/products.json">/products.json</a>, <a href="/orders.json">/orders.json</a></p>
${note ? `<p class="note${error ? ' error' : ''}" role="status">${escape(note)}</p>` : ''}
${fromBothLocations(s)}
${
  rows
    ? `<div class="wrap"><table>
<thead><tr><th>Produto</th><th>Nome</th><th>SKU</th><th>Preço (R$)</th><th>Estoque</th><th>Publicado</th><th>Imagens</th><th>Alterado em</th><th></th><th>Estoque digitado na loja</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`
    : '<p class="note">Nenhum produto ainda: no admin, abra o menu do cliente de demonstração e escolha "Sincronizar agora".</p>'
}
<h2>Pedidos</h2>
${
  orders
    ? `<div class="wrap"><table>
<thead><tr><th>Pedido</th><th>Itens</th><th>Total</th><th>Pagamento</th><th>Situação</th><th>Envio</th><th>NF-e</th><th></th></tr></thead>
<tbody>
${orders}
</tbody></table></div>`
    : '<p class="muted">Nenhum pedido ainda.</p>'
}`,
      '<meta http-equiv="refresh" content="5">',
    );
  };

  const done = (res: http.ServerResponse, note: string) =>
    send(res, 303, 'text/plain; charset=utf-8', note, { Location: `/?nota=${encodeURIComponent(note)}` });
  const refused = (res: http.ServerResponse, note: string) =>
    send(res, 400, 'text/html; charset=utf-8', render(note, true));
  const told = (status: number | undefined) =>
    status === undefined
      ? 'a integração ainda não está no ar; a varredura de pedidos o encontrará'
      : status >= 200 && status < 300
        ? 'a integração foi avisada'
        : `a integração respondeu HTTP ${status}`;

  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://demo');
      const s = store();
      if (req.method === 'GET' && url.pathname === '/products.json') {
        const json = s.products.map((p) => s.productJson(p));
        return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(json, null, 2));
      }
      if (req.method === 'GET' && url.pathname === '/orders.json') {
        return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(s.orders, null, 2));
      }
      if (req.method === 'GET' && url.pathname === '/') {
        return send(res, 200, 'text/html; charset=utf-8', render(url.searchParams.get('nota') ?? ''));
      }
      if (req.method === 'POST' && url.pathname === '/orders') {
        // One unit of each variant named: one line, or several (an order that ships from two locations).
        const asked = (await formOf(req)).getAll('variant');
        const variants = asked.map((id) => s.products.flatMap((p) => p.variants).find((v) => v.id === Number(id)));
        const unknown = asked.find((_id, i) => !variants[i]);
        if (!asked.length || unknown !== undefined) return refused(res, `A loja não tem a variante ${unknown ?? ''}`);
        if (variants.some((v) => v!.stock !== null && v!.stock < 1)) return refused(res, 'Esta variante está esgotada');
        // A sale takes its units from the store's stock, as the store does.
        for (const v of variants) if (v!.stock !== null) v!.stock -= 1;
        const order = s.seedOrder({ lines: variants.map((v) => ({ variant: v!.id, quantity: 1 })) });
        const status = await notify('order/paid', order.id).catch(() => 0);
        return done(res, `Pedido #${order.number} pago (${money(order.total)}): ${told(status)}`);
      }
      const adjusted = /^\/variants\/(\d+)\/stock$/.exec(url.pathname);
      if (req.method === 'POST' && adjusted) {
        const product = s.products.find((p) => p.variants.some((v) => v.id === Number(adjusted[1])));
        const variant = product?.variants.find((v) => v.id === Number(adjusted[1]));
        if (!product || !variant) return refused(res, `A loja não tem a variante ${adjusted[1]}`);
        const typed = String((await formOf(req)).get('stock') ?? '').trim();
        if (!/^\d{1,6}$/.test(typed)) return refused(res, 'O estoque é um número inteiro de 0 a 999999');
        // Typed in the store's admin: its first location (the shop), as Nuvemshop's stock field does.
        s.applyVariantFields(product, variant, { stock: Number(typed) });
        return done(res, `Estoque de ${name(product.name)} na loja: ${typed}, digitado na loja e não no Hiper`);
      }
      const cancel = /^\/orders\/(\d+)\/cancel$/.exec(url.pathname);
      if (req.method === 'POST' && cancel) {
        const order = s.order(Number(cancel[1]));
        if (!order) return refused(res, `A loja não tem o pedido ${cancel[1]}`);
        if (order.status === 'cancelled') return done(res, `Pedido #${order.number} já estava cancelado`);
        s.changeOrder(order.id, {
          status: 'cancelled',
          cancelled_at: new Date().toISOString().replace(/\.\d{3}Z$/, '+0000'),
          cancel_reason: 'customer',
        });
        const status = await notify('order/cancelled', order.id).catch(() => 0);
        return done(res, `Pedido #${order.number} cancelado: ${told(status)}`);
      }
      send(res, 404, 'text/plain; charset=utf-8', 'Não encontrado');
    })().catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, 'text/plain; charset=utf-8', String((error as Error).message));
    });
  };
}
