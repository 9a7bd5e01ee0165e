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
    name: 'Nome da loja',
    installed_at: 'Instalado em',
    redacted_at: 'Dados apagados em',
    orders_enabled: 'Enviar pedidos ao Hiper',
    orders_send_on: 'Enviar pedidos quando',
    orders_payment_ids: 'Meios de pagamento no Hiper',
    orders_release_on: 'Estoque baixado no Hiper quando',
    orders_cancel_in_store: 'Cancelar na loja o que o Hiper cancelar',
    hiper_marketplace_cnpj: 'CNPJ do marketplace (Hiper)',
    hiper_marketplace_name: 'Nome do marketplace (Hiper)',
    orders_enabled_at: 'Pedidos ligados em',
  },
  values: {
    orders_send_on: { paid: 'Pago', authorized: 'Pago ou autorizado' },
    orders_release_on: { invoiced: 'NF-e emitida', processed: 'Pedido processado' },
    sync_state: {
      idle: 'Em dia',
      queued: 'Na fila',
      running: 'Sincronizando',
      failed: 'Falhou',
      token_revoked: 'Token revogado',
      suspended: 'Loja suspensa',
      disconnected: 'Desconectada',
    },
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
      },
    },
  },
  notifications: { created: 'Cliente criado com sucesso.', updated: 'Cliente atualizado com sucesso.' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
  validation: { url: { required: 'URL é obrigatória.' } },
};
