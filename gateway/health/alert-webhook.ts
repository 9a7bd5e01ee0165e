import { createHmac } from 'node:crypto';
import type { Config } from '../config';
import { healthLink, type ClientHealthFacts } from '../email/health.email';
import type { JobPayloads } from '../queue/payloads';
import type { HealthAlerts } from './health-alerts';

/** The header carrying the body's HMAC-SHA256 under ALERT_WEBHOOK_SECRET: `sha256=<hex>`. */
export const ALERT_SIGNATURE_HEADER = 'X-Alert-Signature';

/** How long one post may take (ms). */
const POST_TIMEOUT_MS = 10_000;

/** The body's signature, as a receiver checks it. */
export const alertSignature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Posts an alert, a recovery or the digest to ALERT_WEBHOOK_URL as JSON (`event`, `text` for a chat tool to show,
 * `clients` with each one's health and reasons, `link`), signed; made when it is sent, from the health as it is then.
 * A refusal or no answer fails the attempt, tried again with backoff.
 */
export async function postAlert(
  config: Config,
  alerts: HealthAlerts,
  job: JobPayloads['alert-webhook'],
): Promise<{ posted: boolean; reason?: string }> {
  const url = config.ALERT_WEBHOOK_URL;
  const secret = config.ALERT_WEBHOOK_SECRET;
  if (!url || !secret) return { posted: false, reason: 'ALERT_WEBHOOK_URL is not set' };
  const clients: ClientHealthFacts[] = await alerts.facts(job.clientId);
  if (!clients.length) return { posted: false, reason: 'nothing is left to say' };
  const [first] = clients;
  const text =
    job.event === 'digest'
      ? `Resumo do dia: ${clients.length} ${clients.length === 1 ? 'cliente' : 'clientes'} fora de “Em dia”`
      : job.event === 'alert'
        ? `${first.health === 'critical' ? 'Crítico' : 'Atenção'}: ${first.name}: ${first.reasons
            .filter((reason) => !job.codes || job.codes.includes(reason.code))
            .map((reason) => reason.text)
            .join('; ')}`
        : `De volta: ${first.name}`;
  const body = JSON.stringify({
    event: job.event,
    text,
    clients: clients.map(({ clientId, name, health, reasons }) => ({ id: clientId, name, health, reasons })),
    link: healthLink(config.FRONTEND_HOST, job.event === 'digest' ? undefined : job.clientId),
  });
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [ALERT_SIGNATURE_HEADER]: alertSignature(secret, body) },
    body,
    redirect: 'error',
    signal: AbortSignal.timeout(POST_TIMEOUT_MS),
  });
  if (!answer.ok) throw new Error(`the alert webhook answered ${answer.status}`);
  return { posted: true };
}
