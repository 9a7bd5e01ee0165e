import { startServer } from '../lib/servers.mjs';
import { runLoad } from '../lib/load.mjs';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const env = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'x'.repeat(32), FIRST_SUPERUSER: 'admin@bench.example', FIRST_SUPERUSER_PASSWORD: 'bench-password-0123',
  TOKEN_ENCRYPTION_KEY: createHash('sha256').update('sistema-de-integracao benchmark data').digest('base64'), DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench', RATE_LIMIT_LOGIN: '1000000000', RATE_LIMIT_LOGIN_EMAIL: '1000000000', BCRYPT_COST: '12', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' };
const which = process.argv[2] ?? 'gateway';
const path = process.argv[3] ?? '/api/v1/clients/?skip=0&limit=100';
const prof = process.argv[4] === 'prof' ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [];
const s = await startServer(which === 'gateway' ? { name: 'g', command: process.execPath, args: [...prof, 'dist/gateway/main.js'], cwd: '/work/main', env, readyMessage: 'gateway listening' }
  : { name: 'b', command: process.execPath, args: ['bench/baseline.mjs'], cwd: '/work/main', env, readyMessage: 'baseline listening' });
const login = await fetch(s.url + '/api/v1/login/access-token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=admin%40bench.example&password=bench-password-0123' });
const { access_token } = await login.json();
const request = { path, headers: { authorization: 'Bearer ' + access_token } };
await runLoad({ url: s.url, connections: 32, duration: 2, request });
await new Promise((r) => setTimeout(r, 500));
const c0 = cpu(s.child.pid);
const r = await runLoad({ url: s.url, connections: 32, duration: Number(process.env.D ?? 5), request });
const c1 = cpu(s.child.pid);
console.log('cpu ms/req', ((c1 - c0) / r.requests).toFixed(2), which, path, Math.round(r.rps), r.p50?.toFixed(1), r.p99?.toFixed(1), r.errors, JSON.stringify(r.statuses));
await s.stop();
