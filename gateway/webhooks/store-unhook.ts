import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { clientResource, storeConnectionOf } from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { storeClient } from '../clients/store-connection';
import { type NuvemshopClient } from '../platforms/nuvemshop.client';
import { NuvemshopRefused } from '../platforms/nuvemshop.errors';
import { PlatformError } from '../platforms/platform-call';

/**
 * What archiving a client asks of its store: the app's webhooks at PUBLIC_URL deleted at Nuvemshop, so the store
 * stops telling the product about orders nobody acts on. Run by the `client-archived` job: a Nuvemshop that cannot
 * be reached is retried there, not lost with the staff's request.
 */
export class StoreUnhook {
  private readonly webhookUrl: string;

  constructor(
    private readonly orm: MikroORM,
    private readonly nuvemshop: NuvemshopClient,
    config: Pick<Config, 'PUBLIC_URL'>,
  ) {
    this.webhookUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/v1/webhooks/nuvemshop`;
  }

  async unhook(clientId: string): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    const client = await em.findOne(entityFor(clientResource), { id: clientId });
    if (!client) return { skipped: 'the client was purged' };
    if (!client.archivedAt) return { skipped: 'the client was restored' };
    const { storeId, storeToken } = storeConnectionOf(client);
    if (storeId <= 0 || !storeToken) return { skipped: 'the client has no store token' };
    // A client of the same store created since is served by these webhooks.
    if (await storeClient(em, storeId)) return { skipped: 'another client has this store' };
    const store = this.nuvemshop.store(storeId, storeToken);
    try {
      const ours = (await store.listWebhooks()).filter((webhook) => webhook.url === this.webhookUrl);
      const deleted: string[] = [];
      for (const webhook of ours) {
        try {
          await store.deleteWebhook(webhook.id);
        } catch (error) {
          // Deleted meanwhile (by a retry of this job, or by an uninstall): gone all the same.
          if (!(error instanceof NuvemshopRefused && error.status === 404)) throw error;
        }
        deleted.push(webhook.event);
      }
      return { deleted };
    } catch (error) {
      // A dead token or a suspended store: Nuvemshop stops calling an app it cut off, and a retry would meet the same.
      if (error instanceof PlatformError && !error.retryable) return { stopped: error.message };
      throw error;
    }
  }
}
