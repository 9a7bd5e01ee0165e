import type http from 'node:http';
import { startHiper, type HiperAccount, type HiperStandIn } from '../tests/support/standins/hiper';
import { deliverWebhook, startNuvemshopApi, type NuvemshopApiStandIn } from '../tests/support/standins/nuvemshop-api';
import { seedCatalogue } from './catalogue';
import { erpPage } from './erp-page';
import { storePage } from './store-page';

/** The demo client's credentials: the same at every start, as the stand-ins keep nothing between starts. */
export const DEMO_CLIENT = {
  name: 'Loja Demonstração',
  url: 'https://loja-demonstracao.example.com',
  hiperKey: 'demo0000000000000000000000000000000000000000000000000000000000hk',
  storeId: 1_000_001,
  storeToken: 'demo-nuvemshop-store-token',
  /** The app secret the demo store signs its webhooks with, and the demo's gateway checks them with. */
  appSecret: 'demo-nuvemshop-app-secret',
};

/**
 * A second store whose client staff typed with an old Token Hiper: it fails with "Token Hiper recusado pelo Hiper"
 * until the right one (`hiperKey`) is put back in "Editar cliente".
 */
export const DEMO_SECOND_CLIENT = {
  name: 'Loja do Bruno',
  url: 'https://loja-do-bruno.example.com',
  hiperKey: 'demo0000000000000000000000000000000000000000000000000000000bruno',
  wrongHiperKey: 'demo0000000000000000000000000000000000000000000000000000000antiga',
  storeId: 1_000_002,
  storeToken: 'demo-nuvemshop-store-token-bruno',
};

/**
 * The demo store's second stock location and the ERP account that feeds it: a warehouse holding what the shop's own
 * Hiper has sold out (the black running shoe in size 42), so an order of it with a shop item ships from both.
 */
export const DEMO_DEPOT = {
  shop: 'Loja',
  name: 'Depósito',
  hiperKey: 'demo0000000000000000000000000000000000000000000000000000000depot',
  /** Its stock: the shoe the shop lacks (nothing else). */
  stock: { shoe: 6 },
};

export interface DemoStandInsOptions {
  /** The ports of the Hiper and Nuvemshop stand-ins on 127.0.0.1 (0: any free one). */
  hiperPort: number;
  nuvemshopPort: number;
  stockIntervalSeconds: number;
  /** How often the gateway reads the sales orders' events. */
  ordersIntervalSeconds: number;
}

export interface DemoStandIns {
  hiper: HiperStandIn;
  nuvemshop: NuvemshopApiStandIn;
  account: HiperAccount;
  /** The demo ERP's page and the demo store's page. */
  erpUrl: string;
  storeUrl: string;
  /** The product's address, once it listens: the demo store posts its order webhooks there. */
  connect(gatewayUrl: string): void;
  close(): Promise<void>;
}

/**
 * The project's own Hiper and Nuvemshop stand-ins, started as servers on 127.0.0.1 for `npm run demo`: one Hiper
 * account with the demo catalogue and its page, one store with its page and two stock locations (the second fed by an
 * account of its own); and a second store and account, for the client whose Token Hiper staff put right.
 */
export async function startDemoStandIns(options: DemoStandInsOptions): Promise<DemoStandIns> {
  let storeUrl = '';
  let gatewayUrl: string | undefined;
  // The ERP's page needs the account, which needs the stand-in started: until then it answers 503.
  let erp: http.RequestListener = (_req, res) => void res.writeHead(503).end();
  const hiper = await startHiper({ port: options.hiperPort, page: (req, res) => erp(req, res) });
  let nuvemshop: NuvemshopApiStandIn | undefined;
  try {
    nuvemshop = await startNuvemshopApi({
      port: options.nuvemshopPort,
      page: storePage({
        store: () => nuvemshop!.store(DEMO_CLIENT.storeId),
        notify: async (event, id) =>
          gatewayUrl === undefined
            ? undefined
            : deliverWebhook(
                `${gatewayUrl}/api/v1/webhooks/nuvemshop`,
                { store_id: DEMO_CLIENT.storeId, event, id },
                DEMO_CLIENT.appSecret,
              ),
      }),
    });
    const store = nuvemshop.addStore(DEMO_CLIENT.storeId, { token: DEMO_CLIENT.storeToken });
    store.info.name = { pt: DEMO_CLIENT.name };
    storeUrl = new URL('/', nuvemshop.url).href;
    const account = hiper.addAccount(DEMO_CLIENT.hiperKey);
    const erpUrl = new URL('/', hiper.url).href;
    erp = erpPage({
      account,
      stockIntervalSeconds: options.stockIntervalSeconds,
      ordersIntervalSeconds: options.ordersIntervalSeconds,
      storePage: () => storeUrl,
    });
    seedCatalogue(account, `${erpUrl}images`);
    // The store's two locations: the shop (fed by the client's own account) and the warehouse, with its own account.
    store.locations[0].name = DEMO_DEPOT.shop;
    store.addLocation(DEMO_DEPOT.name);
    const shoe = account.products
      .find((p) => p.codigo === 1004)
      ?.variacao?.find((v) => v.nomeVariacaoA === 'Preto' && v.nomeVariacaoB === '42');
    hiper
      .addAccount(DEMO_DEPOT.hiperKey)
      .copyCatalogue(account, (codigo) => (codigo === shoe?.codigo ? DEMO_DEPOT.stock.shoe : 0));
    nuvemshop.addStore(DEMO_SECOND_CLIENT.storeId, { token: DEMO_SECOND_CLIENT.storeToken }).info.name = {
      pt: DEMO_SECOND_CLIENT.name,
    };
    seedCatalogue(hiper.addAccount(DEMO_SECOND_CLIENT.hiperKey), `${erpUrl}images`);
    const started = nuvemshop;
    return {
      hiper,
      nuvemshop,
      account,
      erpUrl,
      storeUrl,
      connect: (url) => {
        gatewayUrl = url.replace(/\/$/, '');
      },
      close: async () => {
        await Promise.all([hiper.close(), started.close()]);
      },
    };
  } catch (error) {
    await Promise.all([hiper.close(), nuvemshop?.close()]);
    throw error;
  }
}
