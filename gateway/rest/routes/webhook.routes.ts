import type { WebhookRoute, WebhookService } from '../../webhooks/webhook.service';
import { AppWebhook, PrivacyWebhook, WEBHOOK_BODY_LIMIT } from '../../webhooks/webhook.service';
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
      body: AppWebhook,
      response: Message,
      errors: { 401: 'Invalid signature', 413: 'Request body is too large' },
      handler: async ({ raw, headers }) => {
        await webhooks.receive('app', raw, headers);
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
        body: PrivacyWebhook,
        response: Message,
        errors: { 401: 'Invalid signature (only when a signature is sent)', 413: 'Request body is too large' },
        handler: async ({ raw, headers }) => {
          await webhooks.receive(kind, raw, headers);
          return answered();
        },
      }),
    ),
  ];
}
