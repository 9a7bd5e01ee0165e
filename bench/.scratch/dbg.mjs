import { startServer } from '/work/main/bench/lib/servers.mjs';
import { runLoad } from '/work/main/bench/lib/load.mjs';
import { scenarios } from '/work/main/bench/lib/scenarios.mjs';
import jwt from 'jsonwebtoken';
import pg from 'pg';
const env = { ...process.env, SECRET_KEY: 'x'.repeat(32), TOKEN_ENCRYPTION_KEY: (await import('node:crypto')).createHash('sha256').update('sistema-de-integracao benchmark data').digest('base64'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/bench', PORT: '0' };
const s = await startServer({ name: 'b', command: process.execPath, args: ['bench/baseline.mjs'], cwd: '/work/main', env, readyMessage: 'baseline listening' });
const pool = new pg.Pool({ connectionString: env.DATABASE_URL });
const u = (await pool.query("select id from users where is_superuser")).rows[0];
const ids = (await pool.query("select id from clients limit 100")).rows.map((r) => r.id);
const token = jwt.sign({ sub: u.id, ver: 0, typ: 'access' }, env.SECRET_KEY, { algorithm: 'HS256' });
const list = scenarios({ token, ids, deepSkip: 1000, users: ['admin@bench.example'], password: 'bench-password-0123', tag: 't' });
for (const k of ['restCreate', 'login']) {
  const sc = list.find((x) => x.key === k);
  const r = await runLoad({ url: s.url, connections: 32, duration: 2, request: sc.request });
  console.log(k, Math.round(r.rps), r.p50, r.p99, r.errors, r.statuses);
}
await s.stop(); await pool.end();
