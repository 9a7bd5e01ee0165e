import { describe, expect, it } from 'vitest';
import { SYNC_ERROR_CODES } from '../../gateway/platforms/platform-call';
import { locationNotes, orderNotes, orderStateNames, syncErrorNotes, webhookNotes } from '../../schema/staff-notes';
import { englishIn } from '../support/english';
import { migrationDatabase } from '../support/database';

/** Every text of a catalogue section, a text made with sample values where the entry takes some. */
function textsOf(section: Record<string, unknown>): [string, string][] {
  return Object.entries(section).map(([code, entry]) => {
    if (typeof entry === 'string') return [code, entry];
    const made = (entry as (...values: unknown[]) => string)(
      ...Array.from({ length: (entry as () => string).length }, (_, i) =>
        code === 'erasure_due'
          ? new Date('2026-03-20T17:30:00Z')
          : code === 'resent'
            ? 'held'
            : i === 0
              ? 123
              : 'LV00000000001',
      ),
    );
    return [code, made];
  });
}

describe('the catalogue of what the screens tell staff', () => {
  it('gives every error code a run can carry a text', () => {
    expect(Object.keys(syncErrorNotes).sort()).toEqual([...SYNC_ERROR_CODES].sort());
  });

  it('says every code in Portuguese, and names the fields as their labels do', () => {
    for (const section of [syncErrorNotes, webhookNotes, orderNotes, orderStateNames, locationNotes]) {
      for (const [code, text] of textsOf(section)) {
        expect({ code, english: englishIn(text) }).toEqual({ code, english: [] });
        expect(text.trim()).toBe(text);
      }
    }
    expect(syncErrorNotes.hiper_key_refused).toBe('Token Hiper recusado pelo Hiper');
    expect(orderNotes.hiper_key_refused).toMatch(/^Token Hiper recusado pelo Hiper/);
    expect(webhookNotes.erasure_due(new Date('2026-03-20T17:30:00Z'))).toBe(
      'Apagamento previsto para 20/03/2026 14:30 (horário de Brasília), 48 h depois da desinstalação',
    );
  });

  it('finds English where it is', () => {
    expect(englishIn('Order 12 recorded and queued')).toEqual(['order', 'recorded', 'and', 'queued']);
    expect(englishIn('Hiper refused the security key')).toEqual(['refused', 'the', 'security', 'key']);
    expect(englishIn('Toggle light/dark mode')).toEqual(['toggle', 'light', 'dark', 'mode']);
    expect(englishIn('Pedido 12 registrado e na fila para o Hiper')).toEqual([]);
  });
});

describe('the migration that rewrites English notes', () => {
  const db = migrationDatabase();

  it('turns stored webhook notes and key holds into the catalogue’s texts, keeping their values', async () => {
    await db.upTo('Migration20261201223002');
    const sql = db.sql();
    const notes = [
      'Order 4411 recorded and queued',
      'No client has this store',
      'Store data erased: tokens and 3 product links; the client record stays',
      'Erasure due at 2026-03-20T17:30:00.000Z, 48 h after the uninstall',
      'GET /store answered 200: the store works (token_revoked → idle)',
      'Unsigned: recorded, nothing done',
      'Algo que a equipe escreveu',
    ];
    for (const [i, note] of notes.entries()) {
      await sql.execute(
        `insert into webhook_events (id, event, store_id, received_at, outcome, note, delivery_key)
          values (gen_random_uuid(), 'order/paid', 1, now(), 'handled', ?, ?)`,
        [note, `k${i}`],
      );
    }
    await sql.execute(
      `insert into clients (id, url, created_at) values ('00000000-0000-4000-8000-000000000001', 'https://a.example', now())`,
    );
    await sql.execute(
      `insert into orders (id, client_id, nuvemshop_order_id, state, hold_reason, lines, history, received_at, updated_at)
        values (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 1, 'held',
          'Hiper refused the security key', '[]',
          '[{"at": "2026-03-20T10:00:00Z", "note": "Recebido por webhook (order/paid)"},
            {"at": "2026-03-20T10:00:01Z", "state": "held", "note": "Hiper refused the security key"},
            {"at": "2026-03-20T10:05:00Z", "state": "received", "note": "Reenviar pedido pela equipe (estava held)"},
            {"at": "2026-03-20T10:06:00Z", "state": "received",
             "note": "Reenviar pedido pela equipe (estava rejected): pedido de venda a-1 cancelado no Hiper antes"}]',
          now(), now())`,
    );

    await db.rest();

    const rows = await sql.execute<{ note: string }[]>(`select note from webhook_events order by delivery_key`);
    expect(rows.map((row) => row.note)).toEqual([
      'Pedido 4411 registrado e na fila para o Hiper',
      'Nenhum cliente tem esta loja',
      'Dados da loja apagados: tokens e 3 vínculos de produtos; o cadastro do cliente fica',
      'Apagamento previsto para 20/03/2026 14:30 (horário de Brasília), 48 h depois da desinstalação',
      'A loja respondeu 200 à consulta: a loja funciona',
      'Sem assinatura: registrado, nada feito',
      'Algo que a equipe escreveu',
    ]);
    const [order] = await sql.execute<{ hold_reason: string; history: { note: string }[] }[]>(
      `select hold_reason, history from orders`,
    );
    expect(order.hold_reason).toBe(orderNotes.hiper_key_refused);
    expect(order.history.map((line) => line.note)).toEqual([
      'Recebido por webhook (order/paid)',
      orderNotes.hiper_key_refused,
      'Reenviado pela equipe (estava “Aguardando pessoa”)',
      'Reenviado pela equipe (estava “Rejeitado”): pedido de venda a-1 cancelado no Hiper antes',
    ]);
    expect(orderNotes.resent_after_cancel('a-1')).toBe(order.history[3].note);
  });
});
