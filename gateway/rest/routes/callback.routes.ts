import { AuthorizeCallback, CallbackAnswer } from '../../callback/callback.schemas';
import type { CallbackService } from '../../callback/callback.service';
import { route } from '../route';

export function callbackRoutes(callback: CallbackService) {
  return [
    route({
      method: 'post',
      path: '/callback/authorize',
      tag: 'callback',
      summary: 'Complete a Nuvemshop app authorization',
      auth: false,
      body: AuthorizeCallback,
      response: CallbackAnswer,
      errors: { 400: 'Nuvemshop refused the code', 429: 'Too many requests', 502: 'Nuvemshop could not be reached' },
      handler: ({ body, caller }) => callback.authorize(body, caller),
    }),
  ];
}
