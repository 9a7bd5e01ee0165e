import { isHiperOrderId } from './hiper-order-id';
import { orderNotes } from '../../schema/staff-notes';

/** What Hiper's answer to a sales order's POST proves, whatever its shape. */
export type OrderAnswerVerdict =
  /** Hiper gave the order an id: it holds the order, even when `errors` carried a warning or the status was odd. */
  | { kind: 'sent'; id: string; warning: string | null }
  /** Hiper may hold the order: nothing here may post it again by itself. */
  | { kind: 'uncertain'; reason: string }
  /** 429 without an id: Hiper was busy and made nothing; the job tries again later. */
  | { kind: 'busy' }
  /** A refusal: nothing was created; staff fix the data and resend. */
  | { kind: 'refused'; reason: string };

/** The id an answer carries, as text, when it carries one at all (`undefined`: none). */
function idOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { id } = body as { id?: unknown };
  if (typeof id === 'string' && id.trim()) return id.trim();
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return String(id);
  return undefined;
}

/** What Hiper said in `errors`, else its `message`: its own words for staff, bounded. */
export function hiperWords(body: unknown): string | undefined {
  const { errors, message } = (body && typeof body === 'object' ? body : {}) as { errors?: unknown; message?: unknown };
  const listed = (Array.isArray(errors) ? errors : typeof errors === 'string' ? [errors] : [])
    .map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))
    .filter(Boolean);
  const words = listed.length > 0 ? listed.join('; ') : typeof message === 'string' ? message : '';
  return words ? words.slice(0, 900) : undefined;
}

const hasErrors = (body: unknown) => {
  const errors = (body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined) ?? [];
  return Array.isArray(errors) ? errors.length > 0 : Boolean(errors);
};

/** What `last_error` starts with when Hiper refused a cancellation: such an order waits for a person. */
export const CANCEL_REFUSED = orderNotes.cancel_refused;

const MAY_HOLD = 'o pedido pode ter sido criado no Hiper';

/**
 * Judges Hiper's answer to one POST of a sales order. An id is proof that Hiper holds the order; only an answer that
 * proves nothing was created (a 429 or a plain 4xx refusal, without an id) lets the order be posted again; anything
 * else that came after Hiper may have accepted (a 2xx without an id, a 5xx, a 408, a 409 conflict) is uncertain.
 */
export function judgeOrderAnswer(status: number, body: unknown): OrderAnswerVerdict {
  const id = idOf(body);
  if (id !== undefined) {
    if (!isHiperOrderId(id)) {
      return { kind: 'uncertain', reason: `Hiper respondeu HTTP ${status} com um id que não se entende: ${MAY_HOLD}` };
    }
    const words = hasErrors(body) ? hiperWords(body) : undefined;
    const odd = status < 200 || status >= 300 ? `HTTP ${status}` : undefined;
    const warning = [odd, words].filter(Boolean).join(': ') || null;
    return { kind: 'sent', id, warning };
  }
  if (status === 429) return { kind: 'busy' };
  if ((status >= 200 && status < 300) || status >= 500 || status === 408 || status === 409 || status < 200) {
    const said = hiperWords(body);
    return {
      kind: 'uncertain',
      reason: `Hiper respondeu HTTP ${status} sem o id do pedido${said ? ` (${said})` : ''}: ${MAY_HOLD}`,
    };
  }
  return { kind: 'refused', reason: hiperWords(body) ?? `Hiper recusou o pedido (HTTP ${status})` };
}
