import { inject } from 'vitest';
import pino, { type Logger } from 'pino';
import { loadConfig, type Config } from '../../gateway/config';
import { startGateway, type Gateway } from '../../gateway/gateway';
import { createTestDatabase, sql } from './database';

export const SUPERUSER = { email: 'admin@example.com', password: 'superuser-password' };

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
  /** How long the request took, in milliseconds. */
  ms: number;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  /** A raw body sent as is, with `contentType`. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Gives up after this long; 60 s unless told. */
  timeoutMs?: number;
}

/** One HTTP request to a gateway at `base`, with the answer parsed when it is JSON and the time it took. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.raw !== undefined) {
    headers['Content-Type'] = options.contentType ?? 'application/json';
    body = options.raw;
  }
  const started = performance.now();
  const response = await fetch(base + path, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return {
    status: response.status,
    body: parsed as T,
    text,
    headers: response.headers,
    ms: performance.now() - started,
  };
}

export interface TestGateway {
  url: string;
  config: Config;
  gateway: Gateway;
  databaseUrl: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Answer<T>>;
  graphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<Answer<{ data?: T; errors?: any }>>;
  login(email: string, password: string): Promise<string>;
  superuserToken(): Promise<string>;
  /** Signs up an ordinary user and returns their token and id. */
  createUser(
    email?: string,
    password?: string,
  ): Promise<{ token: string; id: string; email: string; password: string }>;
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * A real gateway on a fresh database of its own, on a free port; or, given `env.DATABASE_URL`, on that database
 * (a restart on the same data), which its `close` then leaves in place.
 */
export async function startTestGateway(env: Record<string, string> = {}, log?: Logger): Promise<TestGateway> {
  const database = env.DATABASE_URL
    ? { url: env.DATABASE_URL, drop: async () => undefined }
    : await createTestDatabase(inject('postgresUrl'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    BCRYPT_COST: '4',
    FIRST_SUPERUSER: SUPERUSER.email,
    FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
    FRONTEND_HOST: 'http://frontend.test',
    CHECKOUT_URL: 'https://checkout.example/pay',
    // Nuvemshop registers webhooks at https addresses only, and production refuses any other.
    PUBLIC_URL: 'https://integracao.test',
    // A store's API is the stand-in's when a test starts one; otherwise nothing answers, and nothing leaves the machine.
    NUVEMSHOP_API_URL: 'http://127.0.0.1:9/v1',
    RATE_LIMIT_LOGIN: '10000',
    RATE_LIMIT_LOGIN_EMAIL: '10000',
    RATE_LIMIT_SIGNUP: '10000',
    RATE_LIMIT_RECOVERY: '10000',
    RATE_LIMIT_RECOVERY_RECIPIENT: '10000',
    RATE_LIMIT_RESET: '10000',
    RATE_LIMIT_CALLBACK: '10000',
    RATE_LIMIT_WEBHOOK_UNSIGNED: '10000',
    // Idle mail workers look for work twice a second, so a test waits fractions of a second for a queued mail.
    JOBS_POLL_INTERVAL_SECONDS: '0.5',
    ...env,
    DATABASE_URL: database.url,
  });
  const gateway = await startGateway(config, log ?? pino({ level: env.LOG_LEVEL ?? 'silent' }));
  const url = gateway.url.replace('localhost', '127.0.0.1');

  const request = (method: string, path: string, options?: RequestOptions) => call(url, method, path, options);

  const login = async (email: string, password: string) => {
    const answer = await request('POST', '/api/v1/login/access-token', { form: { username: email, password } });
    if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.text}`);
    return answer.body.access_token as string;
  };

  return {
    url,
    config,
    gateway,
    databaseUrl: database.url,
    request,
    graphql: (query, variables, token) => request('POST', '/graphql', { json: { query, variables }, token }),
    login,
    superuserToken: () => login(SUPERUSER.email, SUPERUSER.password),
    createUser: async (email = `user${++counter}-${Date.now()}@example.com`, password = 'a-good-password') => {
      const created = await request('POST', '/api/v1/users/signup', {
        json: { email, password, full_name: 'Test User' },
      });
      if (created.status !== 200) throw new Error(`signup failed: ${created.status} ${created.text}`);
      return { token: await login(email, password), id: created.body.id, email: created.body.email, password };
    },
    sql: (text, values) => sql(database.url, text, values),
    close: async () => {
      await gateway.close();
      await database.drop();
    },
  };
}

/** A test gateway with the superuser's token and id, for suites acting as the superuser. */
export async function startTestGatewayAsSuperuser(
  env: Record<string, string> = {},
): Promise<{ t: TestGateway; su: string; suId: string }> {
  const t = await startTestGateway(env);
  try {
    const su = await t.superuserToken();
    const suId = (await t.request('GET', '/api/v1/users/me', { token: su })).body.id as string;
    return { t, su, suId };
  } catch (error) {
    await t.close();
    throw error;
  }
}
