import type { MikroORM } from '@mikro-orm/postgresql';
import type { StockLocation } from '../locations/location-keys';
import { heldKey, reservedUnits, STORE_WIDE, type Held } from '../orders/reservations';
import type { Tally } from './run-tally';
import type { WrittenVariant } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/**
 * A client's location as a run writes it: where its figures come from (the client's own read, its own account's, or
 * none: written 0), the account they were read from, and whether this run writes it at all.
 */
export interface RunLocation extends StockLocation {
  feed: 'client' | 'own' | 'none';
  /** Its own key's hash, `client` or `none`: the cursor and figures kept for it are this account's. */
  account: string;
  /** Its figures are this run's (its account read, or none needed) and its account did not fail: its levels go out. */
  writable: boolean;
  /** Every product's level here is to be checked (its account changed, or it is new). */
  sweep: boolean;
  /** Where its own account's changes were read up to. */
  stockCursor: number;
}

/**
 * One stock value a write sends for a variant: at one of the client's locations (our row's id), or, for a client
 * without location rows, its one figure (`locationId` null, on its `nuvemshop_location_id` when set).
 */
export interface LevelWrite {
  locationId: string | null;
  /** The store's id of the location (`inventory_levels`' `location_id`); null: the plain `stock`. */
  storeLocationId: string | null;
  value: number;
  /** What the store last had there, as we wrote or read it (null: not known). */
  previous: number | null;
  /** Units held back by orders in `value`, and the newest order holding them. */
  held: number;
  heldBy: string | null;
  /** Units held back in the value written before. */
  heldBefore: number;
}

/** A variant of the catalogue as its client's own account gives it: its figure in whole units, and whether on sale. */
export interface CatalogueFigure {
  stock: number;
  active: boolean;
}

/** A missing SKU's error names its location; the admin says it as `SKU sem estoque no Hiper do estoque {name}`. */
const missingMessage = (sku: string, location: string) =>
  `SKU ${sku} is not in the Hiper account of location ${location}: written 0 there`;

/**
 * What each location's level of a variant should be: its account's figure (the client's own for the location fed by
 * it, 0 where no account feeds it), less the units its orders hold there, never below 0; 0 everywhere for an inactive
 * variation. Reads the figures and the reservations of a set of variants at once; a SKU a location's account does not
 * know is 0 there, and said once per run and location.
 */
export class LevelPlanner {
  private figures = new Map<string, Map<string, number>>();
  private reserved = new Map<string, Held>();
  /** SKUs whose levels were planned since the last `settled`, to be marked written at their locations. */
  readonly planned = new Set<string>();

  constructor(
    private readonly em: Em,
    private readonly client: { id: string; ordersReleaseOn: unknown },
    readonly locations: readonly RunLocation[],
    private readonly tally: Tally,
    /** The missing SKUs this run has said already, by location (kept while the run lasts in this process). */
    private readonly reported: Set<string>,
    /** The client's `nuvemshop_location_id`: a client without location rows writes its one figure there. */
    private readonly storeLocation: string | null,
  ) {}

  /** Whether the client has location rows: each variant is written per location. */
  get located(): boolean {
    return this.locations.length > 0;
  }

  /** Where an order row without a location holds its units: the store's default location, else the first. */
  get defaultLocation(): string | null {
    return (this.locations.find((l) => l.isDefault) ?? this.locations[0])?.id ?? null;
  }

  /** The locations this run writes. */
  get writable(): RunLocation[] {
    return this.locations.filter((l) => l.writable);
  }

  /**
   * Reads what the levels of these variants need: their reservations and, at each location fed by its own account,
   * their figures (at the client's location too with `clientFigures`, when no catalogue read comes with them).
   */
  async load(variants: readonly { hiperId: string; sku: string }[], clientFigures = false): Promise<void> {
    this.reserved = await reservedUnits(
      this.em,
      this.client.id,
      [...new Set(variants.map((v) => v.hiperId))],
      String(this.client.ordersReleaseOn),
      this.defaultLocation,
    );
    this.figures.clear();
    const read = this.writable.filter((l) => l.feed === 'own' || (clientFigures && l.feed === 'client'));
    if (!read.length || !variants.length) return;
    const rows = (await this.em.execute(
      `select location_id, sku, stock from location_stock
        where location_id in (${read.map(() => '?').join(', ')})
          and sku in (select jsonb_array_elements_text(?::jsonb))`,
      [...read.map((l) => l.id), JSON.stringify([...new Set(variants.map((v) => v.sku))])],
    )) as { location_id: string; sku: string; stock: number }[];
    for (const row of rows) {
      let figures = this.figures.get(row.location_id);
      if (!figures) this.figures.set(row.location_id, (figures = new Map()));
      figures.set(row.sku, row.stock);
    }
  }

  /**
   * Keeps the client's own figures of a page as those of the location its account feeds: what a later write of that
   * location (another location's change, a check of every product) reads. They are written with the page itself.
   */
  async keepClientFigures(figures: readonly { sku: string; stock: number }[]): Promise<void> {
    const location = this.writable.find((l) => l.feed === 'client');
    if (!location || !figures.length) return;
    const bySku = new Map(figures.map((f) => [f.sku, f.stock]));
    await this.em.execute(
      `insert into location_stock (location_id, sku, stock, changed)
       select ?, f.sku, f.stock, false from jsonb_to_recordset(?::jsonb) as f(sku text, stock int)
       on conflict (location_id, sku) do update set stock = excluded.stock`,
      [location.id, JSON.stringify([...bySku].map(([sku, stock]) => ({ sku: sku.slice(0, 64), stock })))],
    );
  }

  /** The units orders hold of a Hiper product at a location (`STORE_WIDE` without locations). */
  heldOf(location: string, hiperId: string): Held | undefined {
    return this.reserved.get(heldKey(location, hiperId));
  }

  /**
   * Every level of a variant this run writes, with what the store last had: the caller sends those that differ. A
   * location fed by the client's account whose figure is not known (no catalogue read with it) is left out.
   */
  levels(variant: WrittenVariant, catalogue?: CatalogueFigure): LevelWrite[] {
    if (!this.located) {
      const held = this.heldOf(STORE_WIDE, variant.hiperId);
      const stock = catalogue?.stock ?? variant.stock;
      return [
        {
          locationId: null,
          storeLocationId: this.storeLocation,
          value: Math.max(0, stock - (held?.units ?? 0)),
          previous: variant.stock,
          held: held?.units ?? 0,
          heldBy: held?.orderId ?? null,
          heldBefore: variant.held?.[STORE_WIDE] ?? 0,
        },
      ];
    }
    this.planned.add(variant.sku);
    if (!variant.levels) {
      // The one figure written before the client had location rows stands at the location its own account feeds
      // (previousLevel): kept as that location's level from here on, so that the first write of the other locations
      // does not make it unknown, and written again, where it already is.
      const fed = this.locations.find((l) => l.feed === 'client');
      if (fed) variant.levels = { [fed.id]: variant.stock };
    }
    const active = catalogue ? catalogue.active : !variant.off;
    const out: LevelWrite[] = [];
    for (const location of this.writable) {
      let figure: number | undefined;
      if (location.feed === 'none') figure = 0;
      else if (location.feed === 'client')
        figure = catalogue ? catalogue.stock : this.figures.get(location.id)?.get(variant.sku);
      else {
        figure = this.figures.get(location.id)?.get(variant.sku);
        if (figure === undefined) {
          figure = 0;
          if (active) this.missing(variant, location);
        }
      }
      if (figure === undefined) continue;
      const held = location.feed === 'none' ? undefined : this.heldOf(location.id, variant.hiperId);
      out.push({
        locationId: location.id,
        storeLocationId: location.nuvemshopLocationId,
        value: active ? Math.max(0, figure - (held?.units ?? 0)) : 0,
        previous: previousLevel(variant, location),
        held: held?.units ?? 0,
        heldBy: held?.orderId ?? null,
        heldBefore: variant.held?.[location.id] ?? 0,
      });
    }
    return out;
  }

  /** A SKU the location's account does not know: 0 there, and said once in the run for that location. */
  private missing(variant: WrittenVariant, location: RunLocation) {
    const key = `${location.id}\n${variant.sku}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const name = location.name ?? location.nuvemshopLocationId;
    this.tally.errors.push({
      hiper_id: variant.hiperId,
      sku: variant.sku,
      message: missingMessage(variant.sku, name),
      code: 'sku_missing_at_location',
      location: name,
    });
  }

  /**
   * Marks the planned SKUs' figures written at the locations fed by their own account (all but `refused`, which wait
   * for the next run), in one statement, and forgets them.
   */
  async settled(refused: ReadonlySet<string>): Promise<void> {
    const own = this.writable.filter((l) => l.feed === 'own');
    const skus = [...this.planned].filter((sku) => !refused.has(sku));
    this.planned.clear();
    if (!own.length || !skus.length) return;
    await this.em.execute(
      `update location_stock set changed = false
        where location_id in (${own.map(() => '?').join(', ')}) and changed
          and sku in (select jsonb_array_elements_text(?::jsonb))`,
      [...own.map((l) => l.id), JSON.stringify(skus)],
    );
  }
}

/**
 * What the store last had at a location: as we wrote it there; before anything was written per location, the one
 * figure a client wrote before it had location rows stands for the location its own account feeds.
 */
function previousLevel(variant: WrittenVariant, location: RunLocation): number | null {
  const level = variant.levels?.[location.id];
  if (level !== undefined) return level;
  return location.feed === 'client' && !variant.levels ? variant.stock : null;
}

/** Records what a write put at each location in the variant's record of what the store holds. */
export function applyLevels(variant: WrittenVariant, levels: readonly LevelWrite[]): void {
  for (const level of levels) {
    const where = level.locationId ?? STORE_WIDE;
    if (level.locationId) (variant.levels ??= {})[level.locationId] = level.value;
    else variant.stock = level.value;
    if (level.held > 0) (variant.held ??= {})[where] = level.held;
    else if (variant.held) {
      delete variant.held[where];
      if (!Object.keys(variant.held).length) delete variant.held;
    }
  }
}
