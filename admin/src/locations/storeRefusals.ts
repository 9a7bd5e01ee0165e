import type { useTranslate } from 'react-admin';
import { errorText, isNetworkFailure } from '../api';

type Translate = ReturnType<typeof useTranslate>;

const key = (name: string) => `resources.estoques.refusals.${name}`;

/**
 * The gateway's reason after what the store refused (`…: the app lacks the write_locations permission (HTTP 403)`) in
 * the screen's words; the store's own words, which no one here can translate, quoted as it said them.
 */
function reasonText(reason: string, translate: Translate): string {
  if (/^the store token is no longer valid/.test(reason)) return translate(key('token'));
  if (/^the store is suspended/.test(reason)) return translate(key('suspended'));
  const scope = /^the app lacks the (\w+) permission/.exec(reason)?.[1];
  if (scope) return translate(key('permission'), { scope });
  return translate(key('said'), { said: reason });
}

/**
 * Why a new order, a new default or a new key was not taken, in the screen's words: the gateway answers in English
 * (its texts are the REST dialect's), and Nuvemshop's reasons come after a fixed opening.
 */
export function refusalText(error: unknown, translate: Translate): string {
  if (isNetworkFailure(error)) return translate('app.notification.network');
  const detail = errorText(error, '');
  if (detail === 'Could not reach Nuvemshop; nothing was changed') return translate(key('unreachable'));
  if (detail.startsWith('The client’s store does not let the product in')) return translate(key('stopped'));
  if (detail.startsWith('The store deleted this location')) return translate(key('deleted'));
  if (detail.startsWith('Missing the Nuvemshop')) return translate(key('missing_store'));
  if (detail === 'Location not found') return translate(key('not_found'));
  if (detail === 'Client not found') return translate(key('client_not_found'));
  if (/^Every live location|^Location given more than once|^Location belongs to another client/.test(detail))
    return translate(key('order_invalid'));
  const fed = /^This Hiper key already feeds another location of this client \((.*)\)/.exec(detail);
  if (fed) return translate(key('key_taken'), { name: fed[1] });
  const order = /^Nuvemshop refused the new order of the locations: (.*)$/.exec(detail);
  if (order) return translate(key('order_refused'), { reason: reasonText(order[1], translate) });
  const chosen = /^Nuvemshop refused the new default location: (.*)$/.exec(detail);
  if (chosen) return translate(key('default_refused'), { reason: reasonText(chosen[1], translate) });
  return detail || translate('app.notification.failure');
}
