import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const MAIN = path.resolve('dist/gateway/main.js');

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  /** Every log line printed so far. */
  lines: string[];
  exited: Promise<number | null>;
}

/**
 * The node flags of the image's command, the heap bounds production runs with; `npm start` and `npm run worker` use
 * the same (tests/gateway/packaging.test.ts checks it).
 */
export function productionFlags(): string[] {
  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(path.resolve(__dirname, '..', '..', 'Dockerfile'), 'utf8'));
  return (JSON.parse(cmd![1]) as string[]).filter((word) => word.startsWith('--'));
}

/**
 * Runs the built gateway (`node dist/gateway/main.js`) as users do, and waits until it listens; `flags` are node's
 * (productionFlags() to measure it as production runs it).
 */
export async function spawnGateway(
  env: Record<string, string>,
  timeoutMs = 60_000,
  flags: string[] = [],
): Promise<GatewayProcess> {
  const listening = /"msg":"gateway listening"/;
  const started = await spawnBuilt(MAIN, 'gateway', 'listening', env, listening, timeoutMs, flags);
  const match = /"url":"([^"]+)"/.exec(started.lines.find((line) => listening.test(line))!)!;
  return { ...started, url: match[1].replace('localhost', '127.0.0.1') };
}

export const WORKER = path.resolve('dist/gateway/worker.js');

/** Runs a built worker (`npm run worker`'s `node dist/gateway/worker.js`), and waits until it works. */
export async function spawnWorker(
  env: Record<string, string>,
  timeoutMs = 60_000,
  flags: string[] = [],
): Promise<Omit<GatewayProcess, 'url'>> {
  return spawnBuilt(WORKER, 'worker', 'working', env, /"msg":"worker started"/, timeoutMs, flags);
}

/** Runs a built entry point; `name` and `readyAs` say in a failure what did not start and what it never did. */
async function spawnBuilt(
  file: string,
  name: string,
  readyAs: string,
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs: number,
  flags: string[],
): Promise<Omit<GatewayProcess, 'url'>> {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build:gateway\` first`);
  const child = spawn(process.execPath, [...flags, file], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} (${file}) did not start:\n${lines.join('\n')}`)),
      timeoutMs,
    );
    let started = false;
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        if (!started && ready.test(line)) {
          started = true;
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before ${readyAs}:\n${lines.join('\n')}`));
    });
  });
  return { child, lines, exited };
}
