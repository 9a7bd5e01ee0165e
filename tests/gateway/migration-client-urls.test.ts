import { describe, expect, it } from 'vitest';
import { migrationDatabase } from '../support/database';

const db = migrationDatabase();

describe('the migration that makes a URL one client’s', () => {
  it('archives the older clients sharing a URL and keeps "Em dia" only for clients a catalogue run wrote', async () => {
    await db.upTo('Migration20261201213431');
    const sql = db.sql();
    await sql.execute(
      `insert into clients (id, url, name, sync_state, last_synced_at, created_at) values
        ('00000000-0000-4000-8000-000000000001', 'https://mesma.example', 'Antiga', 'idle', now(), now() - interval '2 days'),
        ('00000000-0000-4000-8000-000000000002', 'https://mesma.example', 'Nova', 'idle', now(), now() - interval '1 day'),
        ('00000000-0000-4000-8000-000000000003', 'https://so-estoque.example', 'Estoque', 'idle', now(), now())`,
    );
    await sql.execute(
      `insert into sync_runs (id, client_id, kind, trigger, state, errors, queued_at, finished_at, created_at, updated_at)
        values
        (gen_random_uuid(), '00000000-0000-4000-8000-000000000002', 'catalogue', 'manual', 'succeeded', '[]',
         now(), now(), now(), now()),
        (gen_random_uuid(), '00000000-0000-4000-8000-000000000003', 'stock', 'schedule', 'succeeded', '[]',
         now(), now(), now(), now())`,
    );

    await db.rest();

    const rows = await sql.execute<{ name: string; url: string; archived: boolean; sync_state: string }[]>(
      `select name, url, archived_at is not null as archived, sync_state from clients order by name`,
    );
    expect(rows).toEqual([
      { name: 'Antiga', url: 'https://mesma.example', archived: true, sync_state: 'never_synced' },
      { name: 'Estoque', url: 'https://so-estoque.example', archived: false, sync_state: 'never_synced' },
      { name: 'Nova', url: 'https://mesma.example', archived: false, sync_state: 'idle' },
    ]);
    await expect(
      sql.execute(`insert into clients (id, url) values (gen_random_uuid(), 'https://mesma.example')`),
    ).rejects.toThrow(/clients_url_unique/);
  });
});
