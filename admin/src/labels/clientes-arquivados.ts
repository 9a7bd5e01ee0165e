import { STORE_TAKEN } from './clientes';

/**
 * The clientes-arquivados screen's texts (`resources.clientes-arquivados`): the clients staff deleted, kept with their
 * history until a superuser restores or purges them. See ./index.ts for what each key says.
 */
export default {
  menu: 'Clientes arquivados',
  language: 'pt',
  name: 'Cliente arquivado |||| Clientes arquivados',
  fields: {
    url: 'URL',
    name: 'Nome da loja',
    archived_at: 'Apagado em',
  },
  title: 'Clientes arquivados',
  table: 'Clientes arquivados',
  empty: 'Nenhum cliente arquivado.',
  type: 'cliente arquivado |||| clientes arquivados',
  action: { show: 'Ver cliente arquivado' },
  actions: {
    restore: {
      label: 'Restaurar',
      done: { title: 'Cliente restaurado', description: '%{name} voltou para Clientes.' },
      failed: 'Não foi possível restaurar',
      errors: {
        'Client is not archived': 'Este cliente já foi restaurado.',
        'Client not found': 'Este cliente não existe mais.',
        [STORE_TAKEN]: 'Outro cliente já usa a mesma loja Nuvemshop: apague-o antes de restaurar este.',
      },
    },
    purge: {
      label: 'Apagar definitivamente',
      confirm: {
        title: 'Apagar %{name} definitivamente?',
        description:
          'Serão apagados para sempre o cliente e todo o seu histórico: pedidos, sincronizações, produtos ' +
          'vinculados e webhooks recebidos. Você não poderá desfazer esta ação.',
      },
      done: { title: 'Cliente apagado', description: '%{name} e todo o seu histórico foram apagados.' },
      failed: 'Não foi possível apagar',
      errors: {
        'Client is not archived': 'Este cliente foi restaurado: apague-o em Clientes antes.',
        'Client not found': 'Este cliente não existe mais.',
      },
    },
  },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
