import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { lexicographicSortSchema } from 'graphql';
import { graphqlSchema } from './graphql/schema';
import { projectRoot } from './paths';
import { resolvers } from './resolvers';

/** The SDL committed as schema/schema.graphql: sorted, so it only changes when the API does. */
export function printedSchema(): string {
  return `# Generated from the gateway's resolvers by \`npm run schema\`. Do not edit.\n\n${printSchemaWithDirectives(lexicographicSortSchema(graphqlSchema(resolvers)))}\n`;
}

if (require.main === module) {
  const target = path.join(projectRoot, 'schema', 'schema.graphql');
  writeFileSync(target, printedSchema());
  console.log(`wrote ${target}`);
}
