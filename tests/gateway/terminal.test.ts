import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../gateway/config';
import { startBanner } from '../../gateway/terminal';
import { createTestDatabase } from '../support/database';
import { MAIN, spawnGateway } from '../support/process';

const PRODUCTION_SETTINGS = {
  SECRET_KEY: 'a-production-secret-key-of-some-length',
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  FRONTEND_HOST: 'https://admin.example.com',
  CHECKOUT_URL: 'https://checkout.example.com/',
};

let database: { url: string; drop(): Promise<void> };
let env: Record<string, string>;
beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: database.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BCRYPT_COST: '4',
  };
});
afterAll(() => database?.drop());

/** Color and cursor codes, which a terminal shows as colors and a test does not need. */
const plain = (text: string) =>
  text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '').replace(/\r/g, '');

const BANNER_PRINTED = /is running at[\s\S]*recovery links.*\n/;

/**
 * The built gateway with a terminal on its output, as when a person runs it: `script` gives it a pseudo-terminal.
 * Returns everything it printed until `until` matched, then stops it.
 */
async function runInTerminal(extra: Record<string, string>, until = BANNER_PRINTED): Promise<string> {
  // `script -c` runs its command through a shell (the paths here hold no shell syntax), which `exec` replaces with
  // the gateway: `script` then ends when the gateway does, not before.
  const child = spawn('script', ['-qfec', `exec ${process.execPath} ${MAIN}`, '/dev/null'], {
    env: { ...env, ...extra },
    // Its input stays open: `script` ends the session when its input ends.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not seen: ${until}\n${output}`)), 25_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (until.test(plain(output))) {
          clearTimeout(timer);
          resolve(plain(output));
        }
      });
      void exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
  } finally {
    // The gateway is the pseudo-terminal's foreground process: Ctrl-C reaches it as it would from a keyboard.
    child.stdin!.write('\x03');
    await exited;
  }
}

describe('at a terminal, outside production', () => {
  it('logs readable lines, then says where the product is, who logs in first and where recovery links go', async () => {
    // The gateway takes any free port here, so the recovery address is given as a developer's .env would.
    const output = await runInTerminal({
      FIRST_SUPERUSER: 'owner@example.com',
      FRONTEND_HOST: 'http://localhost:8000',
    });
    const lines = output.split('\n').filter(Boolean);
    expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: gateway listening$/m);
    const url = /is running at (http:\/\/localhost:\d+)/.exec(output)![1];
    expect(output).toContain(`admin            ${url}/\n`);
    expect(output).toContain(`${url}/docs`);
    expect(output).toContain(`${url}/graphql`);
    expect(output).toMatch(/first superuser +owner@example\.com \/ changethis \(the development default/);
    expect(output).toMatch(
      /recovery links +http:\/\/localhost:8000\/reset-password\?token=…, written to this log \(SMTP_HOST is not set/,
    );
  });

  it('never prints a password that is not the development default', async () => {
    const output = await runInTerminal({ FIRST_SUPERUSER_PASSWORD: 'a-password-of-its-own' });
    expect(output).toMatch(/first superuser +admin@example\.com \(password from FIRST_SUPERUSER_PASSWORD\)/);
    expect(output).not.toContain('a-password-of-its-own');
  });

  it('says recovery links go by email when SMTP is set, to the frontend address', () => {
    const config = loadConfig({
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: '2525',
      FRONTEND_HOST: 'https://admin.example.com',
    });
    expect(startBanner(config, 'http://localhost:8000')).toMatch(
      /recovery links +https:\/\/admin\.example\.com\/reset-password\?token=…, sent by email through smtp\.example\.com:2525/,
    );
  });
});

describe('JSON lines stay the format', () => {
  it('in production, even at a terminal', async () => {
    const output = await runInTerminal(
      { NODE_ENV: 'production', ...PRODUCTION_SETTINGS, FIRST_SUPERUSER_PASSWORD: 'a-production-password' },
      /"msg":"gateway listening".*\n/,
    );
    const lines = output.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('when the output is piped, as when a program reads it', async () => {
    const gateway = await spawnGateway({ ...env, NODE_ENV: 'development' });
    try {
      for (const line of gateway.lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(gateway.lines.join('\n')).not.toContain('is running at');
    } finally {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
  });
});
