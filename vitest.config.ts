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

// graphql ships CommonJS and ESM copies; Apollo and type-graphql load the CommonJS one, so our code must too
// ("Cannot use GraphQLScalarType from another module or realm").
const graphqlSingleInstance = [{ find: /^graphql$/, replacement: require.resolve('graphql') }];

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [decorators],
        resolve: { alias: graphqlSingleInstance },
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
      {
        plugins: [decorators],
        resolve: { alias: graphqlSingleInstance },
        test: {
          name: 'reliability',
          environment: 'node',
          include: ['tests/reliability/**/*.test.ts'],
          setupFiles: ['reflect-metadata'],
          globalSetup: [
            'tests/support/global-setup.ts',
            'tests/e2e/support/build-admin.ts',
            'tests/reliability/support/run-setup.ts',
          ],
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'admin',
          environment: 'jsdom',
          include: ['admin/**/*.test.{ts,tsx}'],
          setupFiles: ['admin/vitest.setup.ts'],
          server: { deps: { inline: ['ra-data-graphql', '@apollo/client'] } },
          testTimeout: 30_000,
        },
      },
      {
        plugins: [decorators],
        resolve: { alias: graphqlSingleInstance },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          setupFiles: ['reflect-metadata'],
          globalSetup: ['tests/support/global-setup.ts', 'tests/e2e/support/build-admin.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
