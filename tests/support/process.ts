import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const MAIN = path.resolve('dist/gateway/main.js');

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  /** Every log line printed so far. */
  lines: string[];
  exited: Promise<number | null>;
}

/** Runs the built gateway (`node dist/gateway/main.js`) as users do, and waits until it listens. */
export async function spawnGateway(env: Record<string, string>, timeoutMs = 60_000): Promise<GatewayProcess> {
  if (!existsSync(MAIN)) throw new Error('dist/gateway/main.js is missing: run `npm run build:gateway` first');
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${lines.join('\n')}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        const match = /"msg":"gateway listening"/.test(line) && /"url":"([^"]+)"/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1].replace('localhost', '127.0.0.1'));
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening:\n${lines.join('\n')}`));
    });
  });
  return { child, url, lines, exited };
}
