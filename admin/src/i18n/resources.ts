/** The texts every list screen shares; each resource's own are a file of admin/src/labels (see labels/index.ts). */
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
    remove_filter: 'Remove filter',
    close: 'Close',
    rows_per_page: 'Linhas por página',
  },
  secret: { set: 'Set', unset: 'Not set' },
  validation: {
    digits: 'Digits only',
    match: 'The values do not match',
    url: 'Enter an http or https address, such as https://loja.example.com',
    // Staff read dates in Portuguese on every screen (dd/mm/aaaa).
    date: 'Informe uma data real, com o ano em quatro dígitos (dd/mm/aaaa)',
  },
  map: {
    add: 'Add',
    remove: 'Remove %{key}',
    key_required: 'Fill in this field',
    key_pattern: 'Letters, digits, _ . and - only, no spaces',
    key_repeated: 'Already in another row',
    value_number: 'A whole number from %{min}',
    value_max: 'At most %{max}',
    too_many: 'At most %{max} rows',
    invalid: 'Check the highlighted rows',
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
    empty_value: '—',
    no_results: 'Nenhum resultado para “%{q}”',
    clear_search: 'Limpar pesquisa',
    filter_all: 'Todos',
    remove_filter: 'Remover filtro',
    close: 'Fechar',
    rows_per_page: 'Linhas por página',
  },
  secret: { set: 'Definido', unset: 'Não definido' },
  validation: {
    digits: 'Informe apenas números.',
    match: 'Os valores não conferem',
    url: 'Informe um endereço http ou https, como https://loja.example.com',
    date: 'Informe uma data real, com o ano em quatro dígitos (dd/mm/aaaa)',
  },
  map: {
    add: 'Adicionar',
    remove: 'Remover %{key}',
    key_required: 'Preencha este campo',
    key_pattern: 'Use só letras, números, _ . e -, sem espaços',
    key_repeated: 'Já está em outra linha',
    value_number: 'Informe um número inteiro a partir de %{min}',
    value_max: 'No máximo %{max}',
    too_many: 'No máximo %{max} linhas',
    invalid: 'Corrija as linhas destacadas',
  },
  notification: {
    success: 'Sucesso',
    failure: 'Algo deu errado.',
    network: 'Não foi possível falar com o servidor. Verifique sua conexão e tente novamente.',
  },
  delete: deleteMessages,
};
