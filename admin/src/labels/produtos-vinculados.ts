/** The produtos-vinculados screen's texts (`resources.produtos-vinculados` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Produtos vinculados',
  language: 'pt',
  name: 'Produto vinculado |||| Produtos vinculados',
  fields: {
    client_id: 'Cliente',
    hiper_id: 'ID no Hiper',
    sku: 'SKU',
    name: 'Nome',
    nuvemshop_product_id: 'Produto Nuvemshop',
    nuvemshop_variant_id: 'Variante Nuvemshop',
    state: 'Estado',
    last_synced_at: 'Última sincronização',
    last_error: 'Último erro',
  },
  values: {
    state: { linked: 'Vinculado', unpublished: 'Despublicado', failed: 'Falhou' },
  },
  title: 'Produtos vinculados',
  table: 'Produtos vinculados',
  empty: 'Nenhum produto vinculado ainda.',
  type: 'produto vinculado |||| produtos vinculados',
  action: { show: 'Ver produto vinculado' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
