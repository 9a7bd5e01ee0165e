import type { WebhookRoute, WebhookService } from '../../webhooks/webhook.service';
import { AppWebhook, PrivacyWebhook, UNSIGNED_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from '../../webhooks/webhook.service';
import { messages } from '../../messages';
import { Message } from '../../validation';
import { route } from '../route';

const PRIVACY: [WebhookRoute, string][] = [
  ['store-redact', 'A store asks for its data to be erased (store/redact)'],
  ['customers-redact', 'A customer asks for their data to be erased (customers/redact)'],
  ['customers-data-request', 'A customer asks for their data (customers/data_request)'],
];

/**
 * Nuvemshop's webhooks: public, each body's signature checked over its bytes as sent. Answered once recorded; the
 * work is a job's.
 */
export function webhookRoutes(webhooks: WebhookService) {
  const answered = async () => ({ message: messages.webhookReceived });
  return [
    route({
      method: 'post',
      path: '/webhooks/nuvemshop',
      tag: 'webhooks',
      summary: 'An app event of a store: app/uninstalled, app/suspended or app/resumed',
      auth: false,
      rawBody: WEBHOOK_BODY_LIMIT,
      admit: ({ headers, ip }) => webhooks.admit('app', headers, ip),
      body: AppWebhook,
      response: Message,
      errors: {
        401: 'Invalid signature (unsigned bodies are refused unread)',
        413: 'Request body is too large',
        429: 'Too many failed signatures from this address',
      },
      handler: async ({ raw, headers, caller }) => {
        await webhooks.receive('app', raw, headers, caller.ip);
        return answered();
      },
    }),
    ...PRIVACY.map(([kind, summary]) =>
      route({
        method: 'post',
        path: `/webhooks/nuvemshop/${kind}`,
        tag: 'webhooks',
        summary,
        auth: false,
        rawBody: WEBHOOK_BODY_LIMIT,
        admit: ({ headers, ip }) => webhooks.admit(kind, headers, ip),
        body: PrivacyWebhook,
        response: Message,
        errors: {
          401: 'Invalid signature (only when a signature is sent)',
          413: `Request body is too large (${UNSIGNED_BODY_LIMIT} unsigned, ${WEBHOOK_BODY_LIMIT} signed)`,
          429: 'Too many unsigned requests or failed signatures from this address',
          503: 'Too many unsigned requests waiting',
        },
        handler: async ({ raw, headers, caller }) => {
          await webhooks.receive(kind, raw, headers, caller.ip);
          return answered();
        },
      }),
    ),
  ];
}
