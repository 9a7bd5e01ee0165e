import { syncErrorNotes } from '../../../schema/staff-notes';

/** The sincronizacoes screen's texts (`resources.sincronizacoes` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Sincronizações',
  language: 'pt',
  name: 'Sincronização |||| Sincronizações',
  fields: {
    client_id: 'Cliente',
    kind: 'Tipo',
    trigger: 'Origem',
    state: 'Estado',
    queued_at: 'Na fila desde',
    started_at: 'Iniciada em',
    finished_at: 'Terminada em',
    created: 'Criados',
    updated: 'Atualizados',
    unchanged: 'Sem mudança',
    failed: 'Com falha',
    requests: 'Chamadas à Nuvemshop',
    errors: 'Erros',
    waiting: 'Nova tentativa',
  },
  /** What each error code of a run says (the API's `code`; its English `message` when a code has no text here). */
  errors: syncErrorNotes,
  error_of_sku: 'SKU %{sku}: %{reason}',
  more_errors: '(e mais %{count})',
  no_errors: 'Nenhum',
  whole_run: 'Toda a sincronização',
  error_sku: 'SKU %{sku}',
  error_product: 'Produto no Hiper: %{id}',
  retry: {
    waiting: 'Aguardando nova tentativa: %{reason} (tentativa %{attempt} de %{attempts})',
    at: '%{text}, às %{time}',
  },
  values: {
    kind: {
      catalogue: 'Catálogo',
      stock: 'Estoque e preço',
      full: 'Leitura completa',
      reconcile: 'Conferência com o Hiper',
    },
    trigger: { schedule: 'Agendada', manual: 'Manual', webhook: 'Webhook' },
    state: {
      queued: 'Na fila',
      running: 'Sincronizando',
      succeeded: 'Concluída',
      partial: 'Concluída com falhas',
      failed: 'Falhou',
    },
  },
  title: 'Sincronizações',
  table: 'Sincronizações',
  empty: 'Nenhuma sincronização ainda.',
  type: 'sincronização |||| sincronizações',
  action: { show: 'Ver sincronização' },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
