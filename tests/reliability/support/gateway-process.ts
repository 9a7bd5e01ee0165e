import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

export { productionFlags } from '../../support/process';

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Every line the process wrote to stdout and stderr so far. */
  output: string[];
  /** Set once the process has exited. */
  exitCode(): number | null | undefined;
  stop(): Promise<void>;
}

/** The production entry (`node dist/gateway/main.js`) on PORT=0, with the URL from its 'gateway listening' log line. */
export async function startGatewayProcess(
  env: Record<string, string>,
  startTimeoutMs = 60_000,
  /** Node's own flags before the entry (the heap bounds production runs with, say). */
  nodeFlags: string[] = [],
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...nodeFlags, path.join(root, 'dist', 'gateway', 'main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      BCRYPT_COST: '4',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let exit: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = code ?? (signal ? -1 : null);
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the gateway did not start:\n${output.join('\n')}`)),
      startTimeoutMs,
    );
    const onLine = (line: string) => {
      output.push(line);
      if (!line.includes('gateway listening')) return;
      try {
        const { url: listening } = JSON.parse(line) as { url: string };
        clearTimeout(timer);
        resolve(listening.replace('localhost', '127.0.0.1'));
      } catch {
        // not the JSON log line
      }
    };
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        lines.forEach(onLine);
      });
    }
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited while starting:\n${output.join('\n')}`));
    });
  });
  return {
    url,
    child,
    output,
    exitCode: () => exit,
    stop: async () => {
      if (exit !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
