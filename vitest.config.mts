import { createRequire } from 'node:module';
import swc from 'unplugin-swc';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const require = createRequire(import.meta.url);

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

/** A suite that runs the gateway in-process against PostgreSQL (DATABASE_URL, or an embedded server). */
function gatewaySuite(name: string, test: NonNullable<TestProjectInlineConfiguration['test']>) {
  return {
    plugins: [decorators],
    resolve: { alias: graphqlSingleInstance },
    test: {
      name,
      environment: 'node' as const,
      setupFiles: ['reflect-metadata'],
      ...test,
      globalSetup: ['tests/support/global-setup.ts', ...[test.globalSetup ?? []].flat()],
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      gatewaySuite('gateway', {
        include: ['tests/gateway/**/*.test.ts', 'gateway/**/*.test.ts'],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      }),
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
      gatewaySuite('e2e', {
        include: ['tests/e2e/**/*.test.ts'],
        globalSetup: ['tests/e2e/support/build-admin.ts'],
        fileParallelism: false,
        testTimeout: 120_000,
        hookTimeout: 180_000,
      }),
      // `npm run bench:sync` and `npm run bench:orders`: figures, not tests; never part of `npm test`.
      gatewaySuite('bench-sync', {
        include: ['bench/sync.bench-run.ts'],
        testTimeout: 1_800_000,
        hookTimeout: 120_000,
      }),
      gatewaySuite('bench-orders', {
        include: ['bench/orders.bench-run.ts'],
        testTimeout: 3_600_000,
        hookTimeout: 120_000,
      }),
      gatewaySuite('reliability', {
        include: ['tests/reliability/**/*.test.ts'],
        globalSetup: ['tests/e2e/support/build-admin.ts', 'tests/reliability/support/run-setup.ts'],
        testTimeout: 180_000,
        hookTimeout: 120_000,
      }),
    ],
  },
});
