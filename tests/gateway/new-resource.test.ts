import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { graphql, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { entities } from '../../gateway/entities';
import type { Resource } from '../../gateway/fields/resource';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { resolverOf } from '../../gateway/graphql/resource-resolver';
import { PlainRows } from '../../gateway/database/plain-rows';
import { SearchLimits } from '../../gateway/database/search-limits';
import { loadConfig } from '../../gateway/config';
import { setTokenEncryptionKey } from '../../gateway/database/token-cipher';
import { migrate, ormOptions } from '../../gateway/orm';
import { loadResources } from '../../gateway/resources';
import { entityFor } from '../../gateway/resources/entity';
import { ResourceService } from '../../gateway/resources/service';
import { resourceRoutes } from '../../gateway/rest/resource-routes';
import type { SignedInUser } from '../../gateway/users/user.schemas';
import { plugin as describeSchema } from '../../schema/codegen/describe.mjs';
import { createTestDatabase } from '../support/database';

/**
 * "A new resource costs three files": a throw-away resource declared in a folder of its own, as a newcomer would add
 * a file to gateway/resources, is found, stored, served by REST and GraphQL and described to the admin, with no other
 * file touched. Its migration is the schema difference `npm run migration:create` would write.
 */
const gateway = path.resolve(__dirname, '../../gateway');
const DECLARATION = `
import { id, reference, state, text } from '${gateway}/fields/field';
import { Resource } from '${gateway}/fields/resource';

export const noteResource = new Resource(
  'Note',
  {
    id: id(),
    body: text({ required: true, max: 200, listed: true, searchable: true }),
    status: state(['open', 'closed'], { default: 'open', listed: true, filterable: true }),
    client_id: reference('client', 'Client', { nullable: true, listed: true, filterable: true }),
  },
  { title: 'body', menu: 60 },
);
`;

let folder: string;
let note: Resource;
let orm: MikroORM;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let service: ResourceService;
const superuser = { id: '00000000-0000-4000-8000-000000000001', isSuperuser: true } as unknown as SignedInUser;

beforeAll(async () => {
  setTokenEncryptionKey(Buffer.alloc(32, 1).toString('base64'));
  folder = mkdtempSync(path.join(tmpdir(), 'declarations-'));
  writeFileSync(path.join(folder, 'note.resource.ts'), DECLARATION);
  await loadResources();
  [note] = await loadResources(folder);
  database = await createTestDatabase(inject('postgresUrl'));
  orm = await MikroORM.init({ ...ormOptions(database.url), entities: [...entities(), entityFor(note)] });
  await migrate(orm);
  service = new ResourceService(note, entityFor(note), orm, new PlainRows(orm), new SearchLimits(loadConfig({})));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('a resource added by its declaration alone', () => {
  it('is found in its folder, with its table, paths and messages derived', () => {
    expect(note).toMatchObject({ name: 'Note', table: 'notes', path: 'notes', screen: 'notes', noun: 'note' });
    expect(note.messages.notFound).toBe('Note not found');
  });

  it('needs one migration: its table, with the indexes its lists use, and nothing else', async () => {
    const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: false });
    const statements = diff.split('\n').filter(Boolean);
    expect(
      statements.every((line) => /"notes"/.test(line)),
      diff,
    ).toBe(true);
    expect(diff).toMatch(/create table "notes"/);
    expect(diff).toMatch(/notes_body_trgm_index/);
    expect(diff).toMatch(/notes_status_created_at_index/);
    await orm.getSchemaGenerator().execute(diff);
  });

  it('is written and read through its service: defaults, filters, search and totals', async () => {
    const first = await service.create(superuser, { body: 'first note' });
    expect(first).toEqual({ id: expect.any(String), body: 'first note', status: 'open', client_id: null });
    await service.create(superuser, { body: 'second note', status: 'closed' });
    const open = await service.list(superuser, { skip: 0, limit: 10, filter: { status: 'open' } });
    expect(open).toEqual({ data: [first], count: 1 });
    const all = await service.list(superuser, { skip: 0, limit: 1 });
    expect(all.count).toBe(2);
    expect((await service.list(superuser, { skip: 0, limit: 10, q: 'second' })).count).toBe(1);
    await expect(service.get(superuser, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
      detail: 'Note not found',
    });
  });

  it('has its REST routes, named as the template names them', () => {
    const routes = resourceRoutes(note, service).map((r) => `${r.method.toUpperCase()} ${r.path} ${r.summary}`);
    expect(routes).toEqual([
      'GET /notes/ Read notes',
      'POST /notes/ Create note',
      'GET /notes/:id Read note by id',
      'PUT /notes/:id Update a note',
      'DELETE /notes/:id Delete a note',
    ]);
  });

  it('has its GraphQL operations, and the admin registers it from the schema', async () => {
    const schema: GraphQLSchema = graphqlSchema([resolverOf(note)]);
    const printed = printSchemaWithDirectives(schema);
    for (const name of ['allNotes', '_allNotesMeta', 'Note(id: ID!)', 'createNote', 'updateNote', 'deleteNote'])
      expect(printed).toContain(name);
    expect(printed).toMatch(
      /input NoteFilter \{\n {2}q: String\n {2}ids: \[ID!\]\n {2}status: NoteStatus\n {2}client_id: ID\n\}/,
    );
    const context = {
      services: { resources: { Note: service } },
      user: async () => superuser,
      once: <T>(_key: string, load: () => Promise<T>) => load(),
    };
    const answer = await graphql({
      schema,
      source: '{ allNotes(filter: { status: closed }) { body status } _allNotesMeta { count } }',
      contextValue: context,
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ allNotes: [{ body: 'second note', status: 'closed' }], _allNotesMeta: { count: 2 } });

    // What the admin builds its registry from (schema/generated/description.ts): a screen, a menu entry, the columns.
    const described = describeSchema(schema) as string;
    expect(described).toMatch(/"Note": \{\n\s+"screen": "notes",\n\s+"operations": \[/);
    expect(described).toMatch(/"menu": 60/);
  });
});
