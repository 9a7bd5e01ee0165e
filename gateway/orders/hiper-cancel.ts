import type { HiperClient } from '../platforms/hiper.client';
import { PlatformError } from '../platforms/platform-call';
import { hiperOrderPath } from './hiper-order-id';

/** Hiper's answer to a cancel: asked (it processes the cancel later), or refused with its reasons in its words. */
export type CancelAnswer = { asked: true } | { asked: false; refused: string };

/**
 * `PUT /pedido-de-venda/cancelar/{id}`. A 2xx whose `errors` is not empty is a refusal (the cancel is a request
 * Hiper processes later, so only an empty `errors` means it took it). Hiper down, slow or busy (a 5xx, 408, 429, no
 * connection) throws a PlatformError; an id that is not one throws before anything is sent.
 */
export async function cancelSalesOrder(hiper: HiperClient, hiperOrderId: unknown): Promise<CancelAnswer> {
  const { status, body } = await hiper.authorized('PUT', hiperOrderPath('/pedido-de-venda/cancelar/', hiperOrderId));
  if (status >= 500 || status === 429 || status === 408) throw new PlatformError(`Hiper answered HTTP ${status}`, true);
  const { errors, message } = (body && typeof body === 'object' ? body : {}) as { errors?: unknown; message?: unknown };
  const listed = Array.isArray(errors) ? errors.map(String).filter(Boolean) : [];
  if (status >= 200 && status < 300 && listed.length === 0) return { asked: true };
  const said = listed.join('; ') || (typeof message === 'string' && message) || `HTTP ${status}`;
  return { asked: false, refused: said.slice(0, 500) };
}
