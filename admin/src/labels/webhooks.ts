/** The webhooks screen's texts (`resources.webhooks` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Webhooks',
  language: 'pt',
  name: 'Webhook |||| Webhooks',
  fields: {
    event: 'Evento',
    store_id: 'ID da loja Nuvemshop',
    client_id: 'Cliente',
    received_at: 'Recebido em',
    outcome: 'Resultado',
    note: 'Observação',
    signed: 'Assinado',
    webhook_id: 'ID do webhook',
    delivery_key: 'Chave de entrega',
    created_at: 'Criado em',
  },
  values: {
    outcome: {
      recorded: 'Registrado',
      handled: 'Tratado',
      ignored: 'Ignorado',
      failed: 'Falhou',
      unsigned: 'Não assinado',
    },
  },
  title: 'Webhooks recebidos',
  table: 'Webhooks',
  empty: 'Nenhum webhook recebido.',
  type: 'webhook |||| webhooks',
  action: { show: 'Ver webhook' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
