import { z } from 'zod';
import { databaseUnavailable } from '../../errors';
import { HEALTH_CHECK_PATH } from '../../http/protections';
import { route } from '../route';

/** How long one answer of the database stands for every health check asked meanwhile (ms). */
const ANSWER_KEPT_MS = 1000;
/** A ping taking longer than this is a database that cannot serve requests either (ms). */
const PING_TIMEOUT_MS = 2000;

/**
 * The health check: true while the database answers, 503 while it cannot be reached, so an orchestrator takes a
 * process that can answer nothing else out of service. Health checks asked at once share one ping, and its answer
 * stands for a second: polled by every orchestrator, or flooded by anyone, it costs the database one statement a
 * second at most.
 */
export function utilsRoutes(ping: () => Promise<unknown>) {
  let known: { at: number; healthy: boolean } | undefined;
  let pending: Promise<boolean> | undefined;
  const check = async (): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the database did not answer in time')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([ping(), late]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      pending = undefined;
    }
  };
  const healthy = async (): Promise<boolean> => {
    if (known && performance.now() - known.at < ANSWER_KEPT_MS) return known.healthy;
    pending ??= check().then((answer) => {
      known = { at: performance.now(), healthy: answer };
      return answer;
    });
    return pending;
  };
  return [
    route({
      method: 'get',
      path: HEALTH_CHECK_PATH.slice('/api/v1'.length),
      tag: 'utils',
      summary: 'Health check',
      auth: false,
      response: z.boolean(),
      errors: { 503: 'The database cannot be reached' },
      handler: async () => {
        if (!(await healthy())) throw databaseUnavailable();
        return true;
      },
    }),
  ];
}
