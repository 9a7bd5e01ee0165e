import { clientResource } from '../../clients/client.resource';
import { ActivityQuery, DailyActivityAnswer, type DailyActivity } from '../../health/daily-activity';
import { route } from '../route';

/** What happened per day (runs, products written, 429s, orders), for the dashboard's and a client's charts. */
export function activityRoutes(activity: DailyActivity) {
  return [
    route({
      method: 'get',
      path: '/activity/',
      tag: 'activity',
      summary:
        'Per day for the last `days` days (1 to 90, 30 unless told) up to today in America/Sao_Paulo, every day ' +
        "present: runs by state, the products they wrote, their 429s, and orders by state; everyone's, or " +
        "`client_id`'s",
      auth: true,
      query: ActivityQuery,
      response: DailyActivityAnswer,
      errors: { 404: clientResource.messages.notFound },
      handler: ({ query }) => activity.read(query),
    }),
  ];
}
