import type { MikroORM } from '@mikro-orm/postgresql';
import type { NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import type { ClientEntity } from '../clients/client.resource';
import { SyncImage } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/**
 * Which of Hiper's images each product of a page has in the store, read once a page: an image recorded is never
 * uploaded again, and one Hiper no longer lists is removed.
 */
export class ImageBook {
  private uploaded = new Map<string, SyncImage[]>();

  constructor(
    private readonly em: () => Em,
    private readonly store: NuvemshopStoreClient,
    private readonly client: () => ClientEntity,
  ) {}

  /** Reads the page's products' recorded images at once. */
  async load(clientId: string, hiperIds: string[]): Promise<void> {
    this.uploaded.clear();
    if (!hiperIds.length) return;
    for (const image of await this.em().find(SyncImage, { client: clientId, hiperId: { $in: hiperIds } }))
      this.uploaded.set(image.hiperId, [...(this.uploaded.get(image.hiperId) ?? []), image]);
  }

  clear(): void {
    this.uploaded.clear();
  }

  /** Records that Hiper's image `source` is the store's image `imageId` of `productId`: never uploaded again. */
  record(hiperId: string, source: string, productId: number | string, imageId: number): SyncImage {
    const row = this.em().create(SyncImage, {
      client: this.client(),
      hiperId,
      source,
      nuvemshopProductId: String(productId),
      nuvemshopImageId: String(imageId),
    });
    this.uploaded.set(hiperId, [...(this.uploaded.get(hiperId) ?? []), row]);
    return row;
  }

  /**
   * A product adopted from the store: its images stand for Hiper's in order, so only those beyond what it has (or
   * what is recorded) will be uploaded, never a second copy.
   */
  adopt(hiperId: string, sources: readonly string[], productId: number, storeImages: readonly number[]): void {
    const known = this.uploaded.get(hiperId) ?? [];
    sources.forEach((source, i) => {
      if (storeImages[i] && !known.some((k) => k.source === source))
        this.record(hiperId, source, productId, storeImages[i]);
    });
  }

  /** Uploads images not uploaded before and removes those Hiper no longer lists; an unchanged image costs nothing. */
  async write(hiperId: string, productId: number, sources: readonly string[]): Promise<boolean> {
    const known = this.uploaded.get(hiperId) ?? [];
    const kept: SyncImage[] = [];
    let changed = false;
    for (const source of sources) {
      const already = known.find((k) => k.source === source);
      if (already) {
        kept.push(already);
        continue;
      }
      const image = await this.store.addImage(productId, { src: source });
      kept.push(this.record(hiperId, source, productId, image.id));
      await this.em().flush();
      changed = true;
    }
    for (const old of known) {
      if (sources.includes(old.source)) continue;
      await this.store.deleteImage(productId, Number(old.nuvemshopImageId));
      this.em().remove(old);
      await this.em().flush();
      changed = true;
    }
    this.uploaded.set(hiperId, kept);
    return changed;
  }
}
