import { z } from 'zod';

/**
 * Hiper's id of a sales order (a uuid in every answer seen): letters, digits, `-` and `_`, 1 to 64. Anything else is
 * refused where it comes in and never put in a Hiper path, where `..` or `a/b` would make another call.
 */
const PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const HIPER_ORDER_ID_INVALID = "Hiper's id of a sales order is 1 to 64 letters, digits, '-' or '_'";
export const HIPER_ORDER_ID_REQUIRED =
  "Hiper's id of the sales order is required: find the order in Hiper's sales orders by its number";

export const isHiperOrderId = (value: unknown): value is string => typeof value === 'string' && PATTERN.test(value);

/** The id as staff type it: spaces around it dropped, then checked. */
export const HiperOrderId = z
  .string()
  .trim()
  .regex(PATTERN, { error: HIPER_ORDER_ID_INVALID })
  .meta({ description: "Hiper's id of the sales order: 1 to 64 letters, digits, '-' or '_'" });

/** A stored id that is not one, as staff read it on the order: nothing was asked of Hiper with it. */
export const notAHiperOrderId = (value: unknown) =>
  `O ID no Hiper deste pedido não é um ID válido (${JSON.stringify(String(value ?? '')).slice(0, 80)}): nada foi pedido ao Hiper`;

/** Thrown instead of calling Hiper with a path made from something that is not an id. */
export class NotAHiperOrderId extends Error {
  constructor(value: unknown) {
    super(notAHiperOrderId(value));
    this.name = 'NotAHiperOrderId';
  }
}

/** `prefix` followed by the sales order's id, or NotAHiperOrderId: the id can never change which call is made. */
export function hiperOrderPath(prefix: string, id: unknown): string {
  if (!isHiperOrderId(id)) throw new NotAHiperOrderId(id);
  return `${prefix}${id}`;
}
