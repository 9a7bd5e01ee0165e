/** The estoques screen's texts (`resources.estoques` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Estoques',
  language: 'pt',
  name: 'Estoque |||| Estoques',
  fields: {
    client_id: 'Cliente',
    nuvemshop_location_id: 'ID do estoque na Nuvemshop',
    name: 'Nome',
    hiper_token: 'Chave do Hiper',
    priority: 'Prioridade',
    is_default: 'Padrão',
    stock_state: 'Estoque',
    stock_error: 'Motivo',
    deleted_at: 'Apagado na loja em',
  },
  values: {
    stock_state: { never_synced: 'Nunca sincronizado', idle: 'Em dia', failed: 'Falhou' },
  },
  hints: {
    stock_state: {
      never_synced: 'Nenhuma sincronização de estoque escreveu este estoque na loja ainda.',
      idle: 'A última sincronização escreveu o estoque deste local na loja.',
      failed: 'A última sincronização não escreveu o estoque deste local: veja o motivo.',
    },
  },
  title: 'Estoques',
  table: 'Estoques',
  empty: 'Nenhum estoque lido da loja ainda.',
  type: 'estoque |||| estoques',
  action: { edit: 'Editar estoque', delete: 'Apagar estoque' },
  notifications: { updated: 'Estoque salvo.' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
  // The screen of one client's locations (locations/ClientLocations.tsx).
  of_client: 'Estoques de %{name}',
  table_of_client: 'Estoques de %{name}, em ordem de prioridade',
  back: 'Voltar aos clientes',
  intro:
    'A ordem é a prioridade dos estoques na loja: o primeiro é usado antes dos outros nos envios e no frete. Mova os ' +
    'estoques e salve a ordem para enviá-la à Nuvemshop.',
  empty_client: 'Nenhum estoque lido da loja ainda: use “Ler estoques da loja”.',
  read_failed: 'A última leitura dos estoques falhou: %{reason}',
  place: '%{place}º',
  default_chip: 'Padrão',
  deleted_chip: 'Apagado na loja',
  key: { set: 'Definida (%{masked})', unset: 'Não definida' },
  moved: '%{name} agora é o %{place}º de %{count}.',
  order: {
    save: 'Salvar ordem',
    discard: 'Desfazer mudanças',
    unsaved: 'A nova ordem ainda não foi salva.',
    up: 'Mover %{name} para cima',
    down: 'Mover %{name} para baixo',
    saved: { title: 'Ordem salva', description: 'A Nuvemshop aceitou a nova ordem dos estoques.' },
    failed: 'A Nuvemshop não aceitou a nova ordem',
  },
  make_default: {
    label: 'Tornar padrão',
    aria: 'Tornar padrão: %{name}',
    done: { title: 'Estoque padrão', description: '%{name} agora é o estoque padrão da loja.' },
    failed: 'A Nuvemshop não aceitou o novo estoque padrão',
  },
  edit: { label: 'Editar', aria: 'Editar %{name}', title: 'Editar estoque: %{name}' },
  key_input: {
    help:
      'A chave de segurança da conta do Hiper cujo estoque este local mostra. Em branco, vale a regra do cliente: a ' +
      'chave do cliente alimenta só o primeiro estoque lido da loja; os outros sem chave ficam com estoque 0.',
    show: 'Mostrar a chave',
    hide: 'Ocultar a chave',
    save: 'Salvar',
    cancel: 'Cancelar',
    too_long: 'No máximo %{max} caracteres.',
  },
  movements: {
    title: 'Últimos movimentos de estoque',
    table: 'Últimos movimentos de estoque de %{name}',
    from_to: '%{previous} → %{value}',
    unknown: '?',
    all: 'Ver todos os movimentos deste estoque',
  },
  actions: {
    // The client's "Ler estoques da loja", offered on this screen too: its toasts (crud/recordAction.ts).
    read_locations: {
      label: 'Ler estoques da loja',
      done: {
        title: 'Leitura dos estoques agendada',
        description: 'Os estoques da loja de %{name} serão lidos em instantes.',
      },
      failed: 'Não foi possível ler os estoques da loja',
      errors: {
        'Client not found': 'Este cliente não existe mais.',
        'Missing the Nuvemshop token': 'Falta o token Nuvemshop.',
        'Missing the Nuvemshop store id': 'Falta o ID da loja Nuvemshop.',
        'Missing the Nuvemshop token and the Nuvemshop store id': 'Faltam o token Nuvemshop e o ID da loja Nuvemshop.',
      },
    },
  },
  // The gateway's refusals of a new order or default, in this screen's words (locations/storeRefusals.ts).
  refusals: {
    unreachable: 'Não foi possível falar com a Nuvemshop: nada foi alterado.',
    stopped:
      'A loja não atende a integração agora (token recusado, loja suspensa ou aplicativo desinstalado): nada foi alterado.',
    deleted: 'A loja apagou este estoque: ele não recebe prioridade nem pode ser o padrão.',
    missing_store: 'Faltam o token Nuvemshop ou o ID da loja no cliente.',
    order_refused: 'A Nuvemshop recusou a nova ordem: %{reason}. Nada foi alterado.',
    default_refused: 'A Nuvemshop recusou o novo estoque padrão: %{reason}. Nada foi alterado.',
    token: 'o Token Nuvemshop não vale mais (HTTP 401)',
    suspended: 'a loja está suspensa por falta de pagamento (HTTP 402)',
    permission:
      'falta ao aplicativo a permissão %{scope} (HTTP 403): instale o aplicativo na loja de novo para concedê-la',
    said: 'a loja respondeu “%{said}”',
    order_invalid: 'A ordem enviada não tem cada estoque ativo do cliente uma vez: leia os estoques da loja de novo.',
    not_found: 'Este estoque não existe mais.',
    client_not_found: 'Este cliente não existe mais.',
    key_taken:
      'Esta chave do Hiper já alimenta outro estoque deste cliente (%{name}): cada estoque precisa da sua conta do Hiper.',
  },
};
