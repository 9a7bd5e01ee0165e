import { describe, expect, it } from 'vitest';
import { locationsOf } from '../../gateway/locations/location-keys';
import { migrationDatabase } from '../support/database';

const db = migrationDatabase();

const WITH = '00000000-0000-4000-8000-000000000001';
const BLANK = '00000000-0000-4000-8000-000000000002';
const WITHOUT = '00000000-0000-4000-8000-000000000003';

describe('the migration of a client’s one location id', () => {
  it('makes it the client’s one location row, the default, fed by the client’s own Hiper account; none for the others', async () => {
    await db.upTo('Migration20261202013000');
    const sql = db.sql();
    await sql.execute(
      `insert into clients (id, url, name, nuvemshop_location_id, created_at) values
        (?, 'https://com-estoque.example', 'Com estoque', '01HTMFDH09VC6E2Q8KGTGP44D3', now()),
        (?, 'https://em-branco.example', 'Em branco', '  ', now()),
        (?, 'https://sem-estoque.example', 'Sem estoque', null, now())`,
      [WITH, BLANK, WITHOUT],
    );

    await db.rest();

    const rows = await sql.execute(
      `select client_id, nuvemshop_location_id, name, hiper_token, priority, is_default, stock_state, stock_error,
              deleted_at
         from locations order by client_id`,
    );
    expect(rows).toEqual([
      {
        client_id: WITH,
        nuvemshop_location_id: '01HTMFDH09VC6E2Q8KGTGP44D3',
        name: null,
        hiper_token: null,
        priority: 0,
        is_default: true,
        stock_state: 'never_synced',
        stock_error: null,
        deleted_at: null,
      },
    ]);
    // Its stock keeps coming from where it came: the client's own Hiper account.
    const fed = await locationsOf(db.em(), WITH, 'chave-do-cliente');
    expect(fed).toEqual([
      expect.objectContaining({
        nuvemshopLocationId: '01HTMFDH09VC6E2Q8KGTGP44D3',
        hiperKey: 'chave-do-cliente',
        clientsKey: true,
      }),
    ]);
    // The client's own field is left as it was (SYNC-CONTRACT keeps it); a client with no row behaves as before.
    const [client] = await sql.execute(`select nuvemshop_location_id from clients where id = ?`, [WITH]);
    expect(client.nuvemshop_location_id).toBe('01HTMFDH09VC6E2Q8KGTGP44D3');
    expect(await locationsOf(db.em(), WITHOUT, 'chave')).toEqual([]);
    // One row per store location of a client, however it comes.
    await expect(
      sql.execute(
        `insert into locations (id, client_id, nuvemshop_location_id, created_at, updated_at)
          values (gen_random_uuid(), ?, '01HTMFDH09VC6E2Q8KGTGP44D3', now(), now())`,
        [WITH],
      ),
    ).rejects.toThrow(/locations_client_id_nuvemshop_location_id_unique/);
  });
});
