import { spawn } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import pg from 'pg';

/** Creates the benchmark database when missing (connecting to the `postgres` database of the same server). */
export async function ensureDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replace(/"/g, '""')}"`);
    return !rowCount;
  } finally {
    await client.end();
  }
}

/** Applies the gateway's migrations with its own compiled migration runner. */
export function migrate(root, databaseUrl) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/gateway/migrate.js'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrations failed: ${stderr.trim()}`))));
  });
}

export function encryptToken(key, plain) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return 'v1:' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

const CHUNK = 100_000;

/**
 * Seeds users, items and clients at the given scale with `INSERT … SELECT generate_series` (PostgreSQL builds
 * the rows itself, so a million rows take seconds, not a million round trips). Every client carries both store
 * tokens, encrypted exactly as the gateway stores them (1,000 distinct ciphertexts reused across rows). All
 * users share one bcrypt hash made at the configured cost. The scale is recorded as the database comment,
 * which is how a later run knows it can reuse the data.
 */
export async function seed(pool, scale, { password, superuser, cost, encryptionKey, log }) {
  const started = Date.now();
  const hash = await bcrypt.hash(password, cost);
  const db = await pool.connect();
  try {
    await db.query('truncate table items, clients, users, rate_limits, deleted_users, authorization_codes cascade');

    await db.query(
      `insert into users (id, email, full_name, hashed_password, is_active, is_superuser, created_at, updated_at)
       select gen_random_uuid(),
              case when g = 0 then $1 else 'user-' || lpad(g::text, 6, '0') || '@bench.example' end,
              'Bench User ' || g, $2, true, g = 0, now() - g * interval '1 second', now()
       from generate_series(0, $3::int - 1) g`,
      [superuser, hash, scale.users],
    );
    log(`users: ${scale.users.toLocaleString('en')}`);

    const owners = Math.min(scale.owners, scale.users);
    for (let from = 0; from < scale.items; from += CHUNK) {
      const to = Math.min(scale.items, from + CHUNK) - 1;
      await db.query(
        `with o as (select array_agg(id order by email) ids from (select id, email from users order by email limit $3) u)
         insert into items (id, title, description, owner_id, created_at, updated_at)
         select gen_random_uuid(), 'Item ' || g, 'Description of item ' || g, o.ids[1 + g % $3],
                now() - g * interval '1 second', now()
         from o, generate_series($1::int, $2::int) g`,
        [from, to, owners],
      );
      log(`items: ${(to + 1).toLocaleString('en')} / ${scale.items.toLocaleString('en')}`);
    }

    await db.query('create temporary table bench_tokens (n int primary key, hiper text, nuvemshop text)');
    const values = [];
    const params = [];
    for (let n = 0; n < 1000; n++) {
      values.push(`($${params.length + 1}, $${params.length + 2}, $${params.length + 3})`);
      params.push(n, encryptToken(encryptionKey, `hiper-${n}-${randomBytes(12).toString('hex')}`));
      params.push(encryptToken(encryptionKey, `nuvemshop-${n}-${randomBytes(20).toString('hex')}`));
    }
    await db.query(`insert into bench_tokens values ${values.join(', ')}`, params);
    for (let from = 1; from <= scale.clients; from += CHUNK) {
      const to = Math.min(scale.clients, from + CHUNK - 1);
      await db.query(
        `insert into clients (id, url, hiper_token, nuvemshop_token, nuvemshop_store_id, hiper_sync_update_image,
                              hiper_sync_update_dimensions, created_at, updated_at)
         select gen_random_uuid(), 'https://store-' || lpad(g::text, 7, '0') || '.bench.example', t.hiper, t.nuvemshop,
                g, g % 3 <> 0, g % 5 <> 0, now() - g * interval '1 second', now()
         from generate_series($1::int, $2::int) g join bench_tokens t on t.n = g % 1000`,
        [from, to],
      );
      log(`clients: ${to.toLocaleString('en')} / ${scale.clients.toLocaleString('en')}`);
    }
    await db.query('drop table bench_tokens');
  } finally {
    db.release();
  }
  log('vacuum analyze');
  await pool.query('vacuum analyze users, items, clients');
  await recordScale(pool, { ...scale, cost });
  return Date.now() - started;
}

export async function seededScale(pool) {
  const { rows } = await pool.query(
    'select shobj_description(oid, $1) as comment from pg_database where datname = current_database()',
    ['pg_database'],
  );
  try {
    return JSON.parse(rows[0]?.comment ?? 'null')?.benchScale ?? null;
  } catch {
    return null;
  }
}

async function recordScale(pool, scale) {
  const { rows } = await pool.query('select current_database() as name');
  const comment = JSON.stringify({ benchScale: scale }).replace(/'/g, "''");
  await pool.query(`comment on database "${rows[0].name.replace(/"/g, '""')}" is '${comment}'`);
}

/** Removes what earlier runs left behind: created clients and rate-limit counters. */
export async function cleanUp(pool) {
  await pool.query("delete from clients where url like 'https://created-%'");
  await pool.query('delete from rate_limits');
}
