import { boolean, datetime, id, int, reference, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';

/**
 * What a store tells the app: the three events it registers, the three privacy requests (told by their URL), the
 * order events registered for clients with orders on, and the location events registered where the store grants
 * `read_locations`.
 */
export const WEBHOOK_EVENTS = [
  'app/uninstalled',
  'app/suspended',
  'app/resumed',
  'store/redact',
  'customers/redact',
  'customers/data_request',
  'order/created',
  'order/paid',
  'order/updated',
  'order/cancelled',
  'location/created',
  'location/updated',
  'location/deleted',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** `recorded` until its job has run; then what the job did with it. An unsigned privacy request is never acted on. */
export const WEBHOOK_OUTCOMES = ['recorded', 'handled', 'ignored', 'failed', 'unsigned'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/**
 * One webhook Nuvemshop delivered, as received and as handled: a history staff read, never written through the API.
 * It is recorded with the store's id alone (the client is linked by its job), so that recording it never waits on a
 * client's row.
 */
export const webhookEventResource = new Resource(
  'WebhookEvent',
  {
    id: id(),
    // Text, not a state: Nuvemshop's names (`app/uninstalled`) are not GraphQL enum values.
    event: text({ max: 32, listed: true, description: WEBHOOK_EVENTS.join(', ') }),
    store_id: int({ min: 0, max: Number.MAX_SAFE_INTEGER, listed: true, description: 'Nuvemshop store id' }),
    client_id: reference('client', 'Client', {
      nullable: true,
      readOnly: true,
      listed: true,
      filterable: true,
      onDelete: 'restrict',
    }),
    received_at: datetime({ listed: true, sortable: true }),
    outcome: state(WEBHOOK_OUTCOMES, {
      default: 'recorded',
      tones: { recorded: 'neutral', handled: 'neutral', ignored: 'neutral', failed: 'error', unsigned: 'neutral' },
      listed: true,
      filterable: true,
      description:
        'recorded (waiting for its job), handled, ignored (changed nothing), failed, or unsigned (not acted on)',
    }),
    note: text({ nullable: true, max: 500, listed: true, description: 'What was done, or why nothing was' }),
    signed: boolean({ default: true, description: 'Whether it carried a valid signature' }),
    webhook_id: text({ nullable: true, max: 64, description: 'The id Nuvemshop sent with it' }),
    // Bookkeeping: the text a repeated delivery is told by (the store, event, id and install, or a hash of the
    // body), answered but hidden from people.
    delivery_key: text({
      max: 200,
      unique: true,
      hidden: true,
      description: 'What makes a delivery the same as another: the store, event, id and install, or the body',
    }),
  },
  {
    path: 'webhook-events',
    screen: 'webhooks',
    noun: 'webhook event',
    operations: ['list', 'get'],
    title: 'event',
    menu: 40,
    icon: 'List',
    description: 'A webhook received from Nuvemshop and what it changed',
  },
);

export type WebhookEventPublic = PublicOf<typeof webhookEventResource.fields>;
