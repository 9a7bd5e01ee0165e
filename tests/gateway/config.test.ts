import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/config';

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
