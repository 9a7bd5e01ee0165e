import type http from 'node:http';
import { ZERO_GUID, type HiperAccount, type HiperProduct } from '../tests/support/standins/hiper';
import { PICTURES, picturePng } from './catalogue';
import { escape, formOf, page, send } from './html';

export interface ErpPageOptions {
  account: HiperAccount;
  /** How often the gateway reads the sales orders' events, to tell the visitor when an NF-e reaches the store. */
  ordersIntervalSeconds: number;
  /** How often the gateway runs stock runs, to tell the visitor when a change reaches the store. */
  stockIntervalSeconds: number;
  /** The demo store's page, linked from this one. */
  storePage: () => string;
}

/** A price as the ERP takes it: `39.90` or `39,90`, above zero, at most two decimals. */
function price(text: string): number | undefined {
  const value = text.trim().replace(',', '.');
  return /^\d{1,7}(\.\d{1,2})?$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/** A stock: a whole number from 0. */
function stock(text: string): number | undefined {
  const value = text.trim();
  return /^\d{1,7}$/.test(value) ? Number(value) : undefined;
}

/** Hiper's sales order events the demo ERP records (the codes the product reads). */
const NFE_ISSUED = 3;
const HANDED_TO_CARRIER = 4;
const EVENT_NAMES: Record<number, string> = {
  1: 'em processamento',
  2: 'separação de estoque',
  3: 'NF-e emitida',
  4: 'entregue à transportadora',
  99: 'cancelado',
};

/** A well-formed NF-e access key for a demo order: 43 digits from the order's code, then the check digit (módulo 11). */
function nfeKey(code: string): string {
  const digits = `4226110000000000000155550010000${code.replace(/\D/g, '').padStart(8, '0')}1234`.slice(0, 43);
  let sum = 0;
  for (let i = 0; i < 43; i++) sum += Number(digits[42 - i]) * (2 + (i % 8));
  const rest = sum % 11;
  return digits + (rest < 2 ? 0 : 11 - rest);
}

const money = (value: number) => value.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * The demo ERP: the Hiper stand-in's account as a page where a visitor changes a price, a stock or whether a product is
 * active, and adds a product. Each change takes a new synchronisation point, as Hiper's own changes do. Forms post to
 * `/products/{codigo}` and `/products`, so `curl -d preco=39.90 {origin}/products/1001` does the same.
 */
export function erpPage({
  account,
  stockIntervalSeconds,
  ordersIntervalSeconds,
  storePage,
}: ErpPageOptions): http.RequestListener {
  const products = () =>
    account.products.filter((p) => p.produtoPrimarioId === ZERO_GUID).sort((a, b) => a.codigo - b.codigo);

  const salesOrders = () => {
    if (!account.orders.length) return '<p class="muted">Nenhum pedido de venda ainda: compre algo na loja.</p>';
    const rows = [...account.orders]
      .reverse()
      .map((o) => {
        const items = ((o.body.itens ?? []) as { produtoId?: string; quantidade?: number }[])
          .map((item) => {
            const product = account.products.find((p) => p.id === item.produtoId);
            return `${item.quantidade ?? 1} × ${product ? product.nome : (item.produtoId ?? '?')}`;
          })
          .join(', ');
        const did = (code: number) => o.eventos.some((e) => e.codigoDoTipoDeEvento === code);
        const action = (path: string, label: string) =>
          `<form method="post" action="/orders/${encodeURIComponent(o.id)}/${path}"><button aria-label="${escape(`${label} do pedido ${o.codigo}`)}">${escape(label)}</button></form>`;
        const next = o.cancelado
          ? '<span class="muted">cancelado</span>'
          : !did(NFE_ISSUED)
            ? action('nfe', 'Emitir NF-e')
            : !did(HANDED_TO_CARRIER)
              ? action('shipment', 'Entregar à transportadora')
              : '<span class="muted">entregue à transportadora</span>';
        const events = o.eventos.map((e) => EVENT_NAMES[e.codigoDoTipoDeEvento] ?? `evento ${e.codigoDoTipoDeEvento}`);
        return `<tr>
  <td>${escape(o.codigo)}</td>
  <td>${escape(o.body.numeroPedidoDeVenda ?? '')}</td>
  <td>${escape(o.body.cliente?.nomeDoCliente ?? o.body.cliente?.nome ?? '')}</td>
  <td>${escape(items)}</td>
  <td>${escape(events.join(', ') || 'recebido')}</td>
  <td>${next}</td>
</tr>`;
      })
      .join('\n');
    return `<div class="wrap"><table>
<thead><tr><th>Código</th><th>Pedido na loja</th><th>Cliente</th><th>Itens</th><th>Eventos</th><th></th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`;
  };

  const render = (note = '', error = false) => {
    const rows = products()
      .map((p) => {
        // Inputs name their row's form: a form cannot sit between a table's rows and cells.
        const f = `p${p.codigo}`;
        const stockCell = p.variacao
          ? p.variacao
              .map(
                (v) =>
                  `<label>${escape([v.nomeVariacaoA, v.nomeVariacaoB].filter(Boolean).join(' / '))} ` +
                  `<input type="text" inputmode="numeric" form="${f}" name="estoque:${escape(v.id)}" value="${v.quantidadeEmEstoque}"></label>`,
              )
              .join('<br>')
          : `<input type="text" inputmode="numeric" form="${f}" name="estoque" value="${p.quantidadeEmEstoque}" aria-label="Estoque de ${escape(p.nome)}">`;
        return `<tr>
  <td>${p.codigo}</td>
  <td>${p.imagem ? `<img src="${escape(p.imagem)}" alt="" width="40" height="40"> ` : ''}${escape(p.nome)}${p.grade ? ' <span class="muted">(grade)</span>' : ''}</td>
  <td><input type="text" inputmode="decimal" form="${f}" name="preco" value="${p.preco.toFixed(2)}" aria-label="Preço de ${escape(p.nome)}"></td>
  <td>${stockCell}</td>
  <td><input type="hidden" form="${f}" name="ativo" value="0"><input type="checkbox" form="${f}" name="ativo" value="1"${p.ativo ? ' checked' : ''} aria-label="${escape(p.nome)} ativo"></td>
  <td><form id="${f}" method="post" action="/products/${p.codigo}"><button>Salvar</button></form></td>
  <td class="muted">${p.pontoDeSincronizacao}</td>
</tr>`;
      })
      .join('\n');
    return page(
      'ERP de demonstração (Hiper)',
      `<h1>ERP de demonstração (Hiper)</h1>
<p class="muted">O catálogo que o Hiper de demonstração entrega à integração. Mudanças de preço e estoque chegam à
<a href="${escape(storePage())}">loja de demonstração</a> na próxima sincronização de estoque (a cada
${stockIntervalSeconds} s); um produto novo, na próxima sincronização de catálogo ("Sincronizar agora" no admin).</p>
${note ? `<p class="note${error ? ' error' : ''}" role="status">${escape(note)}</p>` : ''}
<div class="wrap"><table>
<thead><tr><th>Código</th><th>Produto</th><th>Preço (R$)</th><th>Estoque</th><th>Ativo</th><th></th><th>Ponto de sincronização</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
<h2>Novo produto</h2>
<form method="post" action="/products">
  <label>Nome <input type="text" name="nome" required maxlength="120"></label>
  <label>Preço (R$) <input type="text" inputmode="decimal" name="preco" required></label>
  <label>Estoque <input type="text" inputmode="numeric" name="estoque" value="0"></label>
  <button>Adicionar</button>
</form>
<h2>Pedidos de venda</h2>
<p class="muted">Os pedidos pagos da loja que a integração trouxe. "Emitir NF-e" e "Entregar à transportadora" são os
eventos que o Hiper registra; a integração os lê a cada ${ordersIntervalSeconds} s e os escreve na loja.</p>
${salesOrders()}
<p class="muted">JSON: <a href="/products.json">/products.json</a>, <a href="/orders.json">/orders.json</a></p>`,
    );
  };

  const saved = (res: http.ServerResponse, note: string) =>
    send(res, 303, 'text/plain; charset=utf-8', note, { Location: `/?nota=${encodeURIComponent(note)}` });
  const refused = (res: http.ServerResponse, note: string) =>
    send(res, 400, 'text/html; charset=utf-8', render(note, true));

  const change = (product: HiperProduct, form: URLSearchParams): string | string[] => {
    const done: string[] = [];
    if (form.has('preco')) {
      const value = price(form.get('preco')!);
      if (value === undefined) return `Preço inválido: "${form.get('preco')}" (use, por exemplo, 39,90)`;
      if (value !== product.preco) {
        account.change(product.codigo, { preco: value });
        done.push(`preço ${money(value)}`);
      }
    }
    const stocks: [string | number, string, string][] = product.variacao
      ? product.variacao
          .filter((v) => form.has(`estoque:${v.id}`))
          .map((v) => [
            v.id,
            form.get(`estoque:${v.id}`)!,
            [v.nomeVariacaoA, v.nomeVariacaoB].filter(Boolean).join(' / '),
          ])
      : form.has('estoque')
        ? [[product.codigo, form.get('estoque')!, '']]
        : [];
    for (const [id, text, name] of stocks) {
      const value = stock(text);
      if (value === undefined) return `Estoque inválido: "${text}" (um número inteiro a partir de 0)`;
      const current = product.variacao
        ? product.variacao.find((v) => v.id === id)!.quantidadeEmEstoque
        : product.quantidadeEmEstoque;
      if (value !== current) {
        account.setStock(id, value);
        done.push(`estoque ${name ? `${name} ` : ''}${value}`);
      }
    }
    if (form.has('ativo')) {
      const active = form.getAll('ativo').at(-1) !== '0';
      if (active !== product.ativo) {
        account.change(product.codigo, { ativo: active });
        done.push(active ? 'ativo' : 'inativo');
      }
    }
    return done;
  };

  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://demo');
      if (req.method === 'GET' && url.pathname === '/') {
        return send(res, 200, 'text/html; charset=utf-8', render(url.searchParams.get('nota') ?? ''));
      }
      if (req.method === 'GET' && url.pathname === '/products.json') {
        return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(products(), null, 2));
      }
      const picture = /^\/images\/([\w-]+)\.png$/.exec(url.pathname);
      if (req.method === 'GET' && picture && PICTURES[picture[1]]) {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'max-age=3600' });
        return void res.end(picturePng(PICTURES[picture[1]]));
      }
      const xml = /^\/nfe\/(\d{44})\.xml$/.exec(url.pathname);
      if (req.method === 'GET' && xml) {
        const body = `<?xml version="1.0" encoding="UTF-8"?>\n<nfeProc><protNFe><infProt><chNFe>${xml[1]}</chNFe></infProt></protNFe></nfeProc>\n`;
        return send(res, 200, 'application/xml; charset=utf-8', body);
      }
      if (req.method === 'GET' && url.pathname === '/orders.json') {
        return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(account.orders, null, 2));
      }
      const event = /^\/orders\/([^/]+)\/(nfe|shipment)$/.exec(url.pathname);
      if (req.method === 'POST' && event) {
        const order = account.orders.find((o) => o.id === decodeURIComponent(event[1]));
        if (!order) return refused(res, `O ERP não tem o pedido de venda ${decodeURIComponent(event[1])}`);
        if (order.cancelado) return refused(res, `O pedido ${order.codigo} está cancelado`);
        if (event[2] === 'nfe') {
          if (order.eventos.some((e) => e.codigoDoTipoDeEvento === NFE_ISSUED))
            return saved(res, `Pedido ${order.codigo}: a NF-e já foi emitida`);
          const key = nfeKey(order.codigo);
          account.addOrderEvent(order.id, NFE_ISSUED, {
            chaveDocumentoFiscal: key,
            tipoDocumentoFiscal: 'NFe',
            urlArquivoXml: `${new URL('/', `http://${req.headers.host ?? '127.0.0.1'}`).href}nfe/${key}.xml`,
          });
          return saved(res, `Pedido ${order.codigo}: NF-e ${key} emitida`);
        }
        if (!order.eventos.some((e) => e.codigoDoTipoDeEvento === NFE_ISSUED))
          return refused(res, `Pedido ${order.codigo}: emita a NF-e antes de entregar à transportadora`);
        if (!order.eventos.some((e) => e.codigoDoTipoDeEvento === HANDED_TO_CARRIER))
          account.addOrderEvent(order.id, HANDED_TO_CARRIER);
        return saved(res, `Pedido ${order.codigo}: entregue à transportadora`);
      }
      const one = /^\/products\/(\d+)$/.exec(url.pathname);
      if (req.method === 'POST' && (one || url.pathname === '/products')) {
        const form = await formOf(req);
        if (one) {
          const product = products().find((p) => p.codigo === Number(one[1]));
          if (!product) return refused(res, `O ERP não tem o produto ${one[1]}`);
          const outcome = change(product, form);
          if (typeof outcome === 'string') return refused(res, outcome);
          return saved(res, outcome.length ? `${product.nome}: ${outcome.join(', ')}` : `${product.nome}: nada mudou`);
        }
        const nome = (form.get('nome') ?? '').trim();
        const value = price(form.get('preco') ?? '');
        const units = stock(form.get('estoque') || '0');
        if (!nome || nome.length > 120) return refused(res, 'Dê um nome ao produto (até 120 caracteres)');
        if (value === undefined) return refused(res, `Preço inválido: "${form.get('preco') ?? ''}"`);
        if (units === undefined) return refused(res, `Estoque inválido: "${form.get('estoque')}"`);
        const added = account.add({ nome, preco: value, quantidadeEmEstoque: units, categoria: 'Novidades' });
        return saved(res, `${added.nome}: adicionado com o código ${added.codigo}`);
      }
      send(res, 404, 'text/plain; charset=utf-8', 'Não encontrado');
    })().catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, 'text/plain; charset=utf-8', String((error as Error).message));
    });
  };
}
