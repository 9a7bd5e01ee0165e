/** The gateway's 409 when another live client already has the store (a restore, say). */
export const STORE_TAKEN = 'A client with this nuvemshop_store_id already exists';

/** What a client may lack to be synced, in the gateway's words (its 409) and the screen's. */
const MISSING = {
  hiper_token: 'o token Hiper',
  nuvemshop_token: 'o token Nuvemshop',
  nuvemshop_store_id: 'o ID da loja Nuvemshop',
};
const MISSING_EN: Record<keyof typeof MISSING, string> = {
  hiper_token: 'the Hiper token',
  nuvemshop_token: 'the Nuvemshop token',
  nuvemshop_store_id: 'the Nuvemshop store id',
};

const listed = (names: string[], and: string) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')}${and}${names.at(-1)}` : names[0];

/** The gateway's 409 for each set of missing fields ('Missing the Nuvemshop store id') in the screen's words. */
function missingErrors(): Record<string, string> {
  const fields = Object.keys(MISSING) as (keyof typeof MISSING)[];
  const sets = Array.from({ length: 2 ** fields.length - 1 }, (_, i) =>
    fields.filter((_, bit) => (i + 1) & (1 << bit)),
  );
  return Object.fromEntries(
    sets.map((set) => [
      `Missing ${listed(
        set.map((f) => MISSING_EN[f]),
        ' and ',
      )}`,
      `${set.length > 1 ? 'Faltam' : 'Falta'} ${listed(
        set.map((f) => MISSING[f]),
        ' e ',
      )}`,
    ]),
  );
}

/** The clientes screen's texts (`resources.clientes` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Clientes',
  language: 'pt',
  name: 'Cliente |||| Clientes',
  fields: {
    url: 'URL',
    hiper_token: 'Token Hiper',
    nuvemshop_token: 'Token Nuvemshop',
    nuvemshop_store_id: 'ID da loja Nuvemshop',
    hiper_sync_update_image: 'Sincronizar imagens',
    hiper_sync_update_dimensions: 'Sincronizar dimensões',
    nuvemshop_location_id: 'Local de estoque Nuvemshop',
    sync_state: 'Sincronização',
    last_synced_at: 'Última sincronização',
    catalogue_synced_at: 'Catálogo gravado na loja em',
    name: 'Nome da loja',
    installed_at: 'Instalado em',
    nuvemshop_scopes: 'Permissões concedidas na Nuvemshop',
    nuvemshop_missing_scopes: 'Permissões ausentes na Nuvemshop',
    redacted_at: 'Dados apagados em',
    orders_enabled: 'Enviar pedidos ao Hiper',
    orders_send_on: 'Enviar pedidos quando',
    orders_payment_ids: 'Meios de pagamento no Hiper',
    orders_release_on: 'Estoque baixado no Hiper quando',
    orders_cancel_in_store: 'Cancelar na loja o que o Hiper cancelar',
    hiper_marketplace_cnpj: 'CNPJ do marketplace (Hiper)',
    hiper_marketplace_name: 'Nome do marketplace (Hiper)',
    orders_enabled_at: 'Pedidos ligados em',
    locations_read_at: 'Estoques lidos da loja em',
    locations_error: 'Falha ao ler os estoques',
    archived_at: 'Apagado em',
  },
  values: {
    orders_send_on: { paid: 'Pago', authorized: 'Pago ou autorizado' },
    orders_release_on: { invoiced: 'NF-e emitida', processed: 'Pedido processado' },
    sync_state: {
      not_connected: 'Não conectado',
      never_synced: 'Nunca sincronizado',
      idle: 'Em dia',
      partial: 'Com falhas',
      queued: 'Na fila',
      running: 'Sincronizando',
      failed: 'Falhou',
      token_revoked: 'Token revogado',
      suspended: 'Loja suspensa',
      disconnected: 'Desconectada',
    },
  },
  // What each state means and what it asks of staff, in its chip's tooltip (a client not connected names what it
  // lacks instead: actions.sync.missing).
  hints: {
    sync_state: {
      not_connected: 'Faltam dados para sincronizar: informe o token Hiper, o token Nuvemshop e o ID da loja.',
      never_synced:
        'Nenhuma sincronização do catálogo gravou a loja ainda: escolha “Sincronizar agora” no menu do cliente.',
      idle: 'A última sincronização terminou sem falhas: nada a fazer.',
      partial: 'A última sincronização terminou sem gravar alguns produtos: veja quais e por quê em Sincronizações.',
      queued: 'Uma sincronização está na fila e começa em instantes: aguarde.',
      running: 'Uma sincronização está em andamento: acompanhe em Sincronizações.',
      failed:
        'A última sincronização falhou: veja o motivo em Sincronizações. Se o Hiper recusou o token, corrija o Token ' +
        'Hiper em “Editar cliente”.',
      token_revoked:
        'A Nuvemshop recusou o token da loja e nada é enviado a ela: informe um token válido em “Editar cliente” ' +
        'ou peça à loja que instale o aplicativo de novo.',
      suspended: 'A loja está suspensa na Nuvemshop e nada é enviado a ela: a loja precisa regularizar o pagamento.',
      disconnected:
        'A loja desinstalou o aplicativo e nada é enviado a ela: peça à loja que instale o aplicativo de novo.',
    },
  },
  // What a client's fields, when set, add to its state's tooltip and say atop its dialog.
  notes: {
    sync_state: { nuvemshop_missing_scopes: 'Permissão ausente na Nuvemshop: %{value}' },
  },
  title: 'Gerenciar clientes',
  table: 'Clientes',
  empty: 'Nenhum cliente cadastrado.',
  type: 'cliente |||| clientes',
  action: { create: 'Adicionar Cliente', edit: 'Editar cliente', delete: 'Deletar cliente' },
  actions: {
    sync: {
      label: 'Sincronizar agora',
      // A new run is answered queued; one found queued or running, as `already` says.
      done: {
        queued: {
          title: 'Sincronização agendada',
          description: '%{name} entrou na fila e será sincronizado em instantes.',
        },
      },
      already: {
        queued: {
          title: 'Sincronização já agendada',
          description: '%{name} já estava na fila de sincronização; nenhuma outra foi criada.',
        },
        running: {
          title: 'Sincronização em andamento',
          description: '%{name} já está sendo sincronizado; nenhuma outra foi criada.',
        },
      },
      failed: 'Não foi possível sincronizar',
      errors: {
        'Client is not connected to both platforms':
          'O cliente não está conectado às duas plataformas (Hiper e Nuvemshop). Confira os tokens e a loja.',
        'Client not found': 'Este cliente não existe mais.',
        ...missingErrors(),
      },
      // What a client not connected lacks, in its state's tooltip.
      missing: { one: 'Falta %{fields}', many: 'Faltam %{fields}', and: ' e ', fields: MISSING },
    },
    read_locations: {
      label: 'Ler estoques da loja',
      done: {
        title: 'Leitura dos estoques agendada',
        description: 'Os estoques da loja de %{name} serão lidos em instantes: veja-os em Estoques.',
      },
      failed: 'Não foi possível ler os estoques da loja',
      errors: {
        'Client not found': 'Este cliente não existe mais.',
        ...missingErrors(),
      },
    },
  },
  notifications: { created: 'Cliente criado com sucesso.', updated: 'Cliente atualizado com sucesso.' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
  validation: { url: { required: 'URL é obrigatória.' } },
  // The rows of the payment map (`@display(as: "map")`): a Nuvemshop method and its Hiper id each.
  items: {
    orders_payment_ids: {
      key: 'Meio na Nuvemshop',
      value: 'ID no Hiper',
      help:
        'Cada meio de pagamento da Nuvemshop (como credit_card, debit_card, pix) e o ID do meio no Hiper. Sem ' +
        'linhas, vale o padrão: credit_card → 4, debit_card → 5, pix → 12. Um pedido pago por um meio fora da lista ' +
        'fica aguardando.',
    },
  },
};
