const { createHash } = require('node:crypto');
Object.assign(process.env, { NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'x'.repeat(32), FIRST_SUPERUSER: 'admin@bench.example', FIRST_SUPERUSER_PASSWORD: 'bench-password-0123',
  TOKEN_ENCRYPTION_KEY: createHash('sha256').update('sistema-de-integracao benchmark data').digest('base64'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/bench', LOG_LEVEL: 'warn' });
const mb = (n) => (n / 1e6).toFixed(1);
const show = (label) => { global.gc?.(); const m = process.memoryUsage(); console.log(label, 'rss', mb(m.rss), 'heapUsed', mb(m.heapUsed), 'heapTotal', mb(m.heapTotal), 'external', mb(m.external), 'arrayBuffers', mb(m.arrayBuffers)); };
show('empty');
const { loadConfig } = require('/work/main/dist/gateway/config.js');
const { startGateway, createLogger } = require('/work/main/dist/gateway/gateway.js');
show('required');
(async () => {
  const config = loadConfig();
  const g = await startGateway(config, createLogger(config));
  show('started');
  await g.close();
  process.exit(0);
})();
