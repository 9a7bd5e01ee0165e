import type { DestinationStream } from 'pino';
import { loadConfig, type Config } from './config';

/**
 * What a developer reads in a terminal. Log lines stay JSON wherever a program reads them (production, or any
 * output that is not a terminal: a pipe, a file, a log collector); a person at a terminal gets readable lines
 * and, once the gateway listens, a short list of where things are.
 */
export function wantsReadableOutput(config: Config, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return stdout.isTTY === true && config.NODE_ENV !== 'production';
}

interface LogLine {
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  [key: string]: unknown;
}

/** Readable log lines on standard output: `12:00:01.234 INFO: GET /api/v1/items/ 200 in 3 ms`. */
export async function readableLog(): Promise<DestinationStream> {
  // Loaded only here: production never needs it.
  const { prettyFactory } = await import('pino-pretty');
  const prettify = prettyFactory({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    // A request's line says what was asked and answered in one line, instead of two nested objects.
    messageFormat: (log: LogLine, messageKey) => {
      const message = String(log[messageKey] ?? '');
      if (!log.req) return message;
      const request = `${log.req.method} ${log.req.url}`;
      if (log.res && log.responseTime !== undefined) {
        return `${request} ${log.res.statusCode} in ${Math.round(log.responseTime)} ms`;
      }
      return `${message} (${request})`;
    },
  });
  // Written at once, not through a stream: the lines logged just before the process exits are not lost.
  return { write: (line: string) => process.stdout.write(prettify(line)) };
}

/** Printed once the gateway listens: where the product is, who can log in first, and where recovery links go. */
export function startBanner(config: Config, url: string): string {
  const defaults = loadConfig({});
  const superuser =
    config.FIRST_SUPERUSER_PASSWORD === defaults.FIRST_SUPERUSER_PASSWORD
      ? `${config.FIRST_SUPERUSER} / ${config.FIRST_SUPERUSER_PASSWORD} (the development default, unless changed since)`
      : `${config.FIRST_SUPERUSER} (password from FIRST_SUPERUSER_PASSWORD)`;
  const resetLink = `${new URL('/reset-password', config.FRONTEND_HOST)}?token=…`;
  const recovery = config.SMTP_HOST
    ? `${resetLink}, sent by email through ${config.SMTP_HOST}:${config.SMTP_PORT}`
    : `${resetLink}, written to this log (SMTP_HOST is not set: no email is sent)`;
  const rows: [string, string][] = [
    ['admin', `${url}/`],
    ['REST API', `${url}/api/v1 (interactive docs: ${url}/docs)`],
    ['GraphQL', `${url}/graphql (the explorer, opened in a browser)`],
    ['first superuser', superuser],
    ['recovery links', recovery],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    '',
    `  Sistema de Integração is running at ${url}`,
    ...rows.map(([l, v]) => `    ${l.padEnd(width)}  ${v}`),
    '',
    '',
  ].join('\n');
}
