import { datetime, id, int, reference, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import type { EntityOf } from '../kit/entity';

export const PRODUCT_LINK_STATES = ['linked', 'unpublished', 'failed'] as const;
export type ProductLinkState = (typeof PRODUCT_LINK_STATES)[number];

/** One Hiper product or variation and the Nuvemshop variant it became (a simple product has one). */
export const productLinkResource = new Resource(
  'ProductLink',
  {
    id: id(),
    client_id: reference('client', 'Client', { readOnly: true, filterable: true, listed: true, onDelete: 'restrict' }),
    hiper_id: text({ max: 64, readOnly: true, description: 'The Hiper product’s (or variation’s) id' }),
    sku: text({ nullable: true, max: 64, readOnly: true, listed: true, searchable: true }),
    name: text({ nullable: true, max: 255, readOnly: true, listed: true, searchable: true }),
    nuvemshop_product_id: int({ min: 0, max: Number.MAX_SAFE_INTEGER, readOnly: true, listed: true }),
    nuvemshop_variant_id: int({ min: 0, max: Number.MAX_SAFE_INTEGER, readOnly: true }),
    state: state(PRODUCT_LINK_STATES, {
      default: 'linked',
      readOnly: true,
      listed: true,
      filterable: true,
      tones: { linked: 'success', unpublished: 'warning', failed: 'error' },
    }),
    last_synced_at: datetime({ nullable: true, readOnly: true, listed: true, sortable: true }),
    last_error: text({ nullable: true, readOnly: true, listed: true }),
  },
  {
    operations: ['list', 'get'],
    screen: 'produtos-vinculados',
    title: 'name',
    menu: 16,
    icon: 'Inventory',
    description: 'A Hiper product or variation and the Nuvemshop variant it became',
  },
);

export type ProductLinkPublic = PublicOf<typeof productLinkResource.fields>;
/** A product link as the ORM holds it. */
export type ProductLinkEntity = EntityOf<typeof productLinkResource>;

/** How a link names its variant: the product's name, with a grade's values after it (`Tênis — Azul / 42`). */
export function linkName(product: string, values: readonly string[]): string {
  const shown = values.map((value) => value.trim()).filter(Boolean);
  return (shown.length ? `${product} — ${shown.join(' / ')}` : product).slice(0, 255);
}
