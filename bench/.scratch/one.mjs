import { startServer } from '../lib/servers.mjs';
import { createHash } from 'node:crypto';
const env = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'x'.repeat(32), FIRST_SUPERUSER: 'admin@bench.example', FIRST_SUPERUSER_PASSWORD: 'bench-password-0123',
  TOKEN_ENCRYPTION_KEY: createHash('sha256').update('sistema-de-integracao benchmark data').digest('base64'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/bench', RATE_LIMIT_LOGIN: '1000000000', RATE_LIMIT_LOGIN_EMAIL: '1000000000', BCRYPT_COST: '12' };
const which = process.argv[2] ?? 'gateway';
const s = await startServer(which === 'gateway' ? { name: 'g', command: process.execPath, args: [...(process.argv[3] ? [process.argv[3]] : []), 'dist/gateway/main.js'], cwd: '/work/main', env, readyMessage: 'gateway listening' }
  : { name: 'b', command: process.execPath, args: ['bench/baseline.mjs'], cwd: '/work/main', env, readyMessage: 'baseline listening' });
const t0 = performance.now();
const login = await fetch(s.url + '/api/v1/login/access-token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=admin%40bench.example&password=bench-password-0123' });
const { access_token } = await login.json();
console.log('login ms', (performance.now() - t0).toFixed(1));
for (let i = 0; i < 15; i++) {
  const t = performance.now();
  const r = await fetch(s.url + '/api/v1/clients/?skip=0&limit=100', { headers: { authorization: 'Bearer ' + access_token } });
  await r.text();
  const t2 = performance.now();
  const r2 = await fetch(s.url + '/api/v1/clients/?skip=0&limit=1', { headers: { authorization: 'Bearer ' + access_token } });
  await r2.text();
  console.log('list100 ms', (t2 - t).toFixed(1), 'list1 ms', (performance.now() - t2).toFixed(1), r.status);
}
await s.stop();
