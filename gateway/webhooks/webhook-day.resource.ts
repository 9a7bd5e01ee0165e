import { date, id, int } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';

/**
 * The signed webhooks of one store on one day (UTC): how many were recorded, and how many came past the day's cap,
 * were answered and not recorded. Written by the webhook route alone, one row per store and day; staff read it. It
 * names the store alone, as a webhook's row does when recorded: a reference to the client would wait on its row.
 */
export const webhookDayResource = new Resource(
  'WebhookDay',
  {
    id: id(),
    store_id: int({ min: 0, max: Number.MAX_SAFE_INTEGER, listed: true, description: 'Nuvemshop store id' }),
    day: date({ listed: true, sortable: true, description: 'The day, in UTC' }),
    recorded: int({ min: 0, max: 2_147_483_647, default: 0, listed: true, description: 'Signed webhooks recorded' }),
    dropped: int({
      min: 0,
      max: 2_147_483_647,
      default: 0,
      listed: true,
      description: 'Signed webhooks past the day’s cap: answered, not recorded (an order’s still worked on)',
    }),
  },
  {
    path: 'webhook-days',
    screen: 'webhooks-por-dia',
    noun: 'webhook day',
    operations: ['list', 'get'],
    title: 'day',
    menu: 41,
    icon: 'List',
    description: 'The signed webhooks of a store on a day: recorded, and dropped past the day’s cap',
  },
);

export type WebhookDayPublic = PublicOf<typeof webhookDayResource.fields>;
