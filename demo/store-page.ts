import type http from 'node:http';
import type { StandInStore } from '../tests/support/standins/nuvemshop-api';
import { escape, page, send } from './html';

/**
 * The demo store as a page: the products the Nuvemshop stand-in holds for it (`/`, refreshed every few seconds) and
 * the same as the API would answer them (`/products.json`).
 */
export function storePage(store: () => StandInStore): http.RequestListener {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://demo');
    if (req.method === 'GET' && url.pathname === '/products.json') {
      const s = store();
      return send(
        res,
        200,
        'application/json; charset=utf-8',
        JSON.stringify(
          s.products.map((p) => s.productJson(p)),
          null,
          2,
        ),
      );
    }
    if (req.method !== 'GET' || url.pathname !== '/')
      return send(res, 404, 'text/plain; charset=utf-8', 'Não encontrado');
    const s = store();
    const name = (languages: Record<string, string>) => languages.pt ?? Object.values(languages)[0] ?? '';
    const rows = s.products
      .flatMap((p) =>
        p.variants.map((v, i) => {
          const image = p.images.find((im) => im.id === v.image_id) ?? (i === 0 ? p.images[0] : undefined);
          // The stand-in's CDN addresses lead nowhere: the picture shown is the one the product was sent with.
          const src = image ? s.sentSrc.get(image.id) : undefined;
          const values = v.values.map(name).join(' / ');
          return `<tr>
  <td>${p.id}</td>
  <td>${src && /^https?:/.test(src) ? `<img src="${escape(src)}" alt="" width="40" height="40"> ` : ''}${escape(name(p.name))}${values ? ` — ${escape(values)}` : ''}</td>
  <td>${escape(v.sku)}</td>
  <td>${escape(v.price)}</td>
  <td>${v.stock === null ? 'ilimitado' : v.stock}</td>
  <td>${p.published ? 'sim' : 'não'}</td>
  <td>${p.images.length}</td>
  <td class="muted">${escape(v.updated_at)}</td>
</tr>`;
        }),
      )
      .join('\n');
    send(
      res,
      200,
      'text/html; charset=utf-8',
      page(
        'Loja de demonstração (Nuvemshop)',
        `<h1>${escape(name(s.info.name as Record<string, string>))} (Nuvemshop de demonstração)</h1>
<p class="muted">Os produtos que a integração escreveu nesta loja, uma linha por variante. A página se atualiza a cada
5 s. JSON: <a href="/products.json">/products.json</a></p>
${
  rows
    ? `<div class="wrap"><table>
<thead><tr><th>Produto</th><th>Nome</th><th>SKU</th><th>Preço (R$)</th><th>Estoque</th><th>Publicado</th><th>Imagens</th><th>Alterado em</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`
    : '<p class="note">Nenhum produto ainda: no admin, abra o menu do cliente de demonstração e escolha "Sincronizar agora".</p>'
}`,
        '<meta http-equiv="refresh" content="5">',
      ),
    );
  };
}
