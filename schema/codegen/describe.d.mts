import type { GraphQLSchema } from 'graphql';

/** The @graphql-codegen plugin of describe.mjs: the schema's description, as the TypeScript module it writes. */
export declare const plugin: (schema: GraphQLSchema) => string;
