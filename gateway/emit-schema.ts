import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { graphqlSchema } from './graphql/schema';
import { projectRoot } from './paths';
import { resolvers } from './resolvers';

/**
 * The SDL committed as schema/schema.graphql. Fields and arguments keep the order of their declarations (a resource's
 * columns and inputs follow it), which is fixed by the code: the file only changes when the API does.
 */
export async function printedSchema(): Promise<string> {
  return `# Generated from the gateway's resolvers by \`npm run schema\`. Do not edit.\n\n${printSchemaWithDirectives(graphqlSchema(resolvers()))}\n`;
}

if (require.main === module) {
  const target = path.join(projectRoot, 'schema', 'schema.graphql');
  void printedSchema().then((printed) => {
    writeFileSync(target, printed);
    console.log(`wrote ${target}`);
  });
}
