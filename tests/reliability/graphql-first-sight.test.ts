import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../support/database';
import { recordFigures } from './support/figures';
import { productionFlags, startGatewayProcess, type GatewayProcess } from './support/gateway-process';

/**
 * GraphQL's first sight of a document, flooded by strangers: an attack sent anonymous documents of about 19,500
 * characters, each spreading 430 one-field fragments, each text new (so no cache helped). Every other limit let them
 * through and each cost a median 174 ms to validate; 16 connections sending them pushed the health check to a median
 * 3.1 s. The built gateway runs under production's heap flags while they are sent again.
 */
const CONNECTIONS = 16;
const SPREADS = 430;
const MAX_SELECTIONS = 150;
const HEALTH_SAMPLES = 15;
const HEALTH_MEDIAN_BOUND_MS = 500;
/** A flood stops after this long however few health checks were answered. */
const FLOOD_BOUND_MS = 45_000;

let database: { url: string; drop(): Promise<void> };
let gateway: GatewayProcess;
const figures: Record<string, string> = {};

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  gateway = await startGatewayProcess(
    { DATABASE_URL: database.url, FIRST_SUPERUSER_PASSWORD: 'superuser-password' },
    60_000,
    productionFlags(),
  );
});

afterAll(async () => {
  recordFigures('graphql-first-sight', figures);
  await gateway?.stop();
  await database?.drop();
});

/** The attack's document: SPREADS fragments, each selecting one field and spread once; the comment makes it new. */
function spreads(i: number): string {
  const names = Array.from({ length: SPREADS }, (_, n) => `f${n.toString(36)}`);
  const fragments = names.map((name) => `fragment ${name} on Query { __typename }`).join(' ');
  return `# flood ${i}\nquery { ${names.map((name) => `...${name}`).join(' ')} } ${fragments}`;
}

/**
 * The costliest shape to validate within GRAPHQL_MAX_SELECTIONS: fields of one name, each with a selection, which the
 * merging rule compares in pairs, field by field.
 */
const sameFields = (i: number) => `# flood ${i}\nquery { ${'me { id } '.repeat(MAX_SELECTIONS / 2)}}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Flood {
  sent: number;
  statuses: Record<number, number>;
  messages: Set<string>;
  /** Each health check's time (ms). */
  health: number[];
}

/** CONNECTIONS anonymous connections post `document(i)`, each new, while the health check is asked, one at a time. */
async function flood(document: (i: number) => string): Promise<Flood> {
  const result: Flood = { sent: 0, statuses: {}, messages: new Set(), health: [] };
  let flooding = true;
  const connections = Array.from({ length: CONNECTIONS }, async () => {
    while (flooding) {
      const answer = await fetch(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: document(result.sent++) }),
      }).catch(() => undefined); // a connection the gateway closed: counted as status 0
      const body = ((await answer?.json()) ?? {}) as { errors?: { message: string }[] };
      result.statuses[answer?.status ?? 0] = (result.statuses[answer?.status ?? 0] ?? 0) + 1;
      for (const error of body.errors ?? []) result.messages.add(error.message);
    }
  });
  const started = performance.now();
  try {
    await new Promise((resolve) => setTimeout(resolve, 500)); // every connection busy
    while (result.health.length < HEALTH_SAMPLES && performance.now() - started < FLOOD_BOUND_MS) {
      const before = performance.now();
      const answer = await fetch(`${gateway.url}/api/v1/utils/health-check/`);
      expect(await answer.json()).toBe(true);
      result.health.push(performance.now() - before);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    flooding = false;
    await Promise.all(connections);
  }
  return result;
}

const describeFlood = (seen: Flood, length: number) =>
  `${seen.sent} documents of ${length} characters from ${CONNECTIONS} connections ` +
  `(statuses ${JSON.stringify(seen.statuses)}); health check median ${Math.round(median(seen.health))} ms, ` +
  `max ${Math.round(Math.max(...seen.health))} ms over ${seen.health.length} checks`;

describe(`${CONNECTIONS} anonymous connections sending new documents`, () => {
  it(`of ${SPREADS} fragment spreads: each refused with 400, the health check a median under ${HEALTH_MEDIAN_BOUND_MS} ms`, async () => {
    expect(spreads(0).length).toBeLessThan(20_000); // within GRAPHQL_MAX_QUERY_LENGTH: read and parsed
    const seen = await flood(spreads);
    figures.graphqlSpreadsFlood = describeFlood(seen, spreads(0).length);
    expect(seen.statuses).toEqual({ 400: seen.sent });
    expect([...seen.messages]).toEqual([
      `The query has ${2 * SPREADS} selections (fields and fragments, as written); at most ${MAX_SELECTIONS} are accepted`,
      'Validation aborted.',
    ]);
    expect(median(seen.health)).toBeLessThan(HEALTH_MEDIAN_BOUND_MS);
    expect(gateway.exitCode()).toBeUndefined();
  });

  it(`of ${MAX_SELECTIONS} selections, the costliest shape the bound lets through: the health check a median under ${HEALTH_MEDIAN_BOUND_MS} ms`, async () => {
    const seen = await flood(sameFields);
    figures.graphqlSameFieldsFlood = describeFlood(seen, sameFields(0).length);
    // Validated and run: `me` without a token is refused, with the REST status.
    expect([...seen.messages]).toEqual(['Not authenticated']);
    expect(median(seen.health)).toBeLessThan(HEALTH_MEDIAN_BOUND_MS);
    expect(gateway.exitCode()).toBeUndefined();
  });
});
