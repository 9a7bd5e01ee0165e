/**
 * The benchmark's baseline: a minimal Node http server answering the benchmarked requests with the same SQL
 * the gateway sends (through `pg`, the same pool size) and the same JSON, with no framework in between.
 * It verifies the same bearer tokens, decrypts and encrypts store tokens the same way and checks passwords
 * with bcrypt, so the gateway ÷ baseline ratio measures what the gateway's layers cost.
 *
 * Environment: DATABASE_URL, PORT (0 = any), SECRET_KEY, TOKEN_ENCRYPTION_KEY, DATABASE_POOL_MAX,
 * RATE_LIMIT_WINDOW_SECONDS, BASELINE_FRAMEWORK (`express` for the framework floor, see below).
 */
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import bcrypt from 'bcrypt';
import express from 'express';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { CLIENT_FIELDS } from './lib/scenarios.mjs';

const env = process.env;
const key = Buffer.from(env.TOKEN_ENCRYPTION_KEY ?? '', 'base64');
if (key.length !== 32) throw new Error('TOKEN_ENCRYPTION_KEY must be 32 bytes encoded in base64');
const secret = createSecretKey(Buffer.from(env.SECRET_KEY ?? '', 'utf8'));
const windowMs = Number(env.RATE_LIMIT_WINDOW_SECONDS ?? 60) * 1000;
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: Number(env.DATABASE_POOL_MAX ?? 10) });

const decrypt = (stored) => {
  if (stored == null) return null;
  const raw = Buffer.from(stored.slice(3), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
};
const encrypt = (plain) => {
  if (plain == null) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return 'v1:' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
};
const clientJson = (row) => ({
  id: row.id,
  url: row.url,
  nuvemshop_store_id: Number(row.nuvemshop_store_id),
  hiper_token: decrypt(row.hiper_token),
  nuvemshop_token: decrypt(row.nuvemshop_token),
  hiper_sync_update_image: row.hiper_sync_update_image,
  hiper_sync_update_dimensions: row.hiper_sync_update_dimensions,
  // The rest of a client as the gateway answers it: the store connection's state, as stored.
  nuvemshop_location_id: row.nuvemshop_location_id,
  sync_state: row.sync_state,
  last_synced_at: row.last_synced_at?.toISOString() ?? null,
  catalogue_synced_at: row.catalogue_synced_at?.toISOString() ?? null,
  name: row.name,
  installed_at: row.installed_at?.toISOString() ?? null,
  nuvemshop_scopes: row.nuvemshop_scopes,
  nuvemshop_missing_scopes: row.nuvemshop_missing_scopes,
  // The client's order settings.
  orders_enabled: row.orders_enabled,
  orders_send_on: row.orders_send_on,
  orders_payment_ids: row.orders_payment_ids,
  orders_release_on: row.orders_release_on,
  orders_cancel_in_store: row.orders_cancel_in_store,
  hiper_marketplace_cnpj: row.hiper_marketplace_cnpj,
  hiper_marketplace_name: row.hiper_marketplace_name,
  orders_enabled_at: row.orders_enabled_at?.toISOString() ?? null,
  redacted_at: row.redacted_at?.toISOString() ?? null,
  // Its locations' last read from the store.
  locations_read_at: row.locations_read_at?.toISOString() ?? null,
  locations_error: row.locations_error,
  archived_at: row.archived_at?.toISOString() ?? null,
});

class HttpError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

async function authenticate(req) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) throw new HttpError(401, 'Not authenticated');
  let claims;
  try {
    claims = jwt.verify(match[1], secret, { algorithms: ['HS256'] });
  } catch {
    throw new HttpError(403, 'Could not validate credentials');
  }
  const { rows } = await pool.query('select * from users where id = $1 limit 1', [claims.sub]);
  const user = rows[0];
  if (!user) throw new HttpError(404, 'User not found');
  if (user.token_version !== claims.ver) throw new HttpError(403, 'Could not validate credentials');
  if (!user.is_active) throw new HttpError(400, 'Inactive user');
  return user;
}

// Where the schema keeps row totals in `row_counts` (maintained by triggers), the gateway reads the total
// from there; otherwise it counts the rows. The baseline does the same as the schema it runs against.
const COUNT_FROM_TABLE = 'select total as count from row_counts where table_name = $1';
const COUNT_ROWS = 'select count(*) as count from clients';
const countSql = pool
  .query("select to_regclass('row_counts') is not null as kept")
  .then(({ rows }) => (rows[0].kept ? [COUNT_FROM_TABLE, ['clients']] : [COUNT_ROWS, []]));

async function listClients(skip, limit) {
  const [sql, params] = await countSql;
  const [page, total] = await Promise.all([
    limit === 0
      ? { rows: [] }
      : pool.query(
          'select * from clients where archived_at is null order by created_at desc, id desc limit $1 offset $2',
          [limit, skip],
        ),
    pool.query(sql, params),
  ]);
  return { data: page.rows.map(clientJson), count: Number(total.rows[0]?.count ?? 0) };
}

async function getClient(id) {
  const { rows } = await pool.query('select * from clients where id = $1 limit 1', [id]);
  if (!rows[0]) throw new HttpError(404, 'Client not found');
  return clientJson(rows[0]);
}

async function createClient(input) {
  if (typeof input?.url !== 'string' || !input.url) throw new HttpError(422, 'url is required');
  const now = new Date();
  const values = [
    randomUUID(),
    input.url,
    encrypt(input.hiper_token ?? null),
    encrypt(input.nuvemshop_token ?? null),
    Number(input.nuvemshop_store_id ?? 0),
    input.hiper_sync_update_image ?? true,
    input.hiper_sync_update_dimensions ?? true,
    now,
    now,
  ];
  const db = await pool.connect();
  try {
    await db.query('begin');
    const { rows } = await db.query(
      'insert into clients (id, url, hiper_token, nuvemshop_token, nuvemshop_store_id, hiper_sync_update_image, ' +
        'hiper_sync_update_dimensions, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *',
      values,
    );
    await db.query('commit');
    return clientJson(rows[0]);
  } catch (error) {
    await db.query('rollback').catch(() => {});
    throw error;
  } finally {
    db.release();
  }
}

// The statement rate-limiter-flexible runs for each budget the gateway's login spends.
const CONSUME = `insert into rate_limits values ($1, $2, $3) on conflict (key) do update set
  points = case when rate_limits.expire <= $4 then $2 else rate_limits.points + ($2) end,
  expire = case when rate_limits.expire <= $4 then $3 else rate_limits.expire end
  returning points, expire`;

async function login(form, ip) {
  const email = (form.get('username') ?? '').trim().toLowerCase();
  const now = Date.now();
  await pool.query(CONSUME, [`login:${ip}`, 1, now + windowMs, now]);
  await pool.query(CONSUME, [`login-email:${email}`, 1, now + windowMs, now]);
  const { rows } = await pool.query('select * from users where email = $1 limit 1', [email]);
  const user = rows[0];
  if (!user || !(await bcrypt.compare(form.get('password') ?? '', user.hashed_password))) {
    throw new HttpError(400, 'Incorrect email or password');
  }
  if (!user.is_active) throw new HttpError(400, 'Inactive user');
  const access = jwt.sign({ sub: user.id, ver: user.token_version, typ: 'access' }, secret, {
    algorithm: 'HS256',
    expiresIn: 8 * 24 * 3600,
  });
  return { access_token: access, token_type: 'bearer' };
}

/** A client as the scenarios' GraphQL documents select it: those fields only, in their order. */
const selected = (client) => Object.fromEntries(CLIENT_FIELDS.split(' ').map((field) => [field, client[field]]));

/** GraphQL requests are told apart by operation name only: the baseline parses no GraphQL. */
async function graphql(req, body) {
  await authenticate(req);
  const { operationName, variables = {} } = JSON.parse(body);
  if (operationName === 'ClientList') {
    const perPage = variables.perPage ?? 100;
    const page = await listClients((variables.page ?? 0) * perPage, perPage);
    return { data: { items: page.data.map(selected), total: { count: page.count } } };
  }
  if (operationName === 'ClientById') return { data: { data: selected(await getClient(variables.id)) } };
  throw new HttpError(400, 'Unknown operation');
}

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const ID = /^\/api\/v1\/clients\/([0-9a-f-]{36})$/i;

async function route(req) {
  const url = new URL(req.url, 'http://localhost');
  const path = url.pathname;
  if (req.method === 'GET' && path === '/api/v1/clients/') {
    await authenticate(req);
    const skip = Number(url.searchParams.get('skip') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 100);
    return listClients(skip, limit);
  }
  const byId = ID.exec(path);
  if (req.method === 'GET' && byId) {
    await authenticate(req);
    return getClient(byId[1]);
  }
  if (req.method === 'POST' && path === '/api/v1/clients/') {
    const body = await readBody(req);
    await authenticate(req);
    return createClient(JSON.parse(body));
  }
  if (req.method === 'POST' && path === '/api/v1/login/access-token') {
    return login(new URLSearchParams(await readBody(req)), req.socket.remoteAddress);
  }
  if (req.method === 'POST' && path === '/graphql') return graphql(req, await readBody(req));
  throw new HttpError(404, 'Not Found');
}

const failure = (error) => {
  const status = error instanceof HttpError ? error.status : 500;
  if (status === 500) console.error(error);
  return { status, body: { detail: error instanceof HttpError ? error.message : 'Internal Server Error' } };
};

/** Answers each request with `send(res, status, body)`. */
const handler = (send) => (req, res) => {
  route(req).then(
    (result) => send(res, 200, result),
    (error) => {
      const { status, body } = failure(error);
      send(res, status, body);
    },
  );
};

/** The baseline itself: node:http, nothing in between. */
const sendPlain = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

/**
 * GraphQL in the framework floor: Apollo Server 5 on Express (its Express integration, the JSON body read by
 * express.json) with a schema of the fields the scenarios select, whose resolvers run the baseline's own SQL. Apollo's
 * options are the gateway's where they cost nothing to leave out (no landing page, no cache hints, no inline
 * tracing), its defaults otherwise (its document store, CSRF prevention); none of the gateway's limits, rules or
 * plugins. What a GraphQL read costs through Apollo before any of the gateway's own work.
 */
const CLIENT_TYPE = `type Client {
  id: ID!
  url: String
  nuvemshop_store_id: Float
  hiper_token: String
  nuvemshop_token: String
  hiper_sync_update_image: Boolean
  hiper_sync_update_dimensions: Boolean
}`;
async function apolloFloor() {
  // Loaded here: the baseline itself has no GraphQL library in its process.
  const { ApolloServer } = await import('@apollo/server');
  const disabled = await import('@apollo/server/plugin/disabled');
  const { expressMiddleware } = await import('@as-integrations/express5');
  const apollo = new ApolloServer({
    typeDefs: `${CLIENT_TYPE}
      type ListMetadata { count: Int! }
      type Query {
        allClients(page: Int, perPage: Int): [Client!]!
        _allClientsMeta(page: Int, perPage: Int): ListMetadata
        Client(id: ID!): Client
      }`,
    resolvers: {
      Query: {
        allClients: async (_, args, context) => (await context.page(args)).data,
        _allClientsMeta: async (_, args, context) => ({ count: (await context.page(args)).count }),
        Client: (_, { id }) => getClient(id),
      },
    },
    introspection: false,
    plugins: [
      disabled.ApolloServerPluginLandingPageDisabled(),
      disabled.ApolloServerPluginCacheControlDisabled(),
      disabled.ApolloServerPluginInlineTraceDisabled(),
    ],
  });
  await apollo.start();
  return expressMiddleware(apollo, {
    context: async ({ req }) => {
      await authenticate(req);
      // A list and its total come from the one page read, as the baseline answers them.
      let page;
      return {
        page: ({ page: n = 0, perPage = 100 }) => (page ??= listClients(n * perPage, perPage)),
      };
    },
  });
}

/**
 * BASELINE_FRAMEWORK=express: the same handler inside a bare Express 5 app (one catch-all middleware answering
 * with res.json, no ETag), served as the gateway serves its app (gateway/http/server.ts: requests and responses
 * made with Express's prototypes): what the framework alone costs, the floor under the gateway's ratio. POST /graphql
 * goes through Apollo Server (above), the floor under a GraphQL ratio.
 */
async function expressApp() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.post('/graphql', express.json(), await apolloFloor());
  app.use(handler((res, status, body) => res.status(status).json(body)));
  return app;
}

const server =
  env.BASELINE_FRAMEWORK === 'express'
    ? (await import('../dist/gateway/http/server.js')).expressServer(await expressApp(), {})
    : http.createServer(handler(sendPlain));
server.keepAliveTimeout = 5000;
await countSql;
server.listen(Number(env.PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'baseline listening', url: `http://127.0.0.1:${server.address().port}` }));
});
const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
