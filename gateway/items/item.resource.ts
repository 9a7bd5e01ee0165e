import { id, reference, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { CreateOf, PublicOf, UpdateOf } from '../kit/field';

/** A generic item, owned by the user who created it: anyone but a superuser sees only their own. */
export const itemResource = new Resource(
  'Item',
  {
    id: id({ listed: true }),
    title: text({ required: true, max: 255, listed: true, sortable: true, searchable: true }),
    description: text({ nullable: true, max: 255, listed: true, sortable: true }),
    // Its owner is whoever created it: the service sets it.
    owner_id: reference('owner', 'User', { readOnly: true }),
  },
  { owner: 'owner_id', ownerTotals: 'owner_item_counts', title: 'title', menu: 20, icon: 'Inventory' },
);

type ItemFields = typeof itemResource.fields;
export type ItemPublic = PublicOf<ItemFields>;
export type ItemCreate = CreateOf<ItemFields>;
export type ItemUpdate = UpdateOf<ItemFields>;
