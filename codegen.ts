import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed operations for the admin, derived from the committed SDL (`npm run schema` rebuilds both). */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['admin/src/**/*.graphql'],
  ignoreNoDocuments: true,
  generates: {
    'schema/generated/graphql.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false },
        scalars: { ID: 'string', SafeInt: 'number' },
        useTypeImports: true,
      },
    },
  },
};

export default config;
