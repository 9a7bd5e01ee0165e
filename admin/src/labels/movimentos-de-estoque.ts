/** The movimentos-de-estoque screen's texts (`resources.movimentos-de-estoque` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Movimentos de estoque',
  language: 'pt',
  name: 'Movimento de estoque |||| Movimentos de estoque',
  fields: {
    client_id: 'Cliente',
    location_id: 'Estoque',
    sku: 'SKU',
    value: 'Valor escrito',
    previous: 'Valor anterior',
    reason: 'Motivo',
    order_id: 'Pedido',
    created_at: 'Quando',
  },
  values: {
    reason: { hiper: 'Mudança no Hiper', reserved: 'Reservado por pedido', released: 'Liberado por pedido' },
  },
  title: 'Movimentos de estoque',
  table: 'Movimentos de estoque',
  empty: 'Nenhum movimento de estoque ainda.',
  type: 'movimento de estoque |||| movimentos de estoque',
  action: { show: 'Ver movimento' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
