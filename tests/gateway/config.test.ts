import express from 'express';
import proxyaddr from 'proxy-addr';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/config';
import { proxyTrust } from '../../gateway/http/trust';

const productionSecrets = {
  NODE_ENV: 'production',
  SECRET_KEY: 'a-production-secret-key-of-some-length',
  FIRST_SUPERUSER_PASSWORD: 'a-production-password',
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  FRONTEND_HOST: 'https://admin.integracao.example',
  CHECKOUT_URL: 'https://pay.integracao.example/checkout',
};

describe('configuration', () => {
  it('has working development defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8000, BCRYPT_COST: 12, ACCESS_TOKEN_EXPIRE_MINUTES: 60 * 24 * 8 });
    expect(config).toMatchObject({
      RATE_LIMIT_RECOVERY_RECIPIENT: 3,
      RATE_LIMIT_RECOVERY_RECIPIENT_WINDOW_SECONDS: 3600,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it.each(['SECRET_KEY', 'FIRST_SUPERUSER_PASSWORD', 'TOKEN_ENCRYPTION_KEY'])(
    'refuses production while %s keeps its development default, naming it',
    (name) => {
      const env: Record<string, string> = { ...productionSecrets };
      delete env[name];
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(name);
    },
  );

  it('starts in production with every secret set', () => {
    expect(loadConfig(productionSecrets).NODE_ENV).toBe('production');
  });

  it('points FRONTEND_HOST and CHECKOUT_URL at its own port unless they are set', () => {
    expect(loadConfig({})).toMatchObject({
      FRONTEND_HOST: 'http://localhost:8000',
      CHECKOUT_URL: 'http://localhost:8000/',
    });
    expect(loadConfig({ PORT: '9123' })).toMatchObject({
      FRONTEND_HOST: 'http://localhost:9123',
      CHECKOUT_URL: 'http://localhost:9123/',
    });
    expect(loadConfig({ PORT: '9123', FRONTEND_HOST: 'https://admin.example' }).FRONTEND_HOST).toBe(
      'https://admin.example',
    );
  });

  it.each(['FRONTEND_HOST', 'CHECKOUT_URL'])('refuses production without %s, naming it', (name) => {
    const env: Record<string, string> = { ...productionSecrets };
    delete env[name];
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('takes the alert webhook with its secret or not at all, and an alert level it knows', () => {
    expect(() => loadConfig({ ALERT_WEBHOOK_URL: 'https://chat.example/hook' })).toThrow(
      'ALERT_WEBHOOK_URL and ALERT_WEBHOOK_SECRET go together',
    );
    expect(() => loadConfig({ ALERT_WEBHOOK_SECRET: 'a-secret-of-sixteen' })).toThrow(ConfigError);
    expect(() => loadConfig({ ALERT_WEBHOOK_URL: 'https://chat.example/hook', ALERT_WEBHOOK_SECRET: 'short' })).toThrow(
      'ALERT_WEBHOOK_SECRET',
    );
    const config = loadConfig({ ALERT_WEBHOOK_URL: 'https://chat.example/hook', ALERT_WEBHOOK_SECRET: 'x'.repeat(16) });
    expect(config).toMatchObject({ ALERT_LEVEL: 'critical', ALERT_AFTER_MINUTES: 15, ALERT_REPEAT_HOURS: 24 });
    expect(() => loadConfig({ ALERT_LEVEL: 'ok' })).toThrow('ALERT_LEVEL');
  });

  it('names each invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', TOKEN_ENCRYPTION_KEY: 'short' })).toThrow(
      /PORT[\s\S]*TOKEN_ENCRYPTION_KEY/,
    );
    expect(() => loadConfig({ SMTP_TLS: 'maybe' })).toThrow('SMTP_TLS');
  });

  it('documents every variable in .env.example', async () => {
    const { readFileSync } = await import('node:fs');
    const example = readFileSync('.env.example', 'utf8');
    const source = readFileSync('gateway/config.ts', 'utf8');
    const names = [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) expect(example, name).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
  });
});

describe('store synchronisation settings', () => {
  it('has the platforms’ addresses and the contract’s schedule by default', () => {
    expect(loadConfig({})).toMatchObject({
      HIPER_API_URL: 'https://ms-ecommerce.hiper.com.br/api/v1',
      NUVEMSHOP_API_URL: 'https://api.nuvemshop.com.br/v1',
      NUVEMSHOP_USER_AGENT: 'Sistema de Integracao (admin@example.com)',
      SYNC_CATALOGUE_CRON: '0 * * * *',
      SYNC_STOCK_INTERVAL_SECONDS: 600,
      SYNC_FULL_READ_CRON: '30 3 * * *',
      SYNC_CONCURRENCY: 20,
      SYNC_SUSPENDED_CHECK_MINUTES: 60,
      PUBLIC_URL: 'http://localhost:8000',
    });
  });

  it('names FIRST_SUPERUSER as the contact in the User-Agent unless NUVEMSHOP_USER_AGENT is set', () => {
    expect(loadConfig({ FIRST_SUPERUSER: 'ti@loja.example' }).NUVEMSHOP_USER_AGENT).toBe(
      'Sistema de Integracao (ti@loja.example)',
    );
    expect(loadConfig({ NUVEMSHOP_USER_AGENT: 'Integrador (suporte@x.example)' }).NUVEMSHOP_USER_AGENT).toBe(
      'Integrador (suporte@x.example)',
    );
    expect(() => loadConfig({ NUVEMSHOP_USER_AGENT: 'Integrador' })).toThrow(/NUVEMSHOP_USER_AGENT: must name/);
  });

  it('refuses a NUVEMSHOP_USER_AGENT that is not ASCII at start, saying so', () => {
    expect(() => loadConfig({ NUVEMSHOP_USER_AGENT: 'Sistema de Integração (ti@loja.example)' })).toThrow(
      /NUVEMSHOP_USER_AGENT: must be ASCII/,
    );
    expect(loadConfig({ FIRST_SUPERUSER: 'ti@loja.example' }).NUVEMSHOP_USER_AGENT).toMatch(/^[\x20-\x7e]+$/);
  });

  it('takes PUBLIC_URL from FRONTEND_HOST unless it is set', () => {
    expect(loadConfig({ FRONTEND_HOST: 'https://admin.example' }).PUBLIC_URL).toBe('https://admin.example');
    expect(loadConfig({ FRONTEND_HOST: 'https://admin.example', PUBLIC_URL: 'https://hooks.example' }).PUBLIC_URL).toBe(
      'https://hooks.example',
    );
    expect(() => loadConfig({ PUBLIC_URL: 'not an address' })).toThrow('PUBLIC_URL');
  });

  it('refuses production with a PUBLIC_URL that is not https, naming it, whether set or taken from FRONTEND_HOST', () => {
    expect(() => loadConfig({ ...productionSecrets, PUBLIC_URL: 'http://hooks.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...productionSecrets, PUBLIC_URL: 'http://hooks.example' })).toThrow(
      /PUBLIC_URL must be an https address/,
    );
    expect(() => loadConfig({ ...productionSecrets, FRONTEND_HOST: 'http://admin.example' })).toThrow(
      /PUBLIC_URL must be an https address \(it defaults to FRONTEND_HOST, http:\/\/admin\.example\)/,
    );
    expect(loadConfig({ ...productionSecrets, PUBLIC_URL: 'https://hooks.example' }).PUBLIC_URL).toBe(
      'https://hooks.example',
    );
    expect(loadConfig(productionSecrets).PUBLIC_URL).toBe(productionSecrets.FRONTEND_HOST);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8000' }).PUBLIC_URL).toBe('http://localhost:8000');
  });

  it('keeps SYNC_STOCK_INTERVAL_SECONDS between 10 seconds and a day', () => {
    expect(loadConfig({ SYNC_STOCK_INTERVAL_SECONDS: '10' }).SYNC_STOCK_INTERVAL_SECONDS).toBe(10);
    expect(loadConfig({ SYNC_STOCK_INTERVAL_SECONDS: '86400' }).SYNC_STOCK_INTERVAL_SECONDS).toBe(86_400);
    for (const value of ['9', '86401', '1.5', 'often']) {
      expect(() => loadConfig({ SYNC_STOCK_INTERVAL_SECONDS: value }), value).toThrow('SYNC_STOCK_INTERVAL_SECONDS');
    }
  });

  it('keeps SYNC_SUSPENDED_CHECK_MINUTES between a minute and a day', () => {
    expect(loadConfig({ SYNC_SUSPENDED_CHECK_MINUTES: '1' }).SYNC_SUSPENDED_CHECK_MINUTES).toBe(1);
    expect(loadConfig({ SYNC_SUSPENDED_CHECK_MINUTES: '1440' }).SYNC_SUSPENDED_CHECK_MINUTES).toBe(1440);
    for (const value of ['0', '1441', '2.5', 'hourly']) {
      expect(() => loadConfig({ SYNC_SUSPENDED_CHECK_MINUTES: value }), value).toThrow('SYNC_SUSPENDED_CHECK_MINUTES');
    }
  });

  it('refuses schedules that are not five cron fields, and a concurrency below 1, naming each', () => {
    expect(loadConfig({ SYNC_CATALOGUE_CRON: '*/15 * * * *' }).SYNC_CATALOGUE_CRON).toBe('*/15 * * * *');
    expect(() => loadConfig({ SYNC_CATALOGUE_CRON: 'hourly' })).toThrow('SYNC_CATALOGUE_CRON');
    expect(() => loadConfig({ SYNC_FULL_READ_CRON: '30 3 * *' })).toThrow('SYNC_FULL_READ_CRON');
    expect(() => loadConfig({ SYNC_CONCURRENCY: '0' })).toThrow('SYNC_CONCURRENCY');
    expect(() => loadConfig({ HIPER_API_URL: 'ms-ecommerce' })).toThrow('HIPER_API_URL');
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count, believing that many proxies back from the gateway', () => {
    const { TRUST_PROXY } = loadConfig({ TRUST_PROXY: '2' });
    expect(TRUST_PROXY).toBe(2);
    const trust = proxyTrust(TRUST_PROXY);
    expect([0, 1, 2].map((hop) => trust('203.0.113.9', hop))).toEqual([true, true, false]);
  });

  it("takes addresses, CIDR ranges and proxy-addr's names, which both proxy-addr and Express accept", () => {
    const { TRUST_PROXY } = loadConfig({ TRUST_PROXY: ' Loopback, 10.0.0.0/8 ,192.168.1.5,fd00::/8' });
    expect(TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
    const trust = proxyTrust(TRUST_PROXY);
    const compiled = proxyaddr.compile(TRUST_PROXY as string[]);
    const app = express();
    app.set('trust proxy', TRUST_PROXY);
    const expressTrust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
    for (const [address, trusted] of [
      ['127.0.0.1', true],
      ['::1', true],
      ['10.20.30.40', true],
      ['192.168.1.5', true],
      ['fd00::1', true],
      ['192.168.1.6', false],
      ['203.0.113.9', false],
    ] as const) {
      expect(trust(address, 0), address).toBe(trusted);
      expect(compiled(address, 0), address).toBe(trusted);
      expect(expressTrust(address, 0), address).toBe(trusted);
    }
  });

  it('trusts no proxy by default, or when false or 0', () => {
    for (const env of [{}, { TRUST_PROXY: '' }, { TRUST_PROXY: 'false' }, { TRUST_PROXY: '0' }]) {
      const trust = proxyTrust(loadConfig(env).TRUST_PROXY);
      expect(trust('127.0.0.1', 0), JSON.stringify(env)).toBe(false);
    }
  });

  it('refuses what is neither a count nor an address, naming the variable and the entry', () => {
    for (const value of ['proxy.example.com', '10.0.0.0/40', 'loopback,nope', '-1']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: ".+" is not an address/);
    }
  });

  it('refuses true in production, naming the alternatives', () => {
    for (const value of ['true', 'yes']) {
      expect(() => loadConfig({ ...productionSecrets, TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ...productionSecrets, TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY=true[\s\S]*number of proxies[\s\S]*their addresses/,
      );
    }
    expect(loadConfig({ ...productionSecrets, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ ...productionSecrets, TRUST_PROXY: 'loopback' }).TRUST_PROXY).toEqual(['loopback']);
  });

  it('refuses in production a hop count above 5, naming the alternatives', () => {
    for (const value of ['6', '99']) {
      expect(() => loadConfig({ ...productionSecrets, TRUST_PROXY: value }), value).toThrow(
        new RegExp(`TRUST_PROXY=${value} believes ${value} proxies[\\s\\S]*number of proxies[\\s\\S]*their addresses`),
      );
    }
    expect(loadConfig({ ...productionSecrets, TRUST_PROXY: '5' }).TRUST_PROXY).toBe(5);
    expect(loadConfig({ TRUST_PROXY: '99' }).TRUST_PROXY).toBe(99);
  });

  it('refuses in production address lists that cover more than a /8 of public IPv4 or a /24 of public IPv6', () => {
    for (const [value, family] of [
      ['0.0.0.0/1,128.0.0.0/1', 'IPv4'],
      ['0/1', 'notation'],
      ['0x0.0.0.0/1', 'notation'],
      ['11.0.0.0/7', 'IPv4'],
      ['11.0.0.0/254.0.0.0', 'IPv4'],
      // Several ranges that each fit count together.
      ['11.0.0.0/8,12.0.0.0/8', 'IPv4'],
      // IPv4-mapped IPv6 ranges match IPv4 clients, so they count as IPv4.
      ['::ffff:0.0.0.0/96', 'IPv4'],
      ['::ffff:0:0/97', 'IPv4'],
      ['::ffff:11.0.0.0/103', 'IPv4'],
      ['::/1', 'IPv6'],
      ['2000::/3', 'IPv6'],
      ['2600::/23', 'IPv6'],
      // A range that holds private space and more is counted whole.
      ['8.0.0.0/6', 'IPv4'],
    ]) {
      const load = () => loadConfig({ ...productionSecrets, TRUST_PROXY: value });
      expect(load, value).toThrow(ConfigError);
      expect(load, value).toThrow(
        family === 'notation' ? /notation production does not measure/ : new RegExp(`public ${family} addresses`),
      );
      expect(load, value).toThrow(/number of proxies[\s\S]*their addresses/);
    }
    // Address 0/0 and ::/0 are not even ranges to proxy-addr.
    for (const value of ['0.0.0.0/0', '::/0']) {
      expect(() => loadConfig({ ...productionSecrets, TRUST_PROXY: value }), value).toThrow(/is not an address/);
    }
    // Outside production the operator's word stands.
    expect(loadConfig({ TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1' }).TRUST_PROXY).toEqual(['0.0.0.0/1', '128.0.0.0/1']);
  });

  it('accepts in production the proxies of real deployments', () => {
    for (const value of [
      'loopback,linklocal,uniquelocal',
      '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7,fe80::/10,127.0.0.1/8,::1',
      '11.0.0.0/8',
      '203.0.113.7,::ffff:198.51.100.7,2001:db8::7,fe80::1%eth0',
      '10.0.0.0/255.0.0.0',
      // A CDN's published ranges.
      '173.245.48.0/20,103.21.244.0/22,104.16.0.0/13,172.64.0.0/13,131.0.72.0/22,2400:cb00::/32,2606:4700::/32,2a06:98c0::/29,2600:9000::/28',
    ]) {
      expect(loadConfig({ ...productionSecrets, TRUST_PROXY: value }).TRUST_PROXY, value).toEqual(value.split(','));
    }
  });

  it('accepts true outside production, believing every proxy', () => {
    const { TRUST_PROXY } = loadConfig({ TRUST_PROXY: 'true' });
    expect(TRUST_PROXY).toBe(true);
    expect(proxyTrust(TRUST_PROXY)('203.0.113.9', 5)).toBe(true);
  });
});
