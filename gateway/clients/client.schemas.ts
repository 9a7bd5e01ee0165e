import { z } from 'zod';
import { RequiredText } from '../validation';
import type { Client } from './client.entity';

export const MAX_STORE_ID = Number.MAX_SAFE_INTEGER;

/** A store id: a non-negative integer, given as a number or as a numeric string (the screens send text). */
export const StoreId = z
  .preprocess(
    (v) => (typeof v === 'string' && /^\s*\d{1,16}\s*$/.test(v) ? Number(v) : v),
    z.number().int().min(0).max(MAX_STORE_ID),
  )
  .meta({ description: 'Nuvemshop store id; 0 when not linked', example: 1234567 });

export const ClientPublic = z
  .object({
    id: z.guid(),
    url: z.string(),
    hiper_token: z.string().nullable(),
    nuvemshop_token: z.string().nullable(),
    nuvemshop_store_id: z.number().int(),
    hiper_sync_update_image: z.boolean(),
    hiper_sync_update_dimensions: z.boolean(),
  })
  .meta({ id: 'ClientPublic' });
export type ClientPublic = z.output<typeof ClientPublic>;

/** The client properties the public shape is made of: all a read for an answer selects. */
export const CLIENT_PUBLIC_PROPS = [
  'id',
  'url',
  'hiperToken',
  'nuvemshopToken',
  'nuvemshopStoreId',
  'hiperSyncUpdateImage',
  'hiperSyncUpdateDimensions',
] as const satisfies readonly (keyof Client)[];

/** The fixed run a masked token starts with; a real token never contains `•`. */
export const MASK = '••••••••';

/**
 * A store token as someone other than a superuser sees it: the run and its last 4 characters (none of a short token,
 * so that never more than a third of it shows).
 */
export const maskToken = (token: string): string => MASK + (token.length >= 12 ? token.slice(-4) : '');

/** A token sent back as it was shown masked: the caller did not change it. */
export const isMaskedToken = (value: string | null | undefined): boolean => !!value?.startsWith(MASK);

const shownToken = (token: string | null | undefined, reveal: boolean) =>
  token == null ? null : reveal ? token : maskToken(token);

/** The answer's shape. Store tokens are in clear for superusers only (`reveal`), masked for everyone else. */
export const toClientPublic = (
  c: Pick<Client, (typeof CLIENT_PUBLIC_PROPS)[number]>,
  reveal: boolean,
): ClientPublic => ({
  id: c.id,
  url: c.url,
  hiper_token: shownToken(c.hiperToken, reveal),
  nuvemshop_token: shownToken(c.nuvemshopToken, reveal),
  nuvemshop_store_id: c.nuvemshopStoreId,
  hiper_sync_update_image: c.hiperSyncUpdateImage,
  hiper_sync_update_dimensions: c.hiperSyncUpdateDimensions,
});

const Token = z.string().max(4096).nullable().optional();

export const ClientCreate = z
  .object({
    url: RequiredText,
    hiper_token: Token,
    nuvemshop_token: Token,
    nuvemshop_store_id: StoreId.default(0),
    hiper_sync_update_image: z.boolean().default(true),
    hiper_sync_update_dimensions: z.boolean().default(true),
  })
  .meta({ id: 'ClientCreate' });

/** PUT takes the same fields, each optional: what is not sent is left as it is. */
export const ClientUpdate = z
  .object({
    url: RequiredText.optional(),
    hiper_token: Token,
    nuvemshop_token: Token,
    nuvemshop_store_id: StoreId.optional(),
    hiper_sync_update_image: z.boolean().optional(),
    hiper_sync_update_dimensions: z.boolean().optional(),
  })
  .meta({ id: 'ClientUpdate' });

export type ClientCreate = z.output<typeof ClientCreate>;
export type ClientUpdate = z.output<typeof ClientUpdate>;
