import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { propertyOf } from '../../gateway/kit/field';
import { clientResource, type ClientEntity, type SyncState } from '../../gateway/clients/client.resource';
import type { EntityOf } from '../../gateway/kit/entity';
import { syncRunResource, type SyncKind, type SyncRunEntity } from '../../gateway/sync/sync-run.resource';
import { User } from '../../gateway/users/user.entity';
import { userResource } from '../../gateway/users/user.resource';

// The types are checked by `tsc` (tests are in tsconfig.json): a wrong one fails the typecheck, not only this run.
describe("a declaration's entity type", () => {
  it('names each stored field by its property, typed as the ORM holds it', () => {
    expectTypeOf<ClientEntity>().toEqualTypeOf<EntityOf<typeof clientResource>>();
    expectTypeOf<ClientEntity['nuvemshopStoreId']>().toEqualTypeOf<number>();
    expectTypeOf<ClientEntity['hiperToken']>().toEqualTypeOf<string | null>();
    expectTypeOf<ClientEntity['syncState']>().toEqualTypeOf<SyncState>();
    expectTypeOf<ClientEntity['lastSyncedAt']>().toEqualTypeOf<Date | null>();
    expectTypeOf<ClientEntity['hiperSyncUpdateImage']>().toEqualTypeOf<boolean>();
    expectTypeOf<SyncRunEntity['client']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<SyncRunEntity['kind']>().toEqualTypeOf<SyncKind>();
    expectTypeOf<SyncRunEntity['queuedAt']>().toEqualTypeOf<Date>();
    expectTypeOf<SyncRunEntity['createdAt']>().toEqualTypeOf<Date>();
    expect(Object.keys(syncRunResource.fields)).toContain('client_id');
  });

  it('leaves a password out of the entity: the service stores its hash', () => {
    expectTypeOf<User>().not.toHaveProperty('password');
    expectTypeOf<User['hashedPassword']>().toEqualTypeOf<string>();
    expectTypeOf<User['email']>().toEqualTypeOf<string>();
    expectTypeOf<User['fullName']>().toEqualTypeOf<string | null>();
  });
});

describe('users', () => {
  it('declare each field once: the entity takes email, name and flags from the declaration', () => {
    const declared = Object.entries(userResource.fields)
      .filter(([, field]) => field.kind !== 'password')
      .map(([name, field]) => propertyOf(name, field));
    expect(declared).toEqual(expect.arrayContaining(['email', 'fullName', 'isActive', 'isSuperuser']));
    expect(Object.keys(User.meta.properties)).toEqual(expect.arrayContaining([...declared, 'hashedPassword']));
    // The file's users part (deleted users' ids are an entity of their own, after it).
    const [source] = readFileSync(path.resolve(__dirname, '../../gateway/users/user.entity.ts'), 'utf8').split(
      'export class DeletedUser',
    );
    const redeclared = declared.filter((prop) => new RegExp(`^\\s+${prop}[?!]?:`, 'm').test(source));
    expect(redeclared).toEqual([]);
  });
});
