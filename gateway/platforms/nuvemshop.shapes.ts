/** What Nuvemshop's API answers and takes, in both of its documented shapes where they differ. */

/** A text per language (`{pt: "..."}`) as Nuvemshop reads it back; a plain string writes every language. */
export type Languages = Record<string, string>;
type Text = string | Languages;

export interface NuvemshopInventoryLevel {
  id?: number | string;
  location_id: string;
  stock: number | null;
}

export interface NuvemshopVariant {
  id: number;
  product_id: number;
  position?: number;
  /** Decimal text, e.g. "25.00"; null starts a contact instead of a checkout. */
  price: string | null;
  promotional_price: string | null;
  stock_management: boolean;
  /** Null when `stock_management` is false; the total over locations under multi-inventory. */
  stock: number | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  depth: string | null;
  sku: string | null;
  barcode: string | null;
  values: Languages[];
  image_id: number | null;
  inventory_levels?: NuvemshopInventoryLevel[];
  created_at: string;
  updated_at: string;
}

export interface NuvemshopImage {
  id: number;
  product_id: number;
  /** Nuvemshop's own copy on its CDN, never the address it was given. */
  src: string;
  position: number;
}

export interface NuvemshopCategory {
  id: number;
  name: Languages;
  description: Languages;
  handle: Languages;
  /** The parent's id; a root has null (or 0, as v1 is reported to answer). */
  parent: number | null;
  subcategories: number[];
  created_at: string;
  updated_at: string;
}

export interface NuvemshopProduct {
  id: number;
  name: Languages;
  description: Languages;
  handle: Languages;
  attributes: Languages[];
  published: boolean;
  brand: string | null;
  categories: NuvemshopCategory[];
  variants: NuvemshopVariant[];
  images: NuvemshopImage[];
  created_at: string;
  updated_at: string;
}

export interface NuvemshopWebhook {
  id: number;
  event: string;
  url: string;
  created_at: string;
  updated_at: string;
}

/** The store's own record (`GET /store`): what is read of it when the app is installed. */
export interface NuvemshopStoreInfo {
  id: number;
  name: Languages;
  email?: string;
  business_name?: string | null;
  business_id?: string | null;
  business_address?: string | null;
  address?: string | null;
  phone?: string | null;
  country?: string;
  main_language?: string;
  [field: string]: unknown;
}

/** An order's line (`products[]`): prices are decimal texts. */
export interface NuvemshopOrderLine {
  id?: number;
  product_id: number;
  variant_id: number;
  name: string;
  price: string;
  quantity: number | string;
  sku: string | null;
}

/** An order as `GET /orders/{id}` answers it: the fields the product reads. */
export interface NuvemshopOrder {
  id: number;
  number: number;
  contact_email?: string | null;
  contact_name?: string | null;
  /** The buyer's CPF/CNPJ on the order itself: `customer` comes only with the `read_customers` scope. */
  contact_identification?: string | null;
  customer?: { name?: string | null; email?: string | null; identification?: string | null } | null;
  /** The 2025-03 Order API's buyer kind (`person` or `company`), and a company's names and state registration. */
  billing_customer_type?: string | null;
  billing_business_name?: string | null;
  billing_trade_name?: string | null;
  billing_state_registration?: string | null;
  shipping_address?: {
    name?: string | null;
    address?: string | null;
    number?: string | null;
    floor?: string | null;
    locality?: string | null;
    city?: string | null;
    province?: string | null;
    zipcode?: string | null;
  } | null;
  billing_address?: string | null;
  billing_number?: string | null;
  billing_floor?: string | null;
  billing_locality?: string | null;
  billing_zipcode?: string | null;
  billing_city?: string | null;
  billing_province?: string | null;
  note?: string | null;
  total: string;
  subtotal?: string;
  discount?: string;
  /** The freight the buyer paid: absent from the 2025-03 Order API, which keeps it on the fulfillment orders. */
  shipping_cost_customer?: string | null;
  payment_details?: { method?: string | null; installments?: string | number | null } | null;
  status: string;
  payment_status: string;
  shipping_status?: string;
  products: NuvemshopOrderLine[];
  /** The order's fulfillment orders, when read with `aggregates=fulfillment_orders`. */
  fulfillment_orders?: NuvemshopFulfillmentOrder[];
  created_at: string;
  updated_at: string;
}

/** A metafield of a store's record, as `GET /metafields/{resource}` lists it. */
export interface NuvemshopMetafield {
  id: number;
  namespace: string;
  key: string;
  value: string;
  owner_id: number;
}

/**
 * One of the store's stock locations as `GET /locations` answers it: a ULID-like id, its name per language
 * (`{"pt_BR": "..."}`, or a plain string), its priority (0 first) and whether it is the store's default.
 */
export interface NuvemshopLocation {
  id: string;
  name?: Languages | string | null;
  priority?: number | null;
  is_default?: boolean | null;
}

/**
 * A fulfillment order of an order (stores with several locations), in the shape of Tiendanube's own mocks
 * (`assigned_location.id`, `line_items[].order_line_item_id`) or of the 2025-03 pages (`assigned_location.location_id`,
 * `line_items[].external_id` and `variant.variant_id`): both are read.
 */
export interface NuvemshopFulfillmentOrder {
  id: string;
  /** "The unique fulfillment order nice number" (text, from 1 among the order's). */
  number?: string | number | null;
  status: string;
  assigned_location?: { id?: string | null; location_id?: string | null; name?: string | null } | null;
  line_items?:
    | {
        id?: string | number | null;
        quantity?: number | string | null;
        order_line_item_id?: string | number | null;
        external_id?: string | number | null;
        variant?: { variant_id?: string | number | null } | null;
        variant_id?: string | number | null;
      }[]
    | null;
  /** Its shipping: `ship` or `pickup`, and the freight the buyer paid (`{value, currency}`, or a plain amount). */
  shipping?: {
    type?: string | null;
    consumer_cost?: { value?: number | string | null } | number | string | null;
  } | null;
}

/** A variant's fields as written. Stock is whole units; `inventory_levels` wins over `stock` when both are sent. */
export interface VariantFields {
  price?: number | string | null;
  promotional_price?: number | string | null;
  stock?: number | null;
  inventory_levels?: { location_id: string; stock: number | null }[];
  weight?: number | string;
  width?: number | string;
  height?: number | string;
  depth?: number | string;
  sku?: string | null;
  barcode?: string | null;
  values?: Text[];
  image_id?: number | null;
}

export type NewVariant = VariantFields;
export type VariantChanges = VariantFields & { id: number };

export type NewImage = { src: string; position?: number } | { attachment: string; filename: string; position?: number };
export interface ImageChanges {
  src?: string;
  position?: number;
}

export interface NewProduct {
  name: Text;
  description?: Text;
  brand?: string | null;
  published?: boolean;
  /** One per variant axis, e.g. `[{pt: "Cor"}, {pt: "Tamanho"}]`; at most 3. */
  attributes?: Text[];
  variants?: NewVariant[];
  images?: NewImage[];
  /** Category ids. */
  categories?: number[];
}

/** What the synchronisation changes on an existing product: never its price or stock, which live on variants. */
export interface ProductChanges {
  name?: Text;
  description?: Text;
  brand?: string | null;
  published?: boolean;
  /** Replaces the whole list. */
  categories?: number[];
  /** The variant axes, changed before the variants' values that must match them. */
  attributes?: Text[];
}

/** One product's variants in `PATCH /products/stock-price`. */
export interface StockPriceProduct {
  id: number;
  variants: {
    id: number;
    price?: number | string | null;
    promotional_price?: number | string | null;
    stock?: number | null;
    inventory_levels?: { location_id: string; stock: number | null }[];
  }[];
}

/** How one variant of a `stock-price` call went: a batch can be half applied. */
export interface StockPriceResult {
  productId: number;
  variantId: number;
  success: boolean;
  error?: string;
}

export interface NewCategory {
  name: Text;
  parent?: number | null;
}

export interface NewWebhook {
  event: string;
  url: string;
}
