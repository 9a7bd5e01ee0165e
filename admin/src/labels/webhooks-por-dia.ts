/** The webhooks-por-dia screen's texts (`resources.webhooks-por-dia` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Webhooks por dia',
  language: 'pt',
  name: 'Dia de webhooks |||| Dias de webhooks',
  fields: {
    store_id: 'ID da loja Nuvemshop',
    client_id: 'Cliente',
    day: 'Dia (UTC)',
    recorded: 'Registrados',
    dropped: 'Descartados (acima do limite do dia)',
    created_at: 'Primeiro em',
  },
  title: 'Webhooks assinados por loja e dia',
  table: 'Webhooks por dia',
  empty: 'Nenhum webhook assinado recebido.',
  type: 'dia de webhooks |||| dias de webhooks',
  action: { show: 'Ver dia' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
