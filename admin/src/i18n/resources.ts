/**
 * The list screens' texts, under react-admin's `resources.<name>` convention (the names are also the paths). Each
 * screen's texts are in the language the product shows it in; the specification fixes several of them exactly.
 *
 * - `fields.<field>`: a column's heading and, unless `inputs` says otherwise, its input's label;
 *   `inputs.<field>` / `inputs.edit.<field>`: an input's label (in the edit dialog);
 * - `validation.<field>.<rule>`: a message replacing react-admin's own for that rule on that field;
 * - `type`: how the delete messages name a record ('O item foi apagado com sucesso.');
 * - `values.<field>.<value>`: how a state's value reads;
 * - `menu`: its sidebar entry; `language: 'pt'`: the screen is in Portuguese, react-admin's own texts included;
 *   `language: 'en'`: the screen is in English (react-admin's texts too), marked so for screen readers (the users
 *   screen, written by hand, says so itself).
 */
export const resourceMessages = {
  items: {
    menu: 'Itens',
    language: 'en',
    name: 'Item |||| Items',
    fields: { id: 'ID', title: 'Title', description: 'Description' },
    title: 'Items Management',
    table: 'Items',
    empty: "You don't have any items yet.",
    type: 'item |||| itens',
    action: { create: 'Adicionar Item', edit: 'Editar Item', delete: 'Deletar Item' },
    notifications: { created: 'Item created successfully.', updated: 'Item updated successfully.' },
    navigation: { previous: 'Previous', page: 'Page %{page}', next: 'Next' },
    validation: { title: { required: 'Title é obrigatório.' } },
  },
  clientes: {
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
    },
    values: {
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
    notifications: { created: 'Cliente criado com sucesso.', updated: 'Cliente atualizado com sucesso.' },
    navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
    validation: { url: { required: 'URL é obrigatória.' } },
  },
  emails: {
    menu: 'E-mails',
    language: 'pt',
    name: 'E-mail |||| E-mails',
    fields: {
      state: 'Estado',
      kind: 'Tipo',
      to: 'Destinatário',
      attempts: 'Tentativas',
      retry_limit: 'Novas tentativas permitidas',
      last_error: 'Último erro',
      sent: 'Enviado',
      not_sent_reason: 'Por que não foi enviado',
      created_at: 'Criado em',
      next_attempt_at: 'Próxima tentativa',
      completed_at: 'Concluído em',
    },
    values: {
      state: {
        created: 'Na fila',
        retry: 'Nova tentativa',
        active: 'Enviando',
        completed: 'Concluído',
        cancelled: 'Cancelado',
        failed: 'Falhou',
      },
    },
    title: 'E-mails',
    table: 'E-mails',
    empty: 'Nenhum e-mail na fila.',
    type: 'e-mail |||| e-mails',
    action: { show: 'Ver e-mail' },
    navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
  },
  admin: {
    menu: 'Admin',
    name: 'User |||| Users',
    fields: {
      full_name: 'Full name',
      email: 'Email',
      is_superuser: 'Role',
      is_active: 'Status',
      password: 'Password',
      confirm_password: 'Confirm Password',
    },
    inputs: { is_superuser: 'Is superuser?', is_active: 'Is active?', edit: { password: 'Set Password' } },
    title: 'Users Management',
    table: 'Users',
    empty: 'No users.',
    type: 'usuário |||| usuários',
    action: { create: 'Add User', edit: 'Edit User', delete: 'Delete User' },
    notifications: { created: 'User created successfully.', updated: 'User updated successfully.' },
    navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
    validation: {
      email: { required: 'Email is required', email: 'Invalid email address' },
      password: { required: 'Password is required', minLength: 'Password must be at least %{min} characters' },
      confirm_password: { required: 'Please confirm your password', match: 'The passwords do not match' },
    },
    role: { superuser: 'Superuser', user: 'User' },
    status: { active: 'Active', inactive: 'Inactive' },
    you: 'You',
    forbidden: "The user doesn't have enough privileges",
  },
};

/** Texts the specification fixes on every list screen, whatever its language. */
const deleteMessages = {
  confirm: 'Tem certeza? Você não poderá desfazer esta ação.',
  success_title: 'Sucesso',
  success: 'O %{type} foi apagado com sucesso. |||| Os %{smart_count} %{type} foram apagados com sucesso.',
  failure_title: 'An error occurred.',
  failure: 'An error occurred while deleting the %{type}.',
};

/** The list screens' shared texts in English. */
export const englishAppMessages = {
  list: {
    actions: 'Actions',
    actions_for: 'Actions: %{name}',
    empty_value: 'N/A',
    no_results: 'No results for “%{q}”',
    clear_search: 'Clear search',
    filter_all: 'All',
    close: 'Close',
  },
  secret: { set: 'Set', unset: 'Not set' },
  validation: {
    digits: 'Digits only',
    match: 'The values do not match',
    url: 'Enter an http or https address, such as https://loja.example.com',
  },
  notification: {
    success: 'Success!',
    failure: 'Something went wrong.',
    network: 'The server could not be reached. Check your connection and try again.',
  },
  delete: deleteMessages,
};

/** The list screens' shared texts in Portuguese. */
export const portugueseAppMessages = {
  list: {
    actions: 'Ações',
    actions_for: 'Ações: %{name}',
    empty_value: 'N/A',
    no_results: 'Nenhum resultado para “%{q}”',
    clear_search: 'Limpar pesquisa',
    filter_all: 'Todos',
    close: 'Fechar',
  },
  secret: { set: 'Definido', unset: 'Não definido' },
  validation: {
    digits: 'Informe apenas números.',
    match: 'Os valores não conferem',
    url: 'Informe um endereço http ou https, como https://loja.example.com',
  },
  notification: {
    success: 'Sucesso',
    failure: 'Algo deu errado.',
    network: 'Não foi possível falar com o servidor. Verifique sua conexão e tente novamente.',
  },
  delete: deleteMessages,
};
