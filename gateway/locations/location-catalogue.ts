import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { isGradeChild, type HiperClient, type HiperProduct } from '../platforms/hiper.client';

/**
 * The products of a location's own Hiper account by SKU: each account has its own product ids, and a sales order names
 * its products by them (`itens[].produtoId`), so a shipment into that account needs that account's ids of the SKUs it
 * ships. A SKU is a Hiper `codigo`, as the client's catalogue makes it; a grade's variations are listed with their own.
 */
@Entity({ tableName: 'location_products' })
export class LocationProduct {
  @ManyToOne({ entity: () => 'Location', primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  location!: { id: string };

  @PrimaryKey({ type: 'string', length: 64 })
  sku!: string;

  @Property({ type: 'string', length: 64 })
  hiperId!: string;
}

/** How far each location's account has been read for its products (its own cursor, apart from the stock's). */
@Entity({ tableName: 'location_catalogues' })
export class LocationCatalogueState {
  @ManyToOne({ entity: () => 'Location', primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  location!: { id: string };

  @Property({ type: 'bigint', default: 0 })
  cursor: string = '0';

  @Property({ type: 'datetime', nullable: true })
  readAt?: Date | null;
}

/** A product of the delta as SKU → id entries: a grade's variations each (the grade itself is not sold), else itself. */
function entriesOf(product: HiperProduct): { sku: string; id: string; gone: boolean }[] {
  const gone = !!product.removido;
  if (product.variacao?.length) {
    return product.variacao.map((v) => ({ sku: String(v.codigo), id: v.id, gone }));
  }
  // A variation listed at the top level is one of its own; a grade listed without its variations sells nothing.
  if (product.grade && !isGradeChild(product)) return [];
  return [{ sku: String(product.codigo), id: product.id, gone }];
}

/**
 * Reads, and keeps, which product of a location's own Hiper account each SKU is. What is kept is read first; a SKU not
 * kept has the account's delta read from where the last read ended (the whole catalogue the first time), once per
 * location at a time in this process.
 */
export class LocationCatalogues {
  private readonly reading = new Map<string, Promise<void>>();

  constructor(private readonly orm: MikroORM) {}

  /** The account's product id of each SKU it has (a SKU it does not know is absent). */
  async idsFor(locationId: string, hiper: HiperClient, skus: readonly string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(skus.filter(Boolean))];
    if (wanted.length === 0) return new Map();
    let known = await this.kept(locationId, wanted);
    if (known.size < wanted.length) {
      await this.readNew(locationId, hiper);
      known = await this.kept(locationId, wanted);
    }
    return known;
  }

  private async kept(locationId: string, skus: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.orm.em
      .getConnection()
      .execute<{ sku: string; hiper_id: string }[]>(
        `select sku, hiper_id from location_products where location_id = ? and sku in (${skus.map(() => '?').join(', ')})`,
        [locationId, ...skus],
      );
    return new Map(rows.map((r) => [r.sku, r.hiper_id]));
  }

  private readNew(locationId: string, hiper: HiperClient): Promise<void> {
    let reading = this.reading.get(locationId);
    if (!reading) {
      reading = this.read(locationId, hiper).finally(() => this.reading.delete(locationId));
      this.reading.set(locationId, reading);
    }
    return reading;
  }

  /** The delta from the kept cursor, each page's SKUs kept (a removed product's forgotten) before the cursor moves. */
  private async read(locationId: string, hiper: HiperClient): Promise<void> {
    const connection = this.orm.em.getConnection();
    const [state] = await connection.execute<{ cursor: string }[]>(
      `select cursor from location_catalogues where location_id = ?`,
      [locationId],
    );
    for await (const page of hiper.changes(Number(state?.cursor ?? 0))) {
      // The last word on a SKU in the page stands (a grade and its variations' own entries say the same).
      const entries = [...new Map(page.products.flatMap(entriesOf).map((e) => [e.sku.slice(0, 64), e])).values()];
      const kept = entries.filter((e) => !e.gone);
      const gone = entries.filter((e) => e.gone);
      await this.orm.em.fork().transactional(async (em) => {
        if (kept.length > 0) {
          await em.execute(
            `insert into location_products (location_id, sku, hiper_id)
             values ${kept.map(() => '(?, ?, ?)').join(', ')}
             on conflict (location_id, sku) do update set hiper_id = excluded.hiper_id`,
            kept.flatMap((e) => [locationId, e.sku.slice(0, 64), e.id]),
          );
        }
        if (gone.length > 0) {
          await em.execute(
            `delete from location_products where location_id = ? and (sku, hiper_id) in (${gone.map(() => '(?, ?)').join(', ')})`,
            [locationId, ...gone.flatMap((e) => [e.sku, e.id])],
          );
        }
        await em.execute(
          `insert into location_catalogues (location_id, cursor, read_at) values (?, ?, now())
           on conflict (location_id) do update
             set cursor = greatest(location_catalogues.cursor, excluded.cursor), read_at = now()`,
          [locationId, page.cursor],
        );
      });
    }
  }
}
