import { steadyPort } from './net';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pino from 'pino';
import { startEmbeddedPostgres } from '../../gateway/database/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server URL on which each test file creates its own database. */
    postgresUrl: string;
  }
}

/** Uses DATABASE_URL when set (CI: the machine's PostgreSQL), else starts an embedded PostgreSQL for the run. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('postgresUrl', process.env.DATABASE_URL);
    return undefined;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-test-pg-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user when we are root: it must reach the folder
  const port = await steadyPort();
  const embedded = await startEmbeddedPostgres(path.join(dir, 'data'), port, pino({ level: 'silent' }));
  project.provide('postgresUrl', embedded.url);
  return async () => {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
