import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { graphql, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { entities } from '../../gateway/entities';
import { Resource } from '../../gateway/kit/resource';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { resolverOf } from '../../gateway/graphql/resource-resolver';
import { PlainRows } from '../../gateway/database/plain-rows';
import { SearchLimits } from '../../gateway/database/search-limits';
import { loadConfig } from '../../gateway/config';
import { setTokenEncryptionKey } from '../../gateway/database/token-cipher';
import { migrate, ormOptions } from '../../gateway/orm';
import { entityFor } from '../../gateway/kit/entity';
import { ResourceService } from '../../gateway/kit/service';
import { resourceRoutes } from '../../gateway/rest/resource-routes';
import type { SignedInUser } from '../../gateway/users/user.schemas';
import { plugin as describeSchema } from '../../schema/codegen/describe.mjs';
import { createTestDatabase } from '../support/database';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { AuthService } from '../../gateway/users/auth.service';
import { ValidationFailed } from '../../gateway/errors';
import { isWritable } from '../../gateway/kit/field';
import { endpoints, type Endpoint } from '../../gateway/rest/route';
import { checkedResources, declaredResources, resourceNamed } from '../../gateway/resources';
import { itemResource } from '../../gateway/items/item.resource';
import { syncRunResource } from '../../gateway/sync/sync-run.resource';

/**
 * "A new resource costs three files and a line": a throw-away resource declared in a folder of its own, as a newcomer
 * would add its domain's file and its line in gateway/resources.ts, is stored, served by REST and GraphQL and
 * described to the admin, with no other file touched. Its migration is the schema difference `npm run migration:create` would write.
 */
const gateway = path.resolve(__dirname, '../../gateway');
// The README's own example ("Adding a resource"), word for word: the walk below is what it promises.
const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const example = /1\. \*\*The declaration\*\*[^\n]*\n\n {3}```ts\n([\s\S]*?) {3}```/.exec(readme)![1];
const DECLARATION = example.replace(/^ {3}/gm, '').replace(/'\.\.\/kit\//g, `'${gateway}/kit/`);

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
  // Its line in gateway/resources.ts: the declared list and the new one, each name, table, path and screen its own.
  const module = (await import(path.join(folder, 'note.resource.ts'))) as Record<string, unknown>;
  const added = Object.values(module).filter((value): value is Resource => value instanceof Resource);
  [note] = checkedResources([...declaredResources(), ...added]).slice(-1);
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
    expect(first).toEqual({
      id: expect.any(String),
      body: 'first note',
      status: 'open',
      client_id: null,
      remind_at: null,
      due_on: null,
    });
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
    expect(printed).toMatch(/createNote\(body: String!.*client_id: ID, remind_at: DateTime, due_on: Date\): Note!/);
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

/** The REST door as a client knocks on it: the route's own validation, then the service. */
async function rest(method: string, url: string, body?: unknown) {
  const auth = { authenticate: async () => superuser } as unknown as AuthService;
  const routes: Endpoint[] = endpoints(resourceRoutes(note, service), auth, new OpenAPIRegistry());
  const [pathname, search = ''] = url.split('?');
  for (const endpoint of routes) {
    const pattern = new RegExp(`^${endpoint.path.replace(/:id/, '(?<id>[^/]+)')}$`);
    const match = endpoint.method === method ? pattern.exec(pathname) : null;
    if (!match) continue;
    try {
      const answer = await endpoint.answer({
        params: { ...match.groups },
        query: () => Object.fromEntries(new URLSearchParams(search)),
        body,
        headers: { authorization: 'Bearer x' },
        ip: '127.0.0.1',
      } as never);
      return { status: answer.status, body: JSON.parse(answer.body) };
    } catch (error) {
      if (error instanceof ValidationFailed) return { status: 422, body: { detail: error.issues } };
      throw error;
    }
  }
  throw new Error(`no route ${method} ${url}`);
}

describe('the README example walked through every door', () => {
  let client: string;
  let other: string;
  let schema: GraphQLSchema;
  const gql = async (source: string) => {
    const context = {
      services: { resources: { Note: service } },
      user: async () => superuser,
      once: <T>(_key: string, load: () => Promise<T>) => load(),
    };
    const answer = await graphql({ schema, source, contextValue: context });
    // As the server sends it: JSON (a DateTime serialises as its ISO text).
    return { ...answer, data: JSON.parse(JSON.stringify(answer.data ?? null)) as unknown };
  };

  beforeAll(async () => {
    const clients = new ResourceService(
      resourceNamed('Client'),
      entityFor(resourceNamed('Client')),
      orm,
      new PlainRows(orm),
      new SearchLimits(loadConfig({})),
    );
    client = String((await clients.create(superuser, { url: 'https://one.example' })).id);
    other = String((await clients.create(superuser, { url: 'https://two.example' })).id);
    schema = graphqlSchema([resolverOf(note)]);
  });

  it('REST: creates with a reference, a moment and a day, edits them, filters by the reference', async () => {
    const created = await rest('POST', '/notes/', {
      body: 'call the store',
      client_id: client,
      remind_at: '2025-03-10T09:30:00-03:00',
      due_on: '2025-03-11',
    });
    expect(created).toEqual({
      status: 200,
      body: {
        id: expect.any(String),
        body: 'call the store',
        status: 'open',
        client_id: client,
        remind_at: '2025-03-10T12:30:00.000Z',
        due_on: '2025-03-11',
      },
    });
    const id = created.body.id as string;
    // A record read and sent back whole is taken: its id is ignored, not refused.
    const edited = await rest('PUT', `/notes/${id}`, { ...created.body, client_id: other, due_on: null });
    expect(edited.body).toMatchObject({ id, client_id: other, due_on: null, remind_at: '2025-03-10T12:30:00.000Z' });
    expect((await rest('GET', `/notes/${id}`)).body).toEqual(edited.body);
    const filtered = await rest('GET', `/notes/?client_id=${other}`);
    expect(filtered.body.data.map((n: { id: string }) => n.id)).toEqual([id]);
    expect((await rest('GET', `/notes/?client_id=${client}`)).body.count).toBe(0);
  });

  it('REST: refuses a reference to nothing and a field the resource does not have, as pydantic does', async () => {
    const missing = '00000000-0000-4000-8000-00000000dead';
    expect(await rest('POST', '/notes/', { body: 'x', client_id: missing })).toEqual({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['body', 'client_id'], msg: 'Client not found', input: missing }] },
    });
    expect(await rest('POST', '/notes/', { body: 'x', colour: 'red' })).toEqual({
      status: 422,
      body: {
        detail: [
          { type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 'red' },
        ],
      },
    });
    expect((await rest('POST', '/notes/', { body: 'x', remind_at: 'tomorrow' })).status).toBe(422);
    expect((await rest('POST', '/notes/', { body: 'x', due_on: '2025-02-30' })).status).toBe(422);
  });

  it('GraphQL: the same, as arguments of the mutations, and the same refusal', async () => {
    const created = await gql(
      `mutation { createNote(body: "gql", client_id: "${client}", remind_at: "2025-03-10T09:30:00Z", due_on: "2025-03-10") { id client_id remind_at due_on } }`,
    );
    expect(created.errors).toBeUndefined();
    const note = (created.data as { createNote: Record<string, string> }).createNote;
    expect(note).toMatchObject({ client_id: client, remind_at: '2025-03-10T09:30:00.000Z', due_on: '2025-03-10' });
    const updated = await gql(
      `mutation { updateNote(id: "${note.id}", client_id: "${other}", remind_at: "2025-03-10T10:00:00+01:00") { client_id remind_at } }`,
    );
    expect(updated.data).toEqual({ updateNote: { client_id: other, remind_at: '2025-03-10T09:00:00.000Z' } });
    const read = await gql(
      `{ Note(id: "${note.id}") { remind_at due_on } allNotes(filter: { client_id: "${other}" }) { id } }`,
    );
    expect(read.data).toMatchObject({ Note: { remind_at: '2025-03-10T09:00:00.000Z', due_on: '2025-03-10' } });
    expect((read.data as { allNotes: { id: string }[] }).allNotes.map((n) => n.id)).toContain(note.id);

    const refused = await gql(
      `mutation { createNote(body: "gql", client_id: "00000000-0000-4000-8000-00000000dead") { id } }`,
    );
    const error = refused.errors?.[0]?.originalError;
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).issues).toEqual([
      expect.objectContaining({ loc: ['body', 'client_id'], msg: 'Client not found' }),
    ]);
  });

  it("keeps a reference read-only where its declaration says so: a run's client, an item's owner", () => {
    expect(isWritable(syncRunResource.fields.client_id)).toBe(false);
    expect(Object.keys(itemResource.create.fields)).not.toContain('owner_id');
    expect(Object.keys(note.create.fields)).toContain('client_id');
  });
});
