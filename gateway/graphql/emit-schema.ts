import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { projectRoot } from '../paths';
import { graphqlSchema } from './schema';

/** The SDL committed as schema/schema.graphql: sorted, so it only changes when the API does. */
export function printedSchema(): string {
  return `# Generated from the gateway's resolvers by \`npm run schema\`. Do not edit.\n\n${printSchema(lexicographicSortSchema(graphqlSchema()))}\n`;
}

if (require.main === module) {
  const target = path.join(projectRoot, 'schema', 'schema.graphql');
  writeFileSync(target, printedSchema());
  console.log(`wrote ${target}`);
}
