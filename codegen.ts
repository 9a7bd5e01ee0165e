import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * From the committed SDL (`npm run schema` rebuilds all): typed operations for the admin's own documents, and the
 * schema's description (types, fields, arguments, directives) the admin derives its resources from.
 */
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
        // Documents as their text: the admin sends them as they are, with no GraphQL library on its first screen.
        documentMode: 'string',
      },
    },
    'schema/generated/description.ts': {
      plugins: ['./schema/codegen/describe.mjs'],
    },
    // The mutations apart: the forms and the data layer read them after a list's first screen, which need not carry them.
    'schema/generated/mutations.ts': {
      plugins: [{ './schema/codegen/describe.mjs': { part: 'mutations' } }],
    },
  },
};

export default config;
