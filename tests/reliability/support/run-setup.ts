import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { formatSummary, type Figures } from './figures';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each reliability test file leaves its figures for the run's summary. */
    figuresDir: string;
    /** One seed for every property of the run; FUZZ_SEED replays a run. */
    fuzzSeed: number;
  }
}

const root = path.resolve(__dirname, '..', '..', '..');

/**
 * Builds the gateway (the multi-process tests run dist/gateway/main.js as production does), and prints
 * the summary of every figure the test files recorded once the run is over.
 */
export default function setup(project: TestProject) {
  const build = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`The gateway build failed:\n${build.stdout}${build.stderr}`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-figures-'));
  project.provide('figuresDir', dir);
  project.provide('fuzzSeed', Number(process.env.FUZZ_SEED || Math.floor(Math.random() * 2_147_483_647)));
  return () => {
    const figures: Figures = {};
    for (const file of readdirSync(dir).sort())
      Object.assign(figures, JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    rmSync(dir, { recursive: true, force: true });
    console.log(formatSummary(figures));
  };
}
