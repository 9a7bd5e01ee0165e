import { z } from 'zod';
import { RequiredText, ShortText } from '../validation';
import type { Item } from './item.entity';

export const ItemPublic = z
  .object({ id: z.guid(), title: z.string(), description: z.string().nullable(), owner_id: z.guid() })
  .meta({ id: 'ItemPublic' });
export type ItemPublic = z.output<typeof ItemPublic>;

/** The item properties the public shape is made of: all a read for an answer selects. */
export const ITEM_PUBLIC_PROPS = ['id', 'title', 'description', 'owner'] as const satisfies readonly (keyof Item)[];

export const toItemPublic = (i: Pick<Item, (typeof ITEM_PUBLIC_PROPS)[number]>): ItemPublic => ({
  id: i.id,
  title: i.title,
  description: i.description ?? null,
  owner_id: i.owner.id,
});

export const ItemCreate = z
  .object({ title: RequiredText, description: ShortText.nullable().optional() })
  .meta({ id: 'ItemCreate' });
export const ItemUpdate = z
  .object({ title: RequiredText.optional(), description: ShortText.nullable().optional() })
  .meta({ id: 'ItemUpdate' });
export type ItemCreate = z.output<typeof ItemCreate>;
export type ItemUpdate = z.output<typeof ItemUpdate>;
