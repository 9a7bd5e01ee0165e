import type { Config } from '../config';
import { messages } from '../messages';
import { PlatformError, readBody, timedOut } from './platform-call';

/** One variation of a grade, as Hiper lists it inside its product's `variacao`. */
export interface HiperVariation {
  id: string;
  codigo: number;
  codigoDeBarras: string | null;
  nomeVariacaoA: string | null;
  tipoVariacaoA: string | null;
  nomeVariacaoB: string | null;
  tipoVariacaoB: string | null;
  quantidadeEmEstoque: number;
  quantidadeEmEstoqueReservado?: number;
  quantidadeMinimaEmEstoque?: number;
  variacaoAtiva: boolean;
}

/** A product as `produtos/pontoDeSincronizacao` lists it. Hiper leaves many fields null or out. */
export interface HiperProduct {
  id: string;
  codigo: number;
  codigoDeBarras: string | null;
  nome: string | null;
  descricao: string | null;
  grade?: boolean;
  /** Present when `grade` is true. */
  variacao?: HiperVariation[] | null;
  /** The zero GUID for a product of its own; the parent's id for a grade's variation listed at the top level. */
  produtoPrimarioId?: string;
  marca?: string | null;
  categoria?: string | null;
  categoriaDoProdutoId?: string | null;
  preco: number;
  quantidadeEmEstoque: number;
  quantidadeMinimaEmEstoque?: number;
  unidade?: string | null;
  imagem?: string | null;
  imagensAdicionais?: { imagem: string }[] | null;
  peso?: number | null;
  altura?: number | null;
  largura?: number | null;
  comprimento?: number | null;
  ncm?: string | null;
  ativo: boolean;
  removido: boolean;
  pontoDeSincronizacao?: number;
}

export const ZERO_GUID = '00000000-0000-0000-0000-000000000000';

/** A grade's variation that Hiper also lists at the top level: its grade's entry already carries it. */
export const isGradeChild = (product: HiperProduct) =>
  !!product.produtoPrimarioId && product.produtoPrimarioId !== ZERO_GUID;

/** One answer of the delta: its products and the cursor to store once they are written. */
export interface HiperPage {
  products: HiperProduct[];
  cursor: number;
}

/** Hiper refused the account's security key: nothing works until someone enters a valid one. */
export class HiperKeyRefused extends PlatformError {
  constructor(status?: number, body?: unknown) {
    super(messages.hiperKeyRefused, false, status, body, 'hiper_key_refused');
  }
}

/** Hiper was down, slow or busy: the same call may work later. */
export class HiperUnavailable extends PlatformError {
  constructor(
    code: 'hiper_unreachable' | 'hiper_timeout' | 'hiper_unavailable',
    message: string,
    status?: number,
    body?: unknown,
  ) {
    super(message, true, status, body, code);
  }
}

/** Hiper could not be reached at all (connection refused, no such host): the call never left. */
export class HiperNotReached extends HiperUnavailable {}

/** Errors of a connection that was never made: nothing was sent. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Hiper answered something this client does not know how to read, or refused the call itself. */
export class HiperAnswerNotUnderstood extends PlatformError {
  constructor(code: 'hiper_refused' | 'hiper_not_understood', message: string, status?: number, body?: unknown) {
    super(message, false, status, body, code);
  }
}

/** Hiper answered a cursor no greater than the one sent: reading on would never end. */
export class HiperCursorStuck extends PlatformError {
  constructor(sent: number, answered: number) {
    super(messages.hiperCursorStuck, false, undefined, { sent, answered }, 'hiper_cursor_stuck');
  }
}

/** A token kept beyond one client object: shared by every run of an account, in every process. */
export interface HiperTokenStore {
  /** The kept token and when to renew it, or null. */
  load(): Promise<{ token: string; renewAt: number } | null>;
  save(token: string, renewAt: number): Promise<void>;
}

export interface HiperClientOptions {
  /** `{HIPER_API_URL}` */
  baseUrl: string;
  /** The account's security key (64 characters). */
  key: string;
  /** Longest wait for one answer (ms). */
  timeoutMs: number;
  /** A token is renewed this long before its `exp` (seconds; 300 unless told). */
  renewBeforeSeconds?: number;
  /** Stops a delta after this many pages (1000 unless told); the next run goes on from the stored cursor. */
  maxPages?: number;
  /** The clock tokens are checked against (ms since the epoch). */
  now?: () => number;
  /** Where the token is kept between runs and processes (only in this object unless given). */
  tokens?: HiperTokenStore;
}

/** The seconds-since-epoch `exp` claim of a JWT, read without verifying it (Hiper does that). */
function expiryOf(token: string): number | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof claims.exp === 'number' ? claims.exp : undefined;
  } catch {
    return undefined;
  }
}

/** How long a token lives when its `exp` cannot be read: Hiper's documented 6 hours. */
const TOKEN_LIFETIME_SECONDS = 6 * 60 * 60;

const NOTHING_NEW = /nenhum produto encontrado/i;

/** Whether an answer of `produtos/pontoDeSincronizacao` is Hiper's "nothing changed", told by its body. */
function saysNothingNew(body: unknown): boolean {
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  return Array.isArray(errors) && errors.some((e) => typeof e === 'string' && NOTHING_NEW.test(e));
}

/**
 * One Hiper account, read through its security key: a bearer token minted from the key and kept until shortly before
 * its `exp` (renewed once when Hiper answers 401 anyway), and the products changed since a cursor, page by page.
 */
export class HiperClient {
  /** Tokens minted, and calls made in all (token calls included). */
  tokenRequests = 0;
  requests = 0;
  private readonly base: string;
  private readonly now: () => number;
  private current?: { token: string; renewAt: number };
  /** The last token Hiper answered 401 to: never taken again from the shared store. */
  private refused?: string;
  private minting?: Promise<string>;

  constructor(private readonly options: HiperClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
  }

  static fromConfig(
    config: Pick<Config, 'HIPER_API_URL' | 'HIPER_TIMEOUT_MS'>,
    key: string,
    tokens?: HiperTokenStore,
  ): HiperClient {
    return new HiperClient({ baseUrl: config.HIPER_API_URL, key, timeoutMs: config.HIPER_TIMEOUT_MS, tokens });
  }

  /** A token for the account: the kept one while it has time left, else a new one (one request at a time). */
  async token(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    this.minting ??= this.keptOrMinted().finally(() => (this.minting = undefined));
    return this.minting;
  }

  /** The shared token while it has time left (and was not just refused), else a new one, shared in turn. */
  private async keptOrMinted(): Promise<string> {
    const refused = this.refused;
    const kept = await this.options.tokens?.load();
    if (kept && kept.token !== refused && this.now() < kept.renewAt) {
      this.current = kept;
      return kept.token;
    }
    const token = await this.mint();
    await this.options.tokens?.save(token, this.current!.renewAt);
    return token;
  }

  /**
   * One answer of the delta after `cursor`: its products and the cursor to store after them, or null when Hiper has
   * nothing new (its answer then carries cursor 0, which must never be stored).
   */
  async page(cursor: number): Promise<{ products: HiperProduct[]; cursor: number | null }> {
    const path = `/produtos/pontoDeSincronizacao?pontoDeSincronizacao=${encodeURIComponent(String(cursor))}`;
    let { response, body } = await this.call(path, await this.token());
    if (response.status === 401) {
      this.refused = this.current?.token;
      this.current = undefined;
      ({ response, body } = await this.call(path, await this.token()));
      if (response.status === 401) {
        throw new HiperAnswerNotUnderstood('hiper_refused', 'Hiper refused a token it had just issued', 401, body);
      }
    }
    // Hiper says so with HTTP 400 in production, 200 in its swagger.
    if ((response.ok || response.status === 400) && saysNothingNew(body)) return { products: [], cursor: null };
    this.failUnlessOk(response, body);
    const { produtos, pontoDeSincronizacao } = (body ?? {}) as { produtos?: unknown; pontoDeSincronizacao?: unknown };
    if (produtos === null || (Array.isArray(produtos) && produtos.length === 0)) return { products: [], cursor: null };
    if (!Array.isArray(produtos) || typeof pontoDeSincronizacao !== 'number') {
      throw new HiperAnswerNotUnderstood(
        'hiper_not_understood',
        'Hiper answered products without a list or a cursor',
        response.status,
        body,
      );
    }
    return { products: produtos as HiperProduct[], cursor: pontoDeSincronizacao };
  }

  /**
   * The products changed since `from`, one page at a time, each with the cursor to store once it is written; ends on
   * Hiper's "Nenhum produto encontrado". A cursor that does not move forward is refused rather than read forever.
   */
  async *changes(from: number): AsyncGenerator<HiperPage> {
    let cursor = from;
    for (let pages = 0; pages < (this.options.maxPages ?? 1000); pages++) {
      const page = await this.page(cursor);
      if (page.cursor === null) return;
      if (page.cursor <= cursor) throw new HiperCursorStuck(cursor, page.cursor);
      cursor = page.cursor;
      yield { products: page.products, cursor };
    }
  }

  /** Every product changed since `from`, and the cursor to store after them (`from` itself when nothing changed). */
  async readAll(from: number): Promise<HiperPage> {
    const products: HiperProduct[] = [];
    let cursor = from;
    for await (const page of this.changes(from)) {
      products.push(...page.products);
      cursor = page.cursor;
    }
    return { products, cursor };
  }

  /**
   * One call of the account with its token (renewed once when Hiper answers 401, which proves the call did nothing):
   * Hiper's status and body, whatever they are. A call that never left throws HiperNotReached; one whose answer never
   * came (a timeout, a connection cut) throws HiperUnavailable, and may have been done.
   */
  async authorized(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    let { response, body: answer } = await this.call(path, await this.token(), method, body);
    if (response.status === 401) {
      this.refused = this.current?.token;
      this.current = undefined;
      ({ response, body: answer } = await this.call(path, await this.token(), method, body));
    }
    return { status: response.status, body: answer };
  }

  private async mint(): Promise<string> {
    this.tokenRequests++;
    const { response, body } = await this.call(`/auth/gerar-token/${encodeURIComponent(this.options.key)}`);
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw new HiperKeyRefused(response.status, body);
    }
    this.failUnlessOk(response, body);
    const { token, errors } = (body ?? {}) as { token?: unknown; errors?: unknown };
    if (typeof token !== 'string' || !token || (Array.isArray(errors) && errors.length > 0)) {
      throw new HiperKeyRefused(response.status, body);
    }
    const exp = expiryOf(token) ?? this.now() / 1000 + TOKEN_LIFETIME_SECONDS;
    this.current = { token, renewAt: (exp - (this.options.renewBeforeSeconds ?? 300)) * 1000 };
    return token;
  }

  private async call(
    path: string,
    token?: string,
    method = 'GET',
    body?: unknown,
  ): Promise<{ response: Response; body: unknown }> {
    this.requests++;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      const response = await fetch(this.base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        redirect: 'error',
      });
      return { response, body: await readBody(response) };
    } catch (error) {
      if (timedOut(error)) throw new HiperUnavailable('hiper_timeout', messages.hiperTimedOut);
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      if (typeof code === 'string' && NOT_CONNECTED.has(code))
        throw new HiperNotReached('hiper_unreachable', messages.hiperUnreachable);
      throw new HiperUnavailable('hiper_unreachable', messages.hiperUnreachable);
    }
  }

  private failUnlessOk(response: Response, body: unknown) {
    if (response.status >= 500 || response.status === 408 || response.status === 429) {
      throw new HiperUnavailable('hiper_unavailable', `Hiper answered HTTP ${response.status}`, response.status, body);
    }
    if (!response.ok) {
      throw new HiperAnswerNotUnderstood(
        'hiper_refused',
        `Hiper refused the call (HTTP ${response.status})`,
        response.status,
        body,
      );
    }
  }
}
