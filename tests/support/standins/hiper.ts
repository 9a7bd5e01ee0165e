import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from './listen';

/**
 * A stand-in for Hiper's "Loja virtual" API (`{base}/auth/gerar-token/{key}`,
 * `{base}/produtos/pontoDeSincronizacao?pontoDeSincronizacao={cursor}`, and the sales orders: `POST /pedido-de-venda/`,
 * `GET /pedido-de-venda/eventos/{id}`, `PUT /pedido-de-venda/cancelar/{id}`), with the answers the real one gives.
 * Behaviour not yet confirmed against the real platform is an option.
 */

export const ZERO_GUID = '00000000-0000-0000-0000-000000000000';
const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

export interface HiperVariation {
  id: string;
  codigo: number;
  codigoDeBarras: string | null;
  nomeVariacaoA: string | null;
  tipoVariacaoA: string | null;
  nomeVariacaoB: string | null;
  tipoVariacaoB: string | null;
  quantidadeEmEstoque: number;
  quantidadeEmEstoqueReservado: number;
  quantidadeMinimaEmEstoque: number;
  variacaoAtiva: boolean;
}

export interface HiperProduct {
  id: string;
  codigo: number;
  codigoDeBarras: string | null;
  nome: string | null;
  descricao: string | null;
  grade: boolean;
  /** Present when `grade` is true. */
  variacao?: HiperVariation[];
  produtoPrimarioId: string;
  marca: string;
  categoria: string;
  categoriaDoProdutoId: string;
  preco: number;
  atacadoAtivo: boolean;
  precoAtacado: { precos: { precoUnitario: number; quantidade: number }[] } | null;
  quantidadeEmEstoque: number;
  quantidadeMinimaEmEstoque: number;
  unidade: string;
  imagem: string | null;
  imagensAdicionais: { imagem: string }[];
  peso: number;
  altura: number;
  largura: number;
  comprimento: number;
  ncm: string;
  ativo: boolean;
  removido: boolean;
  pontoDeSincronizacao: number;
}

/** What a test gives to seed a product: anything left out gets a plausible value. */
export type ProductSeed = Partial<Omit<HiperProduct, 'variacao' | 'pontoDeSincronizacao' | 'produtoPrimarioId'>> & {
  variacao?: (Partial<HiperVariation> & Pick<HiperVariation, 'nomeVariacaoA' | 'tipoVariacaoA'>)[];
  /** "Enviar produto para a loja virtual": off keeps it out of every answer (on unless told). */
  enviarParaLojaVirtual?: boolean;
};

export interface ReceivedHiperRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body as sent, when there was one. */
  body?: string;
  status: number;
  at: number;
  /** The key of the account it was made for (its token's, or the one `gerar-token` was asked with), when known. */
  key?: string;
}

/** Watches requests as they are served: see `HiperStandIn.intercept`. */
export type HiperInterceptor = (request: ReceivedHiperRequest, phase: 'received' | 'served') => void | Promise<void>;

export interface HiperFault {
  /** Matched against the path after the base, e.g. `/produtos/pontoDeSincronizacao` or `/auth/gerar-token/...`. */
  path?: string | RegExp;
  method?: string;
  /** Only requests made for this account (its key, or a token of it): one account failing beside the others. */
  key?: string;
  times?: number;
  status?: number;
  /** The body answered with `status`; a function is given the body Hiper would have answered (with `afterServing`). */
  body?: unknown;
  delayMs?: number;
  /**
   * The request is served first (a sales order is created), then answered with `status`/`body` or after `delayMs`:
   * what a timeout or a 5xx after Hiper accepted looks like from the caller's side.
   */
  afterServing?: boolean;
  /** Closes the connection without an answer (after serving, with `afterServing`). */
  drop?: boolean;
}

/** One event of a sales order, as `pedido-de-venda/eventos/{id}` lists it. */
export interface HiperOrderEvent {
  chaveDocumentoFiscal: string | null;
  codigoDoTipoDeEvento: number;
  data: string;
  observacao: string | null;
  tipoDocumentoFiscal: string | null;
  urlArquivoXml: string | null;
}

/** A sales order Hiper holds: the body it was sent, and what it has done with it since. */
export interface HiperSalesOrder {
  id: string;
  codigo: string;
  body: Record<string, any>;
  receivedAt: number;
  situacao: 1 | 2 | 3;
  cancelado: boolean;
  eventos: HiperOrderEvent[];
  cancelRequests: number;
}

export interface HiperStandInOptions {
  /** The API's path (`/api/v1` unless told). */
  basePath?: string;
  /** Products per answer, or `all` for the whole delta in one answer (unverified; 50 unless told). */
  pageSize?: number | 'all';
  /** How long a token lives (21,600 s documented). */
  tokenLifetimeSeconds?: number;
  /** The status of the "Nenhum produto encontrado" answer: 400 as seen in production (default), or 200. */
  nothingNewStatus?: 200 | 400;
  /** The status a refused key gets (unverified; 400 unless told), with `errors` naming the key. */
  refusedKeyStatus?: number;
  /** Whether a change of stock alone moves a product into the delta (unverified; true unless told). */
  stockMovesCursor?: boolean;
  /** How far the cursor moves per change: Hiper's positions are sparse (7 unless told). */
  cursorStep?: number;
  /**
   * A `numeroPedidoDeVenda` already received (unverified): accepted as a new order (default, the worst case), or
   * refused with 409 and `errors`.
   */
  repeatedOrderNumber?: 'accept' | 'refuse';
  /** The status of a sales order Hiper refuses (unverified; 400 unless told), with `errors` and `message`. */
  refusedOrderStatus?: number;
  /**
   * Whether a sales order is checked as Hiper is reported to check it (products of the account, a 7-digit IBGE code,
   * payments adding up to the lines and freight): true unless told.
   */
  validateOrders?: boolean;
  /** The port on 127.0.0.1 (a free one unless told). */
  port?: number;
  /** Answers every request outside the API's path (pages of the demo's own); a 404 otherwise. */
  page?: http.RequestListener;
}

interface Stored {
  product: HiperProduct;
  online: boolean;
}

/** One Hiper account: its key and its products, each change of which takes a new cursor position. */
export class HiperAccount {
  readonly uuid = randomUUID();
  private readonly stored = new Map<string, Stored>();
  private position = 0;
  private nextCodigo = 3001;
  /** Every sales order received, in order; a repeated number may be here twice. */
  readonly orders: HiperSalesOrder[] = [];
  /** Refuses the next sales orders with these errors (a 4xx as `refusedOrderStatus`), nothing created. */
  refuseOrders: string[] | null = null;
  /** Answers cancellations 200 with these errors, nothing cancelled (a request refused, as integrators read it). */
  refuseCancels: string[] | null = null;

  constructor(
    readonly key: string,
    private readonly options: Required<Pick<HiperStandInOptions, 'stockMovesCursor' | 'cursorStep'>>,
  ) {}

  /** The last position given to a change. */
  get lastPosition(): number {
    return this.position;
  }

  /** Every top-level entry (grade variations included), as Hiper lists them. */
  get products(): HiperProduct[] {
    return [...this.stored.values()].map((s) => s.product);
  }

  product(idOrCodigo: string | number): HiperProduct {
    const found = [...this.stored.values()].find((s) => s.product.id === idOrCodigo || s.product.codigo === idOrCodigo);
    if (!found) throw new Error(`The Hiper stand-in has no product ${idOrCodigo}`);
    return found.product;
  }

  /** The products an answer after `cursor` lists, in cursor order. */
  delta(cursor: number): HiperProduct[] {
    return [...this.stored.values()]
      .filter((s) => s.online && s.product.pontoDeSincronizacao > cursor)
      .map((s) => s.product)
      .sort((a, b) => a.pontoDeSincronizacao - b.pontoDeSincronizacao);
  }

  /** Adds a product (a grade when it has `variacao`, its variations then also listed at the top level). */
  add(seed: ProductSeed): HiperProduct {
    const { variacao, enviarParaLojaVirtual = true, ...fields } = seed;
    const codigo = fields.codigo ?? this.nextCodigo++;
    const product: HiperProduct = {
      id: randomUUID(),
      codigo,
      codigoDeBarras: null,
      nome: `Produto ${codigo}`,
      descricao: null,
      grade: !!variacao?.length,
      produtoPrimarioId: ZERO_GUID,
      marca: 'Marca',
      categoria: 'Geral',
      categoriaDoProdutoId: randomUUID(),
      preco: 10,
      atacadoAtivo: false,
      precoAtacado: null,
      quantidadeEmEstoque: 0,
      quantidadeMinimaEmEstoque: 0,
      unidade: 'UNID',
      imagem: null,
      imagensAdicionais: [],
      peso: 0,
      altura: 0,
      largura: 0,
      comprimento: 0,
      ncm: '61091000',
      ativo: true,
      removido: false,
      ...fields,
      pontoDeSincronizacao: 0,
    };
    if (variacao?.length) {
      product.variacao = variacao.map((v) => ({
        id: randomUUID(),
        codigo: this.nextCodigo++,
        codigoDeBarras: null,
        nomeVariacaoB: null,
        tipoVariacaoB: null,
        quantidadeEmEstoque: 0,
        quantidadeEmEstoqueReservado: 0,
        quantidadeMinimaEmEstoque: 0,
        variacaoAtiva: true,
        ...v,
      }));
      product.quantidadeEmEstoque = product.variacao.reduce((sum, v) => sum + v.quantidadeEmEstoque, 0);
    }
    this.stored.set(product.id, { product, online: enviarParaLojaVirtual });
    this.moved(product);
    return product;
  }

  /** Changes a product's fields (a grade's variations through `changeVariation`); it moves to a new position. */
  change(idOrCodigo: string | number, patch: Partial<Omit<HiperProduct, 'id' | 'variacao' | 'pontoDeSincronizacao'>>) {
    const product = this.product(idOrCodigo);
    Object.assign(product, patch);
    this.moved(product);
    return product;
  }

  /** Changes one variation of a grade; the grade (and the variation's own top-level entry) move. */
  changeVariation(variationId: string, patch: Partial<Omit<HiperVariation, 'id'>>) {
    const grade = this.products.find((p) => p.variacao?.some((v) => v.id === variationId));
    if (!grade) throw new Error(`The Hiper stand-in has no variation ${variationId}`);
    Object.assign(
      grade.variacao!.find((v) => v.id === variationId)!,
      patch,
    );
    grade.quantidadeEmEstoque = grade.variacao!.reduce((sum, v) => sum + v.quantidadeEmEstoque, 0);
    this.moved(grade);
    return grade;
  }

  /** Sets stock; the product moves in the delta only when `stockMovesCursor` (a variation's id sets its stock). */
  setStock(idOrCodigo: string | number, quantidadeEmEstoque: number) {
    const grade = this.products.find((p) => p.variacao?.some((v) => v.id === idOrCodigo));
    if (grade) {
      grade.variacao!.find((v) => v.id === idOrCodigo)!.quantidadeEmEstoque = quantidadeEmEstoque;
      grade.quantidadeEmEstoque = grade.variacao!.reduce((sum, v) => sum + v.quantidadeEmEstoque, 0);
      if (this.options.stockMovesCursor) this.moved(grade);
      else this.refreshChildren(grade);
      return grade;
    }
    const product = this.product(idOrCodigo);
    product.quantidadeEmEstoque = quantidadeEmEstoque;
    if (this.options.stockMovesCursor) this.moved(product);
    return product;
  }

  /** A sales order by its id. */
  order(id: string): HiperSalesOrder {
    const found = this.orders.find((o) => o.id === id);
    if (!found) throw new Error(`The Hiper stand-in has no sales order ${id}`);
    return found;
  }

  /** The sales orders received with this `numeroPedidoDeVenda`. */
  ordersNumbered(numero: string | number): HiperSalesOrder[] {
    return this.orders.filter((o) => String(o.body.numeroPedidoDeVenda) === String(numero));
  }

  /** Adds an event to a sales order (3: NF-e issued, 4: handed to the carrier, 99: cancelled...). */
  addOrderEvent(id: string, codigoDoTipoDeEvento: number, fields: Partial<HiperOrderEvent> = {}) {
    const order = this.order(id);
    order.eventos.push({
      chaveDocumentoFiscal: null,
      codigoDoTipoDeEvento,
      data: hiperDate(new Date()),
      observacao: order.codigo,
      tipoDocumentoFiscal: null,
      urlArquivoXml: null,
      ...fields,
    });
    if (codigoDoTipoDeEvento === 99) order.cancelado = true;
    return order;
  }

  /** Sets a sales order's processing situation (1 processing, 2 processed, 3 processed with error). */
  setOrderSituation(id: string, situacao: 1 | 2 | 3) {
    this.order(id).situacao = situacao;
  }

  /** Marks a product `removido` (Hiper never deletes); it moves to a new position. */
  remove(idOrCodigo: string | number) {
    return this.change(idOrCodigo, { removido: true });
  }

  /**
   * Another account's catalogue as this account holds it: the same codes (the SKUs), ids of its own, and its own
   * stock, `stockOf(codigo)` of each product and variation (0 unless told); `only` picks which of `from`'s codes.
   */
  copyCatalogue(
    from: HiperAccount,
    stockOf: (codigo: number) => number = () => 0,
    only: (codigo: number) => boolean = () => true,
  ): HiperProduct[] {
    const copies: HiperProduct[] = [];
    for (const p of from.products) {
      if (p.produtoPrimarioId !== ZERO_GUID || !only(p.codigo)) continue;
      const { id: _id, variacao, pontoDeSincronizacao: _at, produtoPrimarioId: _parent, ...fields } = p;
      copies.push(
        this.add({
          ...structuredClone(fields),
          quantidadeEmEstoque: stockOf(p.codigo),
          ...(variacao?.length
            ? {
                variacao: variacao.map(({ id: _v, ...v }) => ({ ...v, quantidadeEmEstoque: stockOf(v.codigo) })),
              }
            : {}),
        }),
      );
    }
    // Codes this account gives later never repeat the copied ones.
    const codes = this.products.map((p) => p.codigo);
    this.nextCodigo = Math.max(this.nextCodigo, ...codes.map((c) => c + 1));
    return copies;
  }

  /** A new position for the product, and for a grade each of its variations' top-level entries after it. */
  private moved(product: HiperProduct) {
    this.position += this.options.cursorStep;
    product.pontoDeSincronizacao = this.position;
    if (product.variacao) this.refreshChildren(product, true);
  }

  /** A grade's variations as Hiper also lists them at the top level, each pointing at its grade. */
  private refreshChildren(grade: HiperProduct, move = false) {
    const online = this.stored.get(grade.id)?.online ?? true;
    for (const v of grade.variacao ?? []) {
      const existing = this.stored.get(v.id)?.product;
      const names = [v.nomeVariacaoA, v.nomeVariacaoB].filter(Boolean).join(' ');
      const child: HiperProduct = {
        ...grade,
        id: v.id,
        codigo: v.codigo,
        codigoDeBarras: v.codigoDeBarras,
        nome: `${grade.nome ?? ''} ${names}`.trim(),
        produtoPrimarioId: grade.id,
        quantidadeEmEstoque: v.quantidadeEmEstoque,
        quantidadeMinimaEmEstoque: v.quantidadeMinimaEmEstoque,
        ativo: grade.ativo && v.variacaoAtiva,
        pontoDeSincronizacao: existing?.pontoDeSincronizacao ?? 0,
      };
      delete child.variacao;
      if (move || !existing) {
        this.position += this.options.cursorStep;
        child.pontoDeSincronizacao = this.position;
      }
      this.stored.set(v.id, { product: child, online });
    }
  }
}

export interface HiperStandIn {
  /** The API base, for HIPER_API_URL, e.g. `http://127.0.0.1:1234/api/v1`. */
  url: string;
  requests: ReceivedHiperRequest[];
  /** The requests made for one account (with its key, or a token of it). */
  requestsOf(key: string): ReceivedHiperRequest[];
  /** Adds an account with its key (64 hex characters unless told). */
  addAccount(key?: string): HiperAccount;
  account(key: string): HiperAccount;
  /** The key stops working: `gerar-token` refuses it. Tokens already issued live on until their `exp`. */
  refuseKey(key: string): void;
  /** Every token issued so far (for one key, or all) answers 401 from now on. */
  invalidateTokens(key?: string): void;
  /** Tokens issued, for one key or in all. */
  tokensIssued(key?: string): number;
  /** The stand-in's clock (ms since the epoch), which tokens' `exp` are checked against. */
  now(): number;
  advanceClock(ms: number): void;
  inject(fault: HiperFault): void;
  /**
   * Calls `hook` with every request as it arrives (`received`, nothing done yet: a caller gone by the time it returns
   * has nothing applied) and once it has been applied (`served`, its answer not yet sent); the request waits for a
   * hook's promise. Null removes it.
   */
  intercept(hook: HiperInterceptor | null): void;
  clearFaults(): void;
  close(): Promise<void>;
}

/** Hiper's dates: `14/03/2024 15:26:51`. */
const hiperDate = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
};

const cents = (value: unknown) => Math.round(Number(value) * 100);

/** What Hiper is reported to refuse in a sales order (unverified texts): an empty list when it is acceptable. */
function salesOrderErrors(body: unknown, account: HiperAccount): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ['O corpo do pedido de venda é inválido'];
  const order = body as Record<string, any>;
  const errors: string[] = [];
  const documento = String(order.cliente?.documento ?? '');
  if (!/^(\d{11}|\d{14})$/.test(documento)) errors.push('O documento do cliente é inválido');
  for (const key of ['enderecoDeEntrega', 'enderecoDeCobranca']) {
    const address = order[key];
    if (!address || typeof address !== 'object') errors.push(`${key} é obrigatório`);
    else if (!/^\d{7}$/.test(String(address.codigoIbge ?? ''))) errors.push(`${key}.codigoIbge é inválido`);
  }
  const itens = Array.isArray(order.itens) ? order.itens : [];
  if (itens.length === 0) errors.push('O pedido de venda não tem itens');
  const known = new Set(account.products.map((p) => p.id));
  for (const item of itens) {
    if (!known.has(String(item?.produtoId))) errors.push(`Produto ${String(item?.produtoId)} não encontrado`);
    if (!(Number(item?.quantidade) > 0)) errors.push('A quantidade de um item é inválida');
  }
  const payments = Array.isArray(order.meiosDePagamento) ? order.meiosDePagamento : [];
  if (payments.length === 0) errors.push('O pedido de venda não tem meio de pagamento');
  const lines = itens.reduce(
    (sum: number, i: any) => sum + cents(i?.precoUnitarioLiquido) * Number(i?.quantidade ?? 0),
    0,
  );
  const paid = payments.reduce((sum: number, p: any) => sum + cents(p?.valor), 0);
  const freight = cents(order.valorDoFrete ?? 0);
  // Within a cent per unit, as a split of a discount may leave.
  const units = itens.reduce((sum: number, i: any) => sum + Number(i?.quantidade ?? 0), 0);
  if (payments.length > 0 && Math.abs(lines + freight - paid) > units) {
    errors.push('A soma dos meios de pagamento difere do total do pedido');
  }
  return errors;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startHiper(options: HiperStandInOptions = {}): Promise<HiperStandIn> {
  const basePath = (options.basePath ?? '/api/v1').replace(/\/+$/, '');
  const secret = randomBytes(32);
  const accounts = new Map<string, HiperAccount>();
  const refused = new Set<string>();
  const issued: { key: string; token: string }[] = [];
  const dead = new Set<string>();
  const requests: ReceivedHiperRequest[] = [];
  let faults: (HiperFault & { left: number })[] = [];
  let interceptor: HiperInterceptor | null = null;
  let offset = 0;
  const now = () => Date.now() + offset;
  const sign = (key: string, account: HiperAccount) => {
    const iat = Math.floor(now() / 1000);
    const claims = {
      [`${CLAIMS}/sid`]: account.uuid,
      [`${CLAIMS}/hash`]: key,
      nbf: iat,
      iat,
      exp: iat + (options.tokenLifetimeSeconds ?? 21_600),
      // Two tokens of the same second differ, so that one can die and not the other.
      jti: randomUUID(),
    };
    const unsigned = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}`;
    const token = `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
    issued.push({ key, token });
    return token;
  };

  /** The key of a valid token, or undefined. */
  const verify = (token: string): string | undefined => {
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature) return undefined;
    const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
    if (expected !== signature) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, number | string>;
    const key = String(claims[`${CLAIMS}/hash`]);
    if (Number(claims.exp) * 1000 <= now() || dead.has(token)) return undefined;
    return accounts.has(key) ? key : undefined;
  };

  /** Whose account a request is for, read as the caller meant it (a token's claim, unverified), for faults and records. */
  const accountOf = (req: http.IncomingMessage, path: string): string | undefined => {
    const asked = /^\/auth\/gerar-token\/([^/]*)$/.exec(path);
    if (asked) return decodeURIComponent(asked[1]);
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? '').trim())?.[1];
    try {
      const claims = JSON.parse(Buffer.from(bearer?.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const key = claims[`${CLAIMS}/hash`];
      return typeof key === 'string' ? key : undefined;
    } catch {
      return undefined;
    }
  };

  const bearerKey = (req: http.IncomingMessage) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? '').trim())?.[1];
    return bearer ? verify(bearer) : undefined;
  };
  const unauthorized: [number, unknown] = [401, { errors: ['Token de acesso inválido ou expirado'], message: null }];
  let nextOrderCode = 1;

  const handle = (req: http.IncomingMessage, path: string, query: URLSearchParams, raw: string): [number, unknown] => {
    const token = /^\/auth\/gerar-token\/([^/]*)$/.exec(path);
    if (req.method === 'GET' && token) {
      const key = decodeURIComponent(token[1]);
      const account = accounts.get(key);
      if (!account || refused.has(key)) {
        return [
          options.refusedKeyStatus ?? 400,
          { chaveDeSeguranca: key, token: null, errors: ['Chave de segurança inválida'], message: null },
        ];
      }
      return [200, { chaveDeSeguranca: key, token: sign(key, account), errors: [], message: null }];
    }
    if (req.method === 'GET' && path === '/produtos/pontoDeSincronizacao') {
      const key = bearerKey(req);
      if (!key) return unauthorized;
      const raw = query.get('pontoDeSincronizacao') ?? '0';
      const cursor = Number(raw || '0');
      if (!Number.isInteger(cursor) || cursor < 0) {
        return [400, { errors: ['O ponto de sincronização informado é inválido'], message: null }];
      }
      const delta = accounts.get(key)!.delta(cursor);
      const page = options.pageSize === 'all' ? delta : delta.slice(0, options.pageSize ?? 50);
      if (page.length === 0) {
        return [
          options.nothingNewStatus ?? 400,
          { pontoDeSincronizacao: 0, produtos: null, errors: ['Nenhum produto encontrado'], message: null },
        ];
      }
      return [
        200,
        {
          pontoDeSincronizacao: page.at(-1)!.pontoDeSincronizacao,
          produtos: structuredClone(page),
          errors: [],
          message: null,
        },
      ];
    }
    if (req.method === 'POST' && /^\/pedido-de-venda\/?$/.test(path)) {
      const key = bearerKey(req);
      if (!key) return unauthorized;
      const account = accounts.get(key)!;
      if (!/^application\/json/i.test(String(req.headers['content-type'] ?? ''))) {
        return [415, { errors: ['Content-Type deve ser application/json'], message: null }];
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return [400, { errors: ['O corpo da requisição não é um JSON válido'], message: null }];
      }
      const refusal = options.refusedOrderStatus ?? 400;
      const errors = account.refuseOrders ?? (options.validateOrders === false ? [] : salesOrderErrors(body, account));
      const numero = (body as Record<string, unknown>)?.numeroPedidoDeVenda;
      if (
        errors.length === 0 &&
        options.repeatedOrderNumber === 'refuse' &&
        numero &&
        account.ordersNumbered(String(numero)).length > 0
      ) {
        errors.push(`Já existe um pedido de venda com o número ${String(numero)}`);
      }
      if (errors.length > 0) return [refusal, { errors, message: 'O pedido de venda não foi aceito.' }];
      const order: HiperSalesOrder = {
        id: randomUUID(),
        codigo: `LV${String(nextOrderCode++).padStart(11, '0')}`,
        body: body as Record<string, any>,
        receivedAt: Date.now(),
        situacao: 1,
        cancelado: false,
        eventos: [],
        cancelRequests: 0,
      };
      account.orders.push(order);
      account.addOrderEvent(order.id, 1);
      return [200, { id: order.id, errors: [], message: 'Pedido recebido e em processamento.' }];
    }
    const events = /^\/pedido-de-venda\/eventos\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && events) {
      const key = bearerKey(req);
      if (!key) return unauthorized;
      const order = accounts.get(key)!.orders.find((o) => o.id === decodeURIComponent(events[1]));
      if (!order) return [404, { errors: ['Pedido de venda não encontrado'], message: null }];
      return [
        200,
        {
          cancelado: order.cancelado,
          codigoDaSituacaoDeProcessamento: order.situacao,
          codigoDoPedidoDeVenda: order.codigo,
          data: hiperDate(new Date(order.receivedAt)),
          eventos: structuredClone(order.eventos),
          pedidoDeVendaId: order.id,
          errors: [],
          message: null,
        },
      ];
    }
    const cancel = /^\/pedido-de-venda\/cancelar\/([^/]+)$/.exec(path);
    if (req.method === 'PUT' && cancel) {
      const key = bearerKey(req);
      if (!key) return unauthorized;
      const order = accounts.get(key)!.orders.find((o) => o.id === decodeURIComponent(cancel[1]));
      if (!order) return [404, { errors: ['Pedido de venda não encontrado'], message: null }];
      const refusals = accounts.get(key)!.refuseCancels;
      if (refusals?.length) return [200, { errors: refusals, message: 'O cancelamento não foi aceito.' }];
      order.cancelRequests++;
      if (!order.cancelado) accounts.get(key)!.addOrderEvent(order.id, 99);
      return [200, { errors: [], message: 'Cancelamento recebido e em processamento.' }];
    }
    return [404, { errors: ['Recurso não encontrado'], message: null }];
  };

  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if (options.page && !pathname.startsWith(`${basePath}/`)) return void options.page(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
      const record: ReceivedHiperRequest = {
        method: req.method ?? 'GET',
        path,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: raw || undefined,
        status: 0,
        at: Date.now(),
        key: accountOf(req, path),
      };
      requests.push(record);
      const fault = faults.find(
        (f) =>
          f.left > 0 &&
          (!f.method || f.method === record.method) &&
          (!f.key || f.key === record.key) &&
          (!f.path || (typeof f.path === 'string' ? f.path === path : f.path.test(path))),
      );
      if (fault) fault.left--;
      // A caller gone before its request was served (it gave up, or its process died) has nothing applied.
      let gone = false;
      res.on('close', () => (gone = true));
      const serve = (): [number, unknown] =>
        url.pathname.startsWith(`${basePath}/`)
          ? handle(req, path, url.searchParams, raw)
          : [404, { errors: ['Recurso não encontrado'], message: null }];
      const respond = async () => {
        await interceptor?.(record, 'received');
        if (gone) return;
        // Served at once when the fault comes after serving: the order exists whatever the caller then sees.
        const served = fault?.afterServing ? serve() : undefined;
        if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (gone) return;
        if (fault?.drop) {
          record.status = -1;
          req.socket.destroy();
          return;
        }
        const [status, body] =
          fault?.status !== undefined
            ? [
                fault.status,
                typeof fault.body === 'function'
                  ? (fault.body as (served: unknown) => unknown)(served?.[1])
                  : (fault.body ?? { errors: ['Erro interno'], message: null }),
              ]
            : (served ?? serve());
        record.status = status;
        await interceptor?.(record, 'served');
        if (gone) return;
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
      };
      void respond();
    });
  });
  await listen(server, options.port ?? 0);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin + basePath,
    requests,
    requestsOf: (key) => requests.filter((r) => r.key === key),
    addAccount(key = randomBytes(32).toString('hex')) {
      const account = new HiperAccount(key, {
        stockMovesCursor: options.stockMovesCursor ?? true,
        cursorStep: options.cursorStep ?? 7,
      });
      accounts.set(key, account);
      refused.delete(key);
      return account;
    },
    account(key) {
      const account = accounts.get(key);
      if (!account) throw new Error('The Hiper stand-in has no account with that key');
      return account;
    },
    refuseKey: (key) => void refused.add(key),
    invalidateTokens(key) {
      for (const i of issued) if (key === undefined || i.key === key) dead.add(i.token);
    },
    tokensIssued: (key) => issued.filter((i) => key === undefined || i.key === key).length,
    now,
    advanceClock: (ms) => void (offset += ms),
    inject: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    intercept: (hook) => void (interceptor = hook),
    clearFaults: () => void (faults = []),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
