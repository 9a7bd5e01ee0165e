import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../gateway/paths';
import { createTestDatabase } from '../support/database';
import { freePort } from '../support/net';
import { startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { MAIN, spawnGateway } from '../support/process';

let dir: string;
let platform: NuvemshopStandIn;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-start-'));
  chmodSync(dir, 0o755);
  platform = await startNuvemshopStandIn();
  env = {
    PORT: '0',
    HOST: '127.0.0.1',
    EMBEDDED_PG_DIR: path.join(dir, 'postgres'),
    // A port the system has just handed out and taken back: a random one can be in use by a connection.
    EMBEDDED_PG_PORT: String(await freePort()),
    BCRYPT_COST: '4',
    FIRST_SUPERUSER: 'first@example.com',
    FIRST_SUPERUSER_PASSWORD: 'first-password',
    NUVEMSHOP_TOKEN_URL: platform.url,
  };
});
afterAll(async () => {
  await platform?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function login(url: string): Promise<string> {
  const answer = await fetch(`${url}/api/v1/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'first@example.com', password: 'first-password' }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

describe('npm start without DATABASE_URL', () => {
  it('runs an embedded PostgreSQL whose data survives a restart, and stops cleanly on SIGTERM', async () => {
    const first = await spawnGateway(env);
    const token = await login(first.url);
    const created = await fetch(`${first.url}/api/v1/clients/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://persisted.example' }),
    });
    expect(created.status).toBe(200);

    // A request in flight when the signal arrives still gets its answer.
    platform.answer = () => ({
      status: 200,
      body: { access_token: 'slow', token_type: 'bearer', scope: '', user_id: 55 },
      delayMs: 800,
    });
    const inFlight = fetch(`${first.url}/api/v1/callback/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: 'in-flight' }),
    });
    await new Promise((r) => setTimeout(r, 200));
    first.child.kill('SIGTERM');
    const answer = await inFlight.catch((error) => {
      throw new Error(`${error}\n${first.lines.join('\n')}`);
    });
    expect(answer.status).toBe(200);
    expect(await first.exited).toBe(0);
    expect(first.lines.some((l) => l.includes('gateway stopped'))).toBe(true);

    const second = await spawnGateway(env);
    try {
      expect(second.lines.some((l) => l.includes('migrations applied'))).toBe(false);
      const list = await fetch(`${second.url}/api/v1/clients/`, {
        headers: { Authorization: `Bearer ${await login(second.url)}` },
      });
      const body = (await list.json()) as { data: { url: string }[]; count: number };
      expect(body.data.map((c) => c.url).sort()).toEqual(['https://persisted.example', 'nuvemshop://55']);
      expect(second.lines.some((l) => l.includes('first superuser created'))).toBe(false);
    } finally {
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    }
  }, 120_000);

  it('stops cleanly on a SIGTERM received while it starts, once it has started', async () => {
    const database = await createTestDatabase(inject('postgresUrl'));
    try {
      const child = spawn(process.execPath, [MAIN], {
        env: { ...env, DATABASE_URL: database.url, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await new Promise<void>((resolve) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          // The development notes come before the database is opened: the signal arrives while it starts.
          if (!output) resolve();
          output += chunk.toString();
        });
      });
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      expect(output).toMatch(/"signal":"SIGTERM","msg":"stopping"[\s\S]*"msg":"gateway stopped"/);
    } finally {
      await database.drop();
    }
  });

  it('says why when the embedded PostgreSQL cannot start, and which setting to change', async () => {
    // Something else already listens on the port the embedded database is told to use.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, 'localhost', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const failed = spawnGateway({ ...env, EMBEDDED_PG_PORT: String(port) }, 60_000);
      await expect(failed).rejects.toThrow(
        new RegExp(`gateway exited with 1 before listening:[\\s\\S]*port ${port}[\\s\\S]*EMBEDDED_PG_PORT`),
      );
      await expect(failed).rejects.toThrow(/already in use/);
      await expect(failed).rejects.not.toThrow(/undefined/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('refuses to start in production with a development secret, naming it', async () => {
    await expect(spawnGateway({ ...env, NODE_ENV: 'production' }, 20_000)).rejects.toThrow(/SECRET_KEY/);
  });

  it('refuses to start in production without its public addresses, naming them', async () => {
    const production = {
      ...env,
      NODE_ENV: 'production',
      SECRET_KEY: 'a-production-secret-key-of-some-length',
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    };
    await expect(spawnGateway(production, 20_000)).rejects.toThrow(/FRONTEND_HOST/);
    await expect(spawnGateway({ ...production, FRONTEND_HOST: 'https://admin.example' }, 20_000)).rejects.toThrow(
      /CHECKOUT_URL/,
    );
  });
});

/** A process as /proc shows it; its start time tells it apart from a later process given the same id. */
interface ProcessEntry {
  pid: number;
  ppid: number;
  started: string;
  command: string;
}

function processes(): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after it are counted from its end.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(name), ppid: Number(fields[1]), started: fields[19], command });
    } catch {
      // ended while we looked
    }
  }
  return found;
}

/** `pid` and every process under it. */
function tree(pid: number): ProcessEntry[] {
  const all = processes();
  const inTree = all.filter((p) => p.pid === pid);
  for (let i = 0; i < inTree.length; i++) inTree.push(...all.filter((p) => p.ppid === inTree[i].pid));
  return inTree;
}

const stillRunning = (entries: ProcessEntry[]) => {
  const now = processes();
  return entries.filter((e) => now.some((p) => p.pid === e.pid && p.started === e.started));
};

const mtime = (file: string) => statSync(path.join(projectRoot, file)).mtimeMs;

describe('npm start', () => {
  let startDir: string;
  beforeAll(() => {
    startDir = mkdtempSync(path.join(os.tmpdir(), 'integracao-npm-start-'));
    chmodSync(startDir, 0o755);
  });
  afterAll(() => rmSync(startDir, { recursive: true, force: true }));

  /** `npm start` as a person or a process manager runs it, with its output piped (so the log is JSON lines). */
  async function npmStart(port: number) {
    const child = spawn('npm', ['start'], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        EMBEDDED_PG_DIR: path.join(startDir, 'postgres'),
        EMBEDDED_PG_PORT: String(await freePort()),
        BCRYPT_COST: '4',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const started = performance.now();
    const listening = await new Promise<{ pid: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not listen:\n${output.join('')}`)), 170_000);
      const onData = (chunk: Buffer) => {
        output.push(chunk.toString());
        for (const line of output.join('').split('\n')) {
          if (!line.startsWith('{')) continue;
          const entry = JSON.parse(line) as { msg: string; pid: number };
          if (entry.msg === 'gateway listening') {
            clearTimeout(timer);
            resolve(entry);
          }
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      void exited.then(({ code }) => reject(new Error(`npm start exited with ${code}:\n${output.join('')}`)));
    });
    return { child, exited, output, gatewayPid: listening.pid, ms: performance.now() - started };
  }

  const answers = (port: number) =>
    fetch(`http://127.0.0.1:${port}/api/v1/utils/health-check/`).then(
      (r) => r.status,
      () => 'refused',
    );

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s sent to the npm process stops the gateway and the embedded PostgreSQL, leaving no process behind',
    async (signal) => {
      const port = await freePort();
      const { child, exited, output, gatewayPid } = await npmStart(port);
      const running = tree(child.pid!);
      const gateway = running.find((p) => p.pid === gatewayPid);
      // Run with the heap bounds written in the serve script, which the image uses too (packaging.test.ts).
      const serve = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).scripts.serve as string;
      expect(gateway?.command).toContain(serve.replace(/^exec node /, ''));
      const postgres = running.filter((p) => /(^|\/)postgres( |$)/.test(p.command.split(' ')[0]));
      expect(postgres.length, running.map((p) => p.command).join('\n')).toBeGreaterThan(0);
      expect(await answers(port)).toBe(200);

      child.kill(signal);
      const { code } = await exited;
      expect(code, output.join('')).toBe(0);
      expect(output.join('')).toContain('"msg":"gateway stopped"');
      expect(await answers(port)).toBe('refused');
      expect(stillRunning(running).map((p) => p.command)).toEqual([]);
    },
    180_000,
  );

  it('builds nothing when nothing changed since the last start', async () => {
    const port = await freePort();
    const first = await npmStart(port);
    first.child.kill('SIGTERM');
    await first.exited;
    const built = { gateway: mtime('dist/tsconfig.build.tsbuildinfo'), admin: mtime('dist/admin.built') };

    const second = await npmStart(port);
    second.child.kill('SIGTERM');
    await second.exited;
    expect({ gateway: mtime('dist/tsconfig.build.tsbuildinfo'), admin: mtime('dist/admin.built') }).toEqual(built);
    expect(existsSync(path.join(projectRoot, 'dist/admin/index.html'))).toBe(true);

    // It says which step it is at and how long the start took; a build, if the first start made one, names no files.
    const firstSaid = first.output.join('');
    expect(firstSaid).toMatch(/^Step 1 of 3: /m);
    expect(firstSaid).not.toContain('dist/admin/assets/');
    const said = second.output.join('');
    expect(said).toContain('Step 1 of 3: the gateway is up to date');
    expect(said).toContain('Step 2 of 3: the admin is up to date');
    expect(said).toMatch(/^Step 3 of 3: gateway started in \d+ s; ready \d+ s after `npm start`/m);
  }, 360_000);
});
