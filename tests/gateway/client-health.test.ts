import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { syncSuite } from '../support/sync';

/**
 * Every client's health, worked out from what the product knows (its runs, its store's state, its orders) and served
 * worst first through REST and GraphQL: `ok` "Em dia", `attention`, `critical`, each reason in Portuguese with since
 * when. The schedule is the stand-ins' (catalogue yearly, stock daily); a check "later" is asked with its moment.
 */
const suite = syncSuite({ hiper: { pageSize: 4 } });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Reason {
  code: string;
  health: string;
  text: string;
  since: string;
  kind?: string;
}

const healthOf = async (clientId: string) => {
  const answer = await suite.t.request('GET', `/api/v1/client-health/?client_id=${clientId}`, { token: suite.su });
  expect(answer.status).toBe(200);
  expect(answer.body.count).toBe(1);
  return answer.body.data[0] as { id: string; health: string; reasons: Reason[]; health_since: string };
};

/** An order of the client in `state`, last changed `ago` ms before now. */
async function order(clientId: string, state: string, ago: number) {
  const at = new Date(Date.now() - ago);
  await suite.t.sql(
    `insert into orders (id, client_id, nuvemshop_order_id, state, lines, history, received_at, updated_at, created_at)
     values ($1, $2, $3, $4, '[]', '[]', $5, $5, $5)`,
    [randomUUID(), clientId, Math.floor(Math.random() * 1e9), state, at],
  );
}

describe("a client's health", () => {
  it('is ok once its runs succeed, and critical with the reason in Portuguese once its store revokes the token', async () => {
    const c = await suite.tools.connectedClient();
    c.account.add({ nome: 'Caneta', preco: 2, quantidadeEmEstoque: 3 });
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded' });
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded' });
    await suite.t.gateway.services.health.refresh();
    expect(await healthOf(c.id)).toMatchObject({ health: 'ok', reasons: [] });

    suite.nuvemshop.revoke(c.storeId);
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'failed' });
    await suite.t.gateway.services.health.refresh();
    const health = await healthOf(c.id);
    expect(health.health).toBe('critical');
    expect(health.reasons[0]).toMatchObject({
      code: 'store_token_revoked',
      health: 'critical',
      text: 'Token Nuvemshop recusado pela Nuvemshop (401): o aplicativo precisa ser instalado de novo',
    });

    // Fixed (a new install's token typed in): ok again at the next check.
    const token = suite.nuvemshop.reinstall(c.storeId);
    const fixed = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { nuvemshop_token: token },
    });
    expect(fixed.status).toBe(200);
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded' });
    await suite.t.gateway.services.health.refresh();
    expect((await healthOf(c.id)).health).toBe('ok');
  });

  it('turns late against the schedule: attention past 3 intervals, critical past 12, a never-synced client too', async () => {
    const c = await suite.tools.connectedClient();
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded' });
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded' });
    const health = suite.t.gateway.services.health;

    await health.refresh(new Date(Date.now() + 2 * DAY));
    expect((await healthOf(c.id)).health).toBe('ok');

    await health.refresh(new Date(Date.now() + 4 * DAY));
    const late = await healthOf(c.id);
    expect(late.health).toBe('attention');
    expect(late.reasons).toEqual([
      expect.objectContaining({
        code: 'run_late',
        kind: 'stock',
        health: 'attention',
        text: 'Sincronização de estoque e preço sem sucesso há 4 dias (agendada a cada 24 h)',
      }),
    ]);
    // It became late three intervals after the last success: that is its since, whenever it was seen.
    const succeeded = (
      await suite.t.sql<{ at: Date }>(
        `select max(finished_at) as at from sync_runs where client_id = $1 and kind = 'stock'`,
        [c.id],
      )
    )[0].at;
    expect(Date.parse(late.reasons[0].since)).toBe(new Date(succeeded).getTime() + 3 * DAY);

    await health.refresh(new Date(Date.now() + 13 * DAY));
    expect(await healthOf(c.id)).toMatchObject({ health: 'critical', reasons: [{ code: 'run_late' }] });

    // A client whose catalogue never reached the store is not "Em dia", however young; its stock is late from its
    // creation on.
    const never = await suite.tools.connectedClient();
    await health.refresh();
    expect(await healthOf(never.id)).toMatchObject({
      health: 'attention',
      reasons: [
        {
          code: 'run_never',
          kind: 'catalogue',
          text: expect.stringMatching(
            /^Sincronização do catálogo nunca concluída; cliente criado há menos de 1 min \(agendada a cada 36[56] dias\)$/,
          ),
        },
      ],
    });
    await health.refresh(new Date(Date.now() + 4 * DAY));
    const reasons = (await healthOf(never.id)).reasons;
    expect(reasons.map((r) => `${r.code} ${r.kind}`).sort()).toEqual(['run_never catalogue', 'run_never stock']);
    expect(reasons.find((r) => r.kind === 'stock')!.text).toBe(
      'Sincronização de estoque e preço nunca concluída; cliente criado há 4 dias (agendada a cada 24 h)',
    );
  });

  it('counts runs failing in a row: attention at the first, critical at the third, with why', async () => {
    const c = await suite.tools.connectedClient({ hiper_token: 'h'.repeat(64) });
    const health = suite.t.gateway.services.health;
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'failed' });
    await health.refresh();
    const once = await healthOf(c.id);
    expect(once.health).toBe('attention');
    expect(once.reasons.find((r) => r.code === 'run_failed')).toMatchObject({
      health: 'attention',
      kind: 'catalogue',
      text: 'A última sincronização do catálogo falhou: Token Hiper recusado pelo Hiper',
    });
    // A failed client is offered "Sincronizar agora" again (the staff's retry), and fails the same way.
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'failed' });
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'failed' });
    await health.refresh();
    const failing = await healthOf(c.id);
    expect(failing.health).toBe('critical');
    expect(failing.reasons[0]).toMatchObject({
      code: 'run_failed',
      health: 'critical',
      text: 'As 3 últimas sincronizações do catálogo falharam: Token Hiper recusado pelo Hiper',
    });
  });

  it('names orders waiting for a person, how many and the oldest’s age, critical past 4 hours', async () => {
    const c = await suite.tools.connectedClient();
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded' });
    await order(c.id, 'held', 20 * 60_000);
    await order(c.id, 'held', 5 * 60_000);
    await order(c.id, 'uncertain', 3 * 60_000);
    await order(c.id, 'received', 2 * 60_000);
    await order(c.id, 'sent', 9 * HOUR);
    const health = suite.t.gateway.services.health;
    await health.refresh();
    const waiting = await healthOf(c.id);
    expect(waiting.health).toBe('attention');
    expect(waiting.reasons.map((r) => r.text)).toEqual([
      '2 pedidos aguardando pessoa; o mais antigo há 20 min',
      '1 pedido com envio incerto ao Hiper; o mais antigo há 3 min',
    ]);

    await order(c.id, 'received', 5 * HOUR);
    await health.refresh();
    const stuck = await healthOf(c.id);
    expect(stuck.health).toBe('critical');
    expect(stuck.reasons[0]).toMatchObject({
      code: 'orders_stuck',
      health: 'critical',
      text: '1 pedido parado em “Recebido”; o mais antigo há 5 h',
    });
  });

  it('keeps since when across checks, lists worst first, filters by health, and GraphQL serves the same', async () => {
    const ok = await suite.tools.connectedClient();
    expect(await suite.tools.syncNow(ok.id)).toMatchObject({ state: 'succeeded' });
    const bad = await suite.tools.connectedClient();
    expect(await suite.tools.syncNow(bad.id)).toMatchObject({ state: 'succeeded' });
    await order(bad.id, 'rejected', 10 * 60_000);
    await suite.t.sql(`update clients set nuvemshop_missing_scopes = 'read_customers' where id = $1`, [bad.id]);
    const health = suite.t.gateway.services.health;
    await health.refresh();
    const first = await healthOf(bad.id);
    expect(first.reasons.map((r) => r.code).sort()).toEqual(['orders_rejected', 'scopes_missing']);
    await new Promise((r) => setTimeout(r, 20));
    await health.refresh();
    const second = await healthOf(bad.id);
    expect(second.health_since).toBe(first.health_since);
    expect(second.reasons.find((r) => r.code === 'scopes_missing')!.since).toBe(
      first.reasons.find((r) => r.code === 'scopes_missing')!.since,
    );

    const list = await suite.t.request('GET', '/api/v1/client-health/?limit=1000', { token: suite.su });
    const severities = list.body.data.map((row: { health: string }) =>
      ['ok', 'attention', 'critical'].indexOf(row.health),
    );
    expect(severities).toEqual([...severities].sort((a: number, b: number) => b - a));
    expect(severities.at(-1)).toBe(0);

    const attention = await suite.t.request('GET', '/api/v1/client-health/?health=attention', { token: suite.su });
    expect(attention.body.data.every((row: { health: string }) => row.health === 'attention')).toBe(true);
    expect(attention.body.data.map((row: { client_id: string }) => row.client_id)).toContain(bad.id);

    const refused = await suite.t.request('GET', '/api/v1/client-health/?health=sick', { token: suite.su });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['query', 'health']);
    expect((await suite.t.request('GET', '/api/v1/client-health/')).status).toBe(401);

    const graphql = await suite.t.graphql(
      `query ($filter: ClientHealthFilter) { allClientHealths(filter: $filter) { client_id health reasons } }`,
      { filter: { client_id: bad.id } },
      suite.su,
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data!.allClientHealths).toEqual([
      { client_id: bad.id, health: second.health, reasons: second.reasons },
    ]);
  });

  it('leaves an archived client out', async () => {
    const c = await suite.tools.connectedClient();
    await suite.t.gateway.services.health.refresh();
    await healthOf(c.id);
    expect((await suite.t.request('DELETE', `/api/v1/clients/${c.id}`, { token: suite.su })).status).toBe(200);
    await suite.t.gateway.services.health.refresh();
    const answer = await suite.t.request('GET', `/api/v1/client-health/?client_id=${c.id}`, { token: suite.su });
    expect(answer.body).toEqual({ data: [], count: 0 });
  });

  it('works out more clients than one batch holds, each once', async () => {
    await suite.t.sql(
      `insert into clients (id, url, sync_state, created_at, updated_at)
       select gen_random_uuid(), 'https://lote' || n || '.example.com', 'not_connected', now(), now()
       from generate_series(1, 1201) n`,
    );
    const counts = await suite.t.gateway.services.health.refresh();
    const [{ live }] = await suite.t.sql<{ live: number }>(
      `select count(*)::int as live from clients where archived_at is null`,
    );
    expect(counts.ok + counts.attention + counts.critical).toBe(live);
    const [{ rows, distinct }] = await suite.t.sql<{ rows: number; distinct: number }>(
      `select count(*)::int as rows, count(distinct client_id)::int as distinct from client_health`,
    );
    expect({ rows, distinct }).toEqual({ rows: live, distinct: live });
    const lote = await suite.t.request('GET', '/api/v1/client-health/?health=attention&limit=1', { token: suite.su });
    expect(lote.body.count).toBeGreaterThanOrEqual(1201);
  });

  it('needs attention once 3 runs in 24 hours ended on Nuvemshop’s 429s, not before', async () => {
    const c = await suite.tools.connectedClient();
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded' });
    const limited = () =>
      suite.t.sql(
        `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, finished_at, errors)
         values (gen_random_uuid(), $1, 'stock', 'schedule', 'succeeded', now(), now(),
           '[{"hiper_id": "", "sku": null, "message": "429", "code": "nuvemshop_rate_limited"}]')`,
        [c.id],
      );
    await limited();
    await limited();
    await suite.t.gateway.services.health.refresh();
    expect((await healthOf(c.id)).reasons.map((r) => r.code)).not.toContain('rate_limited');
    await limited();
    await suite.t.gateway.services.health.refresh();
    expect((await healthOf(c.id)).reasons).toContainEqual(
      expect.objectContaining({
        code: 'rate_limited',
        health: 'attention',
        text: '3 sincronizações nas últimas 24 h pararam no limite de chamadas da Nuvemshop (429)',
      }),
    );
  });
});
