import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// type-graphql and MikroORM read decorator metadata, which esbuild drops: SWC compiles the gateway's TypeScript.
const decorators = swc.vite({
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'es6' },
});

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [decorators],
        test: {
          name: 'gateway',
          environment: 'node',
          include: ['tests/gateway/**/*.test.ts', 'gateway/**/*.test.ts'],
          setupFiles: ['reflect-metadata'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
