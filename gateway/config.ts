import { existsSync } from 'node:fs';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { publicAddressesTrusted } from './proxy-ranges';

/**
 * Every setting the gateway reads, parsed and validated once at start.
 * Development defaults let `npm start` work on a bare machine; production refuses them.
 */
const DEV_SECRET_KEY = 'development-secret-key-change-me';
const DEV_SUPERUSER_PASSWORD = 'changethis';
// 32 bytes, base64: only for development and tests.
const DEV_TOKEN_ENCRYPTION_KEY = 'ZGV2ZWxvcG1lbnQtb25seS10b2tlbi1rZXktMzJieXQ=';

/** PostgreSQL's limit on one statement unless DATABASE_STATEMENT_TIMEOUT_MS says otherwise (ms). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
/** Five cron fields, UTC; checked again by the queue when it registers the schedule. */
const cron = z
  .string()
  .regex(/^\s*[\d*/,-]+(\s+[\d*/,-]+){4}\s*$/, 'must be a cron expression of five fields, e.g. 17 * * * *');
const list = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/**
 * Which proxies in front of the gateway to believe about the client's address (X-Forwarded-For), in a form Express's
 * `trust proxy` takes: how many hops, which addresses and ranges, or all (`true`) or none (`false`).
 */
export type ProxyTrust = boolean | number | string[];

const PROXY_TRUST_ALTERNATIVES =
  'the number of proxies in front of the gateway (e.g. 1) or their addresses (e.g. loopback,10.0.0.0/8)';

/**
 * What production believes at most: no real deployment stands behind more proxies than this, and a proxy's
 * addresses (a cloud load balancer's or a CDN's published ranges included) fit in a /8 of public IPv4 and a /24 of
 * public IPv6. Private, loopback and link-local ranges count nothing: no stranger connects from them.
 */
const MAX_TRUSTED_HOPS = 5;
const MAX_TRUSTED_PUBLIC = { ipv4: 1n << 24n, ipv6: 1n << 104n } as const;

/** Why production refuses a TRUST_PROXY setting, or undefined. */
function proxyTrustTooWide(setting: ProxyTrust): string | undefined {
  const escape = 'so a client could choose the address the rate limits count by sending its own X-Forwarded-For';
  const fix = `set ${PROXY_TRUST_ALTERNATIVES} before running with NODE_ENV=production`;
  if (setting === true) return `TRUST_PROXY=true believes any X-Forwarded-For a client sends; ${fix}`;
  if (typeof setting === 'number' && setting > MAX_TRUSTED_HOPS) {
    return `TRUST_PROXY=${setting} believes ${setting} proxies, more than the ${MAX_TRUSTED_HOPS} a deployment stands behind, ${escape}; ${fix}`;
  }
  if (!Array.isArray(setting)) return undefined;
  const trusted = publicAddressesTrusted(setting);
  if (!trusted) {
    return `TRUST_PROXY=${setting.join(',')} has an entry in a notation production does not measure; write each address as a.b.c.d or an IPv6 address, with a /prefix or an IPv4 netmask, or ${fix}`;
  }
  const wide = (family: string, count: bigint, width: string) =>
    `TRUST_PROXY=${setting.join(',')} believes ${count} public ${family} addresses, more than a ${width} holds, ${escape}; ${fix}`;
  if (trusted.ipv4 > MAX_TRUSTED_PUBLIC.ipv4) return wide('IPv4', trusted.ipv4, '/8');
  if (trusted.ipv6 > MAX_TRUSTED_PUBLIC.ipv6) return wide('IPv6', trusted.ipv6, '/24');
  return undefined;
}

const proxyTrust = z.string().transform((value, ctx): ProxyTrust => {
  const text = value.trim().toLowerCase();
  if (['', 'false', 'no'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    try {
      proxyaddr.compile(entry);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an address, a CIDR range, or one of loopback, linklocal, uniquelocal; set ${PROXY_TRUST_ALTERNATIVES}, or false`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(0, 65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: proxyTrust.default(false),

  DATABASE_URL: optionalText,
  DATABASE_POOL_MAX: int(1, 200).default(10),
  /** How long PostgreSQL may spend on one statement of a request before cancelling it. */
  DATABASE_STATEMENT_TIMEOUT_MS: int(100, 600_000).default(DEFAULT_STATEMENT_TIMEOUT_MS),
  EMBEDDED_PG_DIR: z.string().default('.data/postgres'),
  EMBEDDED_PG_PORT: int(1, 65535).default(54329),

  SECRET_KEY: z.string().min(16).default(DEV_SECRET_KEY),
  ACCESS_TOKEN_EXPIRE_MINUTES: int(1).default(60 * 24 * 8),
  RESET_TOKEN_EXPIRE_HOURS: int(1).default(48),
  BCRYPT_COST: int(4, 31).default(12),
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .default(DEV_TOKEN_ENCRYPTION_KEY)
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded in base64'),

  // Who may sign up: see REGISTRATION below for the default.
  USERS_OPEN_REGISTRATION: z.enum(['open', 'approval', 'closed']).optional(),

  FIRST_SUPERUSER: z.email().default('admin@example.com'),
  FIRST_SUPERUSER_PASSWORD: z.string().min(8).max(128).default(DEV_SUPERUSER_PASSWORD),

  SMTP_HOST: optionalText,
  SMTP_PORT: int(1, 65535).default(587),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_TLS: bool.default(true),
  SMTP_SSL: bool.default(false),
  EMAILS_FROM_EMAIL: z.email().default('noreply@example.com'),
  EMAILS_FROM_NAME: z.string().default('Sistema de Integração'),
  /** Where the admin is served, for the links in emails; `http://localhost:${PORT}` unless set (required in production). */
  FRONTEND_HOST: z.url().optional(),

  NUVEMSHOP_CLIENT_ID: z.string().default(''),
  NUVEMSHOP_CLIENT_SECRET: z.string().default(''),
  NUVEMSHOP_TOKEN_URL: z.url().default('https://www.tiendanube.com/apps/authorize/token'),
  NUVEMSHOP_TIMEOUT_MS: int(100, 120_000).default(10_000),
  /** Where store owners pay after authorizing the app; `http://localhost:${PORT}/` unless set (required in production). */
  CHECKOUT_URL: z.url().optional(),
  /** The store API's base, version segment included: a store's calls go to `{NUVEMSHOP_API_URL}/{store id}/...`. */
  NUVEMSHOP_API_URL: z.url().default('https://api.nuvemshop.com.br/v1'),
  /**
   * Nuvemshop answers 400 to a call without `AppName (contact)`; `Sistema de Integracao (FIRST_SUPERUSER)` unless set.
   * ASCII only: Node sends a header's `ç` or `ã` as raw Latin-1 bytes, which a server may refuse.
   */
  NUVEMSHOP_USER_AGENT: z
    .string()
    .regex(/^[\x20-\x7e]*$/, 'must be ASCII (write Integracao, not Integração): it is sent as an HTTP header')
    .regex(
      /^[^()]*\S[^()]*\(\s*\S[^()]*\)\s*$/,
      'must name the app and a contact, e.g. Sistema de Integracao (ti@example.com)',
    )
    .optional(),
  /** The address Nuvemshop calls with webhooks; FRONTEND_HOST unless set, and https in production. */
  PUBLIC_URL: z.url().optional(),

  HIPER_API_URL: z.url().default('https://ms-ecommerce.hiper.com.br/api/v1'),
  HIPER_TIMEOUT_MS: int(100, 300_000).default(30_000),

  SYNC_CATALOGUE_CRON: cron.default('0 * * * *'),
  SYNC_STOCK_INTERVAL_SECONDS: int(10, 86_400).default(600),
  SYNC_FULL_READ_CRON: cron.default('30 3 * * *'),
  /** When every connected client's store is compared with Hiper (the nightly reconciliation). */
  RECONCILE_CRON: cron.default('30 4 * * *'),
  SYNC_CONCURRENCY: int(1, 200).default(20),
  /** How often each suspended client's store is asked `GET /store`: a lapse of free days, or its payment, sends no webhook. */
  SYNC_SUSPENDED_CHECK_MINUTES: int(1, 1440).default(60),
  /**
   * How long one job of a run writes before handing the rest to a continuation. A crashed process's job is failed
   * after three times this and retried elsewhere; its client's lease runs out ten seconds later.
   */
  SYNC_STEP_SECONDS: int(1, 120).default(20),
  /**
   * A step that could not reach Hiper or Nuvemshop is tried SYNC_RETRY_ATTEMPTS times in all, waiting
   * SYNC_RETRY_DELAY_SECONDS before the second, doubling up to twelve times that; the run gives up sooner rather than
   * try past 15 minutes after the first failure.
   */
  SYNC_RETRY_DELAY_SECONDS: int(1, 600).default(10),
  SYNC_RETRY_ATTEMPTS: int(1, 20).default(8),

  /** How often each client with orders on is asked for the orders updated since its last sweep. */
  ORDERS_SWEEP_INTERVAL_SECONDS: int(60, 86_400).default(600),
  /** How often each order in Hiper that is not finished has its events read. */
  ORDERS_STATUS_INTERVAL_SECONDS: int(60, 86_400).default(600),
  /** How many orders one process sends at once. */
  ORDERS_CONCURRENCY: int(1, 200).default(10),
  /** An order's job is tried again this many times after its first attempt, waiting this long then doubling. */
  ORDERS_RETRY_LIMIT: int(0, 20).default(8),
  ORDERS_RETRY_DELAY_SECONDS: int(1, 3600).default(10),
  /** How many of one client's orders one process works on at once: one store never takes every slot. */
  ORDERS_PER_CLIENT_CONCURRENCY: int(1, 200).default(3),
  /** A store's bucket wait (ms) past which an order's job gives its slot back and comes again after the wait. */
  ORDERS_BUCKET_WAIT_MS: int(0, 600_000).default(2_000),
  /** Where Hiper's answers wait, on this machine, for a database that could not be reached when they came. */
  ORDERS_ANSWERS_DIR: z.string().default('.data/hiper-answers'),

  BODY_LIMIT: z.string().default('100kb'),
  REQUEST_TIMEOUT_MS: int(1000).default(30_000),
  /** Open connections the server keeps at once; past it, a new one is closed as soon as it is accepted. */
  MAX_CONNECTIONS: int(1, 1_000_000).default(2048),
  /** Requests answered at once, in all and from one address; past either, 503 with Retry-After, unread. */
  REQUESTS_IN_FLIGHT: int(1, 100_000).default(256),
  REQUESTS_IN_FLIGHT_PER_ADDRESS: int(1, 100_000).default(64),
  CORS_ORIGINS: list,
  /** Whether /docs, the OpenAPI document and the GraphQL explorer are served; see PUBLIC_API_DOCS below for the default. */
  PUBLIC_API_DOCS: bool.optional(),
  /** The bearer token Prometheus scrapes /metrics with; unset, /metrics answers 404 and no request is measured. */
  METRICS_TOKEN: z
    .string()
    .regex(/^\S+$/, 'must be one word: it is sent as `Authorization: Bearer <token>`')
    .optional(),

  RATE_LIMIT_WINDOW_SECONDS: int(1).default(60),
  RATE_LIMIT_LOGIN: int(1).default(20),
  RATE_LIMIT_LOGIN_EMAIL: int(1).default(10),
  RATE_LIMIT_LOGIN_ACCOUNT: int(1).default(100),
  RATE_LIMIT_LOGIN_ACCOUNT_WINDOW_SECONDS: int(1).default(3600),
  RATE_LIMIT_SIGNUP: int(1).default(10),
  RATE_LIMIT_RECOVERY: int(1).default(5),
  RATE_LIMIT_RECOVERY_RECIPIENT: int(1).default(3),
  RATE_LIMIT_RECOVERY_RECIPIENT_WINDOW_SECONDS: int(1).default(3600),
  RATE_LIMIT_RESET: int(1).default(10),
  RATE_LIMIT_CALLBACK: int(1).default(30),
  /** Unsigned webhook posts (and failed signatures) one address may send per window; past it, 429 unread. */
  RATE_LIMIT_WEBHOOK_UNSIGNED: int(1).default(30),
  /** Unsigned privacy requests recorded per store and day; more are answered but not recorded. */
  WEBHOOK_UNSIGNED_PER_STORE_DAY: int(1, 10_000).default(20),
  /**
   * Signed webhooks recorded per store and day (UTC); past it they are answered and counted, not recorded. About a
   * thousand orders' events a day; an order's row and job are made all the same.
   */
  WEBHOOK_SIGNED_PER_STORE_DAY: int(1, 1_000_000).default(5000),
  /** The same for a store no client has: its events change nothing, so a few show that it sends them. */
  WEBHOOK_SIGNED_UNKNOWN_STORE_PER_DAY: int(1, 10_000).default(20),

  /** Synchronisations one user may start per window: each run calls both platforms for a whole catalogue. */
  RATE_LIMIT_SYNC: int(1).default(10),

  /** Searches (`q`) one user runs at once, and how many more of theirs wait for a turn before the next is refused. */
  SEARCH_CONCURRENCY_PER_USER: int(1, 100).default(1),
  SEARCH_QUEUE_PER_USER: int(0, 1000).default(4),
  /** Searches run at once in all, and how many more wait for a turn before the next is refused. */
  SEARCH_CONCURRENCY: int(1, 100).default(2),
  SEARCH_QUEUE: int(0, 10_000).default(16),

  GRAPHQL_MAX_DEPTH: int(1).default(8),
  GRAPHQL_MAX_ALIASES: int(0).default(15),
  GRAPHQL_MAX_COST: int(1).default(5000),
  /** Fields searching with `q` in one request: each is a count over its table that no other limit weighs. */
  GRAPHQL_MAX_SEARCHES: int(0).default(2),
  GRAPHQL_MAX_TOKENS: int(100).default(5000),
  /** Fields and fragments written in a document seen for the first time: what validating it may cost grows with them. */
  GRAPHQL_MAX_SELECTIONS: int(10).default(150),
  GRAPHQL_MAX_QUERY_LENGTH: int(100, 1_000_000).default(20_000),
  GRAPHQL_DOCUMENT_CACHE_BYTES: int(65_536).default(4 * 1024 * 1024),
  GRAPHQL_COMPILED_OPERATIONS: int(0, 10_000).default(32),
  GRAPHQL_MAX_ROWS: int(1).default(5000),
  ADMIN_FILE_CACHE_BYTES: int(65_536).default(4 * 1024 * 1024),

  RUN_WORKERS: bool.default(true),
  JOBS_POOL_MAX: int(1, 50).default(3),
  JOBS_POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(300).default(2),
  JOBS_CRON_CHECK_SECONDS: int(1, 45).default(30),
  /** How often pg-boss fails the jobs of a process that died (their expiry passed), so that they are retried. */
  JOBS_MAINTENANCE_SECONDS: int(1, 600).default(30),
  MAIL_CONCURRENCY: int(1, 50).default(2),
  MAIL_RETRY_LIMIT: int(0, 50).default(10),
  MAIL_RETRY_DELAY_SECONDS: int(1, 86_400).default(30),
  MAIL_RETRY_BACKOFF: bool.default(true),
  MAINTENANCE_CRON: cron.default('17 * * * *'),
  AUTHORIZATION_CODE_RETENTION_DAYS: int(1, 3650).default(30),
  /** How long history is kept (webhooks received, sync runs, finished jobs) before the prune job deletes it. */
  HISTORY_RETENTION_DAYS: int(1, 3650).default(90),
  /** How long the audit log (every write a person made) is kept before the prune job deletes it. */
  AUDIT_RETENTION_DAYS: int(1, 3650).default(365),

  /** When every client's health is worked out again (the Saúde screen, REST `/client-health/`). */
  HEALTH_CRON: cron.default('* * * * *'),
  /**
   * A kind of run (catalogue, stock) is late when its last success is older than this many times its schedule's
   * interval (attention), and critical past HEALTH_RUN_CRITICAL_FACTOR times.
   */
  HEALTH_RUN_LATE_FACTOR: int(1, 1000).default(3),
  HEALTH_RUN_CRITICAL_FACTOR: int(1, 1000).default(12),
  /** The last runs of a kind that failed in a row before the client is critical (one is attention). */
  HEALTH_FAILED_RUNS: int(1, 50).default(3),
  /** Runs in the last 24 hours that ended on Nuvemshop's 429s before the client needs attention. */
  HEALTH_RATE_LIMITED_RUNS: int(1, 1000).default(3),
  /** An order still `received` this long is stuck (attention). */
  HEALTH_ORDER_STUCK_MINUTES: int(1, 10_080).default(30),
  /** An order waiting for a person (held, rejected, uncertain, stuck) this long makes its client critical. */
  HEALTH_ORDER_CRITICAL_HOURS: int(1, 720).default(4),
  /** The health an alert is sent for: critical alone, or attention as well. */
  ALERT_LEVEL: z.enum(['critical', 'attention']).default('critical'),
  /** How long a client stays at ALERT_LEVEL or worse before its alert goes (minutes; 0: at the first check). */
  ALERT_AFTER_MINUTES: int(0, 10_080).default(15),
  /** At most one alert per client and reason in this many hours. */
  ALERT_REPEAT_HOURS: int(1, 8760).default(24),
  /** When the daily digest of every client not "Em dia" goes to those who receive alerts (cron, UTC). */
  ALERT_DIGEST_CRON: cron.default('0 11 * * *'),
  /** Where alerts are also posted, as JSON signed with ALERT_WEBHOOK_SECRET (a chat tool's incoming webhook). */
  ALERT_WEBHOOK_URL: z.url().optional(),
  ALERT_WEBHOOK_SECRET: z.string().min(16).optional(),
});

export type Registration = 'open' | 'approval' | 'closed';

/** Addresses that default to this process's own origin, which in production is never the public one. */
const PUBLIC_ADDRESSES = ['FRONTEND_HOST', 'CHECKOUT_URL'] as const;

/** Settings whose default is derived from other settings. */
type Derived = (typeof PUBLIC_ADDRESSES)[number] | 'PUBLIC_URL' | 'NUVEMSHOP_USER_AGENT';

export type Config = Omit<z.infer<typeof schema>, 'USERS_OPEN_REGISTRATION' | 'PUBLIC_API_DOCS' | Derived> & {
  USERS_OPEN_REGISTRATION: Registration;
  PUBLIC_API_DOCS: boolean;
} & Record<Derived, string>;

/** Settings whose development default must never reach production. */
const PRODUCTION_SECRETS: [keyof Config, string][] = [
  ['SECRET_KEY', DEV_SECRET_KEY],
  ['FIRST_SUPERUSER_PASSWORD', DEV_SUPERUSER_PASSWORD],
  ['TOKEN_ENCRYPTION_KEY', DEV_TOKEN_ENCRYPTION_KEY],
];

/** The shortest METRICS_TOKEN production takes: a guessable one would show anyone the product's traffic and queues. */
const METRICS_TOKEN_MIN_LENGTH = 16;

export class ConfigError extends Error {}

/**
 * The configuration of a process started from the command line (the gateway, a worker): a developer's .env (see
 * .env.example) fills in what the environment does not set, and an invalid setting ends the process with its reasons.
 */
export function loadProcessConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if ((parsed.data.ALERT_WEBHOOK_URL === undefined) !== (parsed.data.ALERT_WEBHOOK_SECRET === undefined))
    throw new ConfigError(
      'ALERT_WEBHOOK_URL and ALERT_WEBHOOK_SECRET go together: set both (alerts posted, signed) or neither',
    );
  const origin = `http://localhost:${parsed.data.PORT}`;
  const config: Config = {
    ...parsed.data,
    // A stranger must never reach store credentials: production waits for a superuser's approval by default;
    // development signs up at once, so the screens' signup → login flow works out of the box.
    USERS_OPEN_REGISTRATION:
      parsed.data.USERS_OPEN_REGISTRATION ?? (parsed.data.NODE_ENV === 'production' ? 'approval' : 'open'),
    // The API's description tells a stranger every route and field: production keeps it to itself unless told.
    PUBLIC_API_DOCS: parsed.data.PUBLIC_API_DOCS ?? parsed.data.NODE_ENV !== 'production',
    FRONTEND_HOST: parsed.data.FRONTEND_HOST ?? origin,
    CHECKOUT_URL: parsed.data.CHECKOUT_URL ?? `${origin}/`,
    PUBLIC_URL: parsed.data.PUBLIC_URL ?? parsed.data.FRONTEND_HOST ?? origin,
    NUVEMSHOP_USER_AGENT: parsed.data.NUVEMSHOP_USER_AGENT ?? `Sistema de Integracao (${parsed.data.FIRST_SUPERUSER})`,
  };
  if (config.NODE_ENV === 'production') {
    const tooWide = proxyTrustTooWide(config.TRUST_PROXY);
    if (tooWide) throw new ConfigError(tooWide);
    for (const [key, devDefault] of PRODUCTION_SECRETS) {
      if (config[key] === devDefault) {
        throw new ConfigError(`${key} keeps its development default; set it before running with NODE_ENV=production`);
      }
    }
    for (const key of PUBLIC_ADDRESSES) {
      if (parsed.data[key] === undefined) {
        throw new ConfigError(
          `${key} is not set; set it to the public address before running with NODE_ENV=production`,
        );
      }
    }
    if (config.METRICS_TOKEN !== undefined && config.METRICS_TOKEN.length < METRICS_TOKEN_MIN_LENGTH) {
      throw new ConfigError(
        `METRICS_TOKEN is shorter than ${METRICS_TOKEN_MIN_LENGTH} characters; set a long random one (e.g. \`openssl rand -hex 32\`) or leave it empty to turn /metrics off before running with NODE_ENV=production`,
      );
    }
    if (new URL(config.PUBLIC_URL).protocol !== 'https:') {
      // Nuvemshop refuses to register a webhook at any other address.
      const source =
        parsed.data.PUBLIC_URL === undefined ? ` (it defaults to FRONTEND_HOST, ${config.FRONTEND_HOST})` : '';
      throw new ConfigError(
        `PUBLIC_URL must be an https address${source}: Nuvemshop calls webhooks over https only; set it before running with NODE_ENV=production`,
      );
    }
  }
  return config;
}

/** The defaults a developer needs to know about, printed at start outside production. */
export function developmentNotice(config: Config): string[] {
  const notes: string[] = [];
  if (config.FIRST_SUPERUSER_PASSWORD === DEV_SUPERUSER_PASSWORD) {
    notes.push(
      `first superuser: ${config.FIRST_SUPERUSER} / ${DEV_SUPERUSER_PASSWORD} (development default; production requires FIRST_SUPERUSER_PASSWORD)`,
    );
  }
  if (config.SECRET_KEY === DEV_SECRET_KEY) {
    notes.push('SECRET_KEY uses its development default (production requires one of its own)');
  }
  if (config.TOKEN_ENCRYPTION_KEY === DEV_TOKEN_ENCRYPTION_KEY) {
    notes.push('TOKEN_ENCRYPTION_KEY uses its development default (production requires one of its own)');
  }
  if (!config.SMTP_HOST)
    notes.push('SMTP_HOST is not set: emails, password recovery links included, are written to the log');
  return notes;
}
