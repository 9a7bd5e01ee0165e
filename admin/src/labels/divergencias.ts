/** The divergencias screen's texts (`resources.divergencias` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Divergências',
  language: 'pt',
  name: 'Divergência |||| Divergências',
  fields: {
    client_id: 'Cliente',
    sku: 'SKU',
    location_id: 'Estoque da loja',
    kind: 'O que difere',
    store_value: 'Na loja',
    hiper_value: 'No Hiper',
    state: 'Estado',
    first_seen: 'Vista pela primeira vez',
    last_seen: 'Vista pela última vez',
  },
  values: {
    kind: {
      stock: 'Estoque',
      price: 'Preço',
      promotional_price: 'Preço promocional',
      published: 'Publicado',
      only_in_store: 'Só na loja',
      only_in_hiper: 'Só no Hiper',
    },
    state: { open: 'Aberta', repaired: 'Corrigida', resolved: 'Resolvida' },
  },
  hints: {
    state: {
      open: 'A integração não corrige isto sozinha: veja o que cada lado diz',
      repaired: 'A integração escreveu na loja o valor do Hiper',
      resolved: 'A última conferência não encontrou mais esta diferença',
    },
  },
  title: 'Divergências entre a loja e o Hiper',
  table: 'Divergências entre a loja e o Hiper',
  empty: 'Nenhuma divergência encontrada.',
  type: 'divergência |||| divergências',
  action: { show: 'Ver divergência' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
