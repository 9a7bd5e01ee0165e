import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

export type Figures = Record<string, string | number>;

/** The figures the summary shows, in this order, with their labels. */
const LABELS: [string, string][] = [
  ['matrixCells', 'authorization matrix cells checked'],
  ['matrixOperations', 'matrix rows (REST routes and GraphQL operations, with variants)'],
  ['fuzzCases', 'fuzz cases run'],
  ['fuzzRestCases', '  of which REST'],
  ['fuzzGraphqlCases', '  of which GraphQL'],
  ['fuzzRefused', 'fuzz cases refused, every table unchanged after each'],
  ['fuzzSeed', 'fuzz seed (replay with FUZZ_SEED=<seed>)'],
  ['rateLimitBudget', 'shared rate-limit budget (2 processes)'],
  ['rateLimitAllowed', 'requests allowed across both processes'],
  ['outageFirst503Ms', 'outage: first 503 after PostgreSQL stopped (ms)'],
  ['outageSlowestAnswerMs', 'outage: slowest answer while PostgreSQL was down (ms)'],
  ['outageRecoveryMs', 'outage: recovery time after PostgreSQL restarted (ms)'],
  ['writesAcknowledged', 'writes acknowledged'],
  ['writesFound', 'writes found after recovery'],
  ['writesHalfApplied', 'writes half-applied'],
  ['outageRequests', 'outage: requests under load'],
  ['raceSignups', 'parallel signups with one email -> users created'],
  ['raceCallbackExchanges', 'parallel callback posts with one code -> exchanges'],
  ['raceCallbackClients', 'parallel callback posts with one code -> clients'],
  ['raceLostFields', 'parallel client updates -> fields lost'],
  ['logLines', 'log lines captured'],
  ['logSecretsChecked', 'secrets looked for in the logs'],
  ['logSecretsFound', 'secrets found in logs'],
  ['paddedQueries', 'padded distinct queries'],
  ['largeLists', 'heap exhaustion replay'],
  ['graphqlSpreadsFlood', 'GraphQL first sight: 16 connections, 430 fragment spreads each'],
  ['graphqlSameFieldsFlood', 'GraphQL first sight: 16 connections, documents at the selection bound'],
  ['securityCallerMistakes', 'GraphQL caller mistakes'],
  ['securityRegistration', 'registration'],
  ['securityMaskedTokens', 'store tokens'],
  ['securitySlowPlatform', 'slow store platform'],
  ['securityLockout', 'account lockout'],
  ['securityDistributedGuessing', 'guessing from many addresses'],
  ['securityRateLimitKeys', 'rate-limit keys'],
  ['securityResetTokenLogs', 'reset tokens in the logs'],
  ['securityPruned', 'expired rows pruned'],
  ['securitySelfDemotion', 'superuser self-demotion'],
  ['securitySuggestions', 'schema suggestions'],
  ['searchPlan', 'search of 300,000 clients: plan of the count'],
  ['searchListMs', 'search: one searched list and total (ms)'],
  ['searchCountMs', 'search: one searched count (ms)'],
  ['searchConcurrentSlowestMs', 'search: slowest of 15 searches at once (ms)'],
  ['searchConcurrentRefused', 'search: of those, refused'],
  ['searchMeDuringConcurrentMs', 'search: /users/me during them (ms)'],
  ['searchAliasesStatus', 'search: 15 aliased searches in one request, status'],
  ['searchAliasesMs', 'search: that request (ms)'],
  ['searchMeDuringAliasesMs', 'search: /users/me during it (ms)'],
  ['searchFlood', "search flood: one user's 20 searches at once over 305,000 items"],
  ['webhookCrash', 'webhooks: large unsigned bodies at once'],
  ['webhookFilling', 'webhooks: small distinct unsigned posts'],
  ['loadOneAddress', 'load: 10,000 at once to every anonymous route from one address'],
  ['ordersOutage', 'orders: 30 sent through a 20 s database outage'],
  ['queueOutage', "queue: a job's attempt failed by a database outage"],
  ['loadManyAddresses', 'load: 10,000 at once to every anonymous route from 1,000 addresses'],
];

/** Records figures of this test file for the summary printed at the end of the run. */
export function recordFigures(name: string, figures: Figures): void {
  writeFileSync(path.join(inject('figuresDir'), `${name}.json`), JSON.stringify(figures));
}

export function formatSummary(recorded: Figures): string {
  const figures = { ...recorded };
  const sum = (a: string, b: string) => Number(figures[a] ?? 0) + Number(figures[b] ?? 0);
  if ('fuzzRestCases' in figures || 'fuzzGraphqlCases' in figures) {
    figures.fuzzCases = sum('fuzzRestCases', 'fuzzGraphqlCases');
    figures.fuzzRefused = sum('fuzzRestRefused', 'fuzzGraphqlRefused');
    delete figures.fuzzRestRefused;
    delete figures.fuzzGraphqlRefused;
  }
  const known = new Set(LABELS.map(([key]) => key));
  const rows = [
    ...LABELS.map(([key, label]) => [label, key in figures ? String(figures[key]) : 'not measured']),
    ...Object.entries(figures)
      .filter(([key]) => !known.has(key))
      .map(([key, value]) => [key, String(value)]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  return ['', 'Reliability summary', ...lines, ''].join('\n');
}
