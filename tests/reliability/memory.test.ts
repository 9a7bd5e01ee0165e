import { selectionOf } from '../support/declarations';
import { clientResource } from '../../gateway/clients/client.resource';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, sql } from '../support/database';
import { call } from '../support/gateway';
import { recordFigures } from './support/figures';
import { productionFlags, startGatewayProcess, type GatewayProcess } from './support/gateway-process';

/**
 * Anonymous distinct query texts, padded with a comment (free of tokens), must not grow the gateway's memory without
 * bound: the built gateway runs under the heap flags production runs with (the image's CMD, which `npm start` shares).
 */
const SENT = 2000;
const PEAK_RSS_BOUND_MB = 150;
/** The bound for the replay of the heap exhaustion attack: 15,000 clients read in pages of 1,000. */
const LARGE_LISTS_RSS_BOUND_MB = 200;

let database: { url: string; drop(): Promise<void> };
let gateway: GatewayProcess;

/** The process's resident memory now and at its peak, in MB, as the kernel counts it. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  gateway = await startGatewayProcess(
    { DATABASE_URL: database.url, FIRST_SUPERUSER_PASSWORD: 'superuser-password' },
    60_000,
    productionFlags(),
  );
});

afterAll(async () => {
  await gateway?.stop();
  await database?.drop();
});

/** Sends `count` requests made by `body(i)`, `parallel` at a time, and returns how many got each status. */
async function flood(count: number, parallel: number, body: (i: number) => string) {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        const answer = await fetch(`${gateway.url}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: body(i),
        });
        await answer.arrayBuffer();
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

describe('padded distinct queries', () => {
  it(`leave the gateway alive, answering and under ${PEAK_RSS_BOUND_MB} MB`, async () => {
    const pid = gateway.child.pid!;
    const padding = (length: number, i: number) => `{ __typename } #${'x'.repeat(length)} ${i}`;
    // ~98 KB each, as the attack sent them: refused unread.
    const long = await flood(SENT, 8, (i) => JSON.stringify({ query: padding(98_000, i) }));
    expect(long).toEqual({ 413: SENT });
    // Just under the length bound: parsed, answered and kept in the bounded document cache.
    const accepted = await flood(SENT, 8, (i) => JSON.stringify({ query: padding(19_900, i) }));
    expect(accepted).toEqual({ 200: SENT });
    expect(gateway.exitCode()).toBeUndefined();
    const health = await call(gateway.url, 'GET', '/api/v1/utils/health-check/');
    expect(health.body).toBe(true);
    const query = await call(gateway.url, 'POST', '/graphql', { json: { query: '{ __typename }' } });
    expect(query.body).toEqual({ data: { __typename: 'Query' } });
    const { rss, peak } = memory(pid);
    expect(peak).toBeLessThan(PEAK_RSS_BOUND_MB);
    expect(gateway.output.join('\n')).not.toMatch(/heap out of memory/i);
    recordFigures('memory', {
      paddedQueries: `${SENT} of 98 KB sent (413) and ${SENT} of 20 KB (200), process alive, RSS ${rss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (flags ${productionFlags().join(' ')})`,
    });
  });
});

const CLIENT_FIELDS = selectionOf(clientResource);

describe('the heap exhaustion attack, replayed', () => {
  it(`leaves the gateway alive, answering and under ${LARGE_LISTS_RSS_BOUND_MB} MB`, async () => {
    const pid = gateway.child.pid!;
    await sql(
      database.url,
      `insert into clients (id, url, hiper_token, nuvemshop_token, nuvemshop_store_id)
       select gen_random_uuid(), 'https://store-' || n || '.example.com', null, null, n
       from generate_series(1, 15000) as n`,
    );
    // 800 anonymous distinct texts of 15 aliased lists and a fragment (within GRAPHQL_MAX_SELECTIONS): each parsed,
    // validated and refused (signed out), none compiled.
    const anonymous = await flood(800, 8, (i) =>
      JSON.stringify({
        query: `query Q${i} { ${Array.from({ length: 15 }, (_, n) => `a${n}: allClients(page: ${n}, perPage: 10) { ...F }`).join(' ')} } fragment F on Client { ${CLIENT_FIELDS} }`,
      }),
    );
    expect(Object.keys(anonymous)).toEqual(['200']);
    const signup = await call(gateway.url, 'POST', '/api/v1/users/signup', {
      json: { email: 'lister@example.com', password: 'a-good-password' },
    });
    expect(signup.status).toBe(200);
    const login = await call(gateway.url, 'POST', '/api/v1/login/access-token', {
      form: { username: 'lister@example.com', password: 'a-good-password' },
    });
    const token = login.body.access_token as string;
    // The fields in a fragment, spread in each list: written out in each, 15 lists pass GRAPHQL_MAX_SELECTIONS.
    const lists = (aliases: number) =>
      `{ ${Array.from({ length: aliases }, (_, i) => `p${i}: allClients(page: ${i}, perPage: 1000) { ...C }`).join(' ')} } fragment C on Client { ${CLIENT_FIELDS} }`;
    const statuses: Record<string, number[]> = { 15: [], 5: [] };
    // 12 at once of each: 15 pages of 1,000 (refused: more than GRAPHQL_MAX_ROWS) and 5 pages of 1,000 (answered).
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const aliases = i % 2 ? 5 : 15;
        const answer = await call(gateway.url, 'POST', '/graphql', { token, json: { query: lists(aliases) } });
        statuses[aliases].push(answer.status);
        if (aliases === 15) expect(answer.body.errors[0].extensions.code).toBe('ROWS_LIMIT_EXCEEDED');
        else expect(answer.body.data.p4).toHaveLength(1000);
      }),
    );
    expect(statuses[15]).toEqual(Array(12).fill(400));
    expect(statuses[5]).toEqual(Array(12).fill(200));
    expect(gateway.exitCode()).toBeUndefined();
    const health = await call(gateway.url, 'GET', '/api/v1/utils/health-check/');
    expect(health.body).toBe(true);
    const { rss, peak } = memory(pid);
    expect(peak).toBeLessThan(LARGE_LISTS_RSS_BOUND_MB);
    expect(gateway.output.join('\n')).not.toMatch(/heap (limit|out of memory)/i);
    recordFigures('memory-large-lists', {
      largeLists: `800 anonymous distinct texts, then 12 requests of 15 pages of 1,000 clients (400) and 12 of 5 pages (200) at once over 15,000 clients: process alive, RSS ${rss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
    });
  });
});
