/**
 * What the product tells staff on its screens, in Portuguese, keyed by stable codes: why a run failed, why an order
 * waits, what a webhook did. The gateway writes a note from it (an order's hold and history, a webhook's
 * observation) and the admin translates a run's error code with it, so each text is written once. Field names are
 * said as their labels say them ("Token Hiper"). The API's own English messages (REST-CONTRACT.md) are not here.
 */

const brasilia = new Intl.DateTimeFormat('pt-BR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'America/Sao_Paulo',
});

/** A moment written into a stored note, as the screens write moments (dd/mm/aaaa hh:mm), in Brasília's time. */
export function brasiliaMoment(moment: Date): string {
  const part = Object.fromEntries(brasilia.formatToParts(moment).map(({ type, value }) => [type, value]));
  return `${part.day}/${part.month}/${part.year} ${part.hour}:${part.minute} (horário de Brasília)`;
}

/** A synchronisation error's code (a run's `errors[].code`, the gateway's `SyncErrorCode`) as staff read it. */
export const syncErrorNotes = {
  not_connected: 'O cliente não está conectado às duas plataformas',
  hiper_key_refused: 'Token Hiper recusado pelo Hiper',
  hiper_unreachable: 'Não foi possível falar com o Hiper',
  hiper_timeout: 'O Hiper não respondeu a tempo',
  hiper_unavailable: 'O Hiper está fora do ar (respondeu com erro)',
  hiper_refused: 'O Hiper recusou a chamada',
  hiper_not_understood: 'O Hiper deu uma resposta que a integração não entende',
  hiper_cursor_stuck: 'O ponto de sincronização do Hiper não avançou',
  nuvemshop_token_revoked: 'Token Nuvemshop recusado pela Nuvemshop (401): o aplicativo precisa ser instalado de novo',
  nuvemshop_suspended: 'A Nuvemshop suspendeu a loja por falta de pagamento (402)',
  nuvemshop_permission_missing: 'A Nuvemshop recusou a chamada: falta uma permissão ao aplicativo (403)',
  nuvemshop_busy: 'A Nuvemshop pediu para esperar: alterações demais ao mesmo tempo (409)',
  nuvemshop_rate_limited: 'A Nuvemshop continuou limitando as chamadas (429)',
  nuvemshop_unreachable: 'Não foi possível falar com a Nuvemshop',
  nuvemshop_timeout: 'A Nuvemshop não respondeu a tempo',
  nuvemshop_unavailable: 'A Nuvemshop está fora do ar (respondeu com erro)',
  nuvemshop_refused: 'A Nuvemshop recusou o produto',
  nuvemshop_not_understood: 'A Nuvemshop deu uma resposta que a integração não entende',
  nuvemshop_variant_refused: 'A Nuvemshop não gravou o preço e o estoque da variante',
  sku_ambiguous: 'O SKU corresponde a mais de um produto na loja',
  sku_missing_at_location: 'SKU sem estoque no Hiper do estoque %{nome}',
  internal: 'Erro interno da integração',
  internal_repeated: 'A mesma falha interna da integração se repetiu em duas tentativas seguidas',
} as const;

/** What a received webhook came to (the Webhooks screen's "Observação"). */
export const webhookNotes = {
  no_client: 'Nenhum cliente tem esta loja',
  orders_off: 'Os pedidos estão desligados para este cliente',
  order_queued: (orderId: string | number) => `Pedido ${orderId} registrado e na fila para o Hiper`,
  no_customer_data_erase: 'A integração não guarda dados de clientes da loja: nada a apagar',
  no_customer_data_send: 'A integração não guarda dados de clientes da loja: nada a enviar',
  older_than_install: 'Anterior à última instalação do aplicativo na loja',
  token_still_works: 'O Token Nuvemshop ainda funciona: anterior à última instalação do aplicativo na loja',
  uninstalled: 'Aplicativo desinstalado: Token Nuvemshop apagado, cliente desconectado',
  unknown_event: 'Evento desconhecido',
  client_disconnected: 'O cliente está desconectado',
  no_store_token: 'O cliente não tem Token Nuvemshop',
  later_decided: 'Uma suspensão ou retomada mais recente já decidiu',
  standing_unknown: 'A loja não respondeu 200, 401 nem 402 à consulta: estado mantido',
  standing_revoked: 'A loja respondeu 401 à consulta: Token Nuvemshop revogado',
  standing_suspended: 'A loja respondeu 402 à consulta: loja suspensa, só a consulta de suspensão é feita',
  standing_working: 'A loja respondeu 200 à consulta: a loja funciona',
  unsigned_nothing_erased: 'Sem assinatura: registrado, nada apagado',
  unsigned_nothing_done: 'Sem assinatura: registrado, nada feito',
  redact_no_client: 'Nenhum cliente tem esta loja: nada a apagar',
  already_erased: 'Os dados da loja já foram apagados',
  installed_nothing_erased: 'O aplicativo está instalado nesta loja: nada apagado',
  erasure_due: (due: Date) => `Apagamento previsto para ${brasiliaMoment(due)}, 48 h depois da desinstalação`,
  erased: (links: number) =>
    `Dados da loja apagados: tokens e ${links} ${links === 1 ? 'vínculo de produto' : 'vínculos de produtos'}; o cadastro do cliente fica`,
} as const;

/** What a read of a store's stock locations came to ("Ler estoques da loja", a location webhook), and why a location's stock was not written. */
export const locationNotes = {
  /** A location's `stock_error` when no Hiper account feeds it. */
  no_key: 'Sem chave do Hiper: estoque 0',
  read: (added: number, refreshed: number, deleted: number) =>
    `Estoques lidos da loja: ${counted(added, 'novo', 'novos')}, ${counted(refreshed, 'atualizado', 'atualizados')}, ` +
    `${counted(deleted, 'apagado na loja', 'apagados na loja')}`,
  newer_read: 'Uma leitura mais recente dos estoques da loja já foi aplicada',
  token_refused:
    'Token Nuvemshop recusado pela Nuvemshop (401) ao ler os estoques: o aplicativo precisa ser instalado de novo',
  suspended: 'A Nuvemshop suspendeu a loja por falta de pagamento (402): os estoques não foram lidos',
  permission_missing:
    'Permissão ausente na Nuvemshop: read_locations (reinstale o app na loja para concedê-la): os estoques não foram lidos',
  unreachable: 'Não foi possível falar com a Nuvemshop para ler os estoques: tente “Ler estoques da loja” de novo',
  refused: (why: string) => `A Nuvemshop recusou a leitura dos estoques: ${why}`,
  not_understood: 'A Nuvemshop deu uma resposta que a integração não entende ao ler os estoques',
  no_store: 'O cliente não tem Token Nuvemshop ou ID da loja: os estoques não foram lidos',
  store_stopped:
    'A loja não atende a integração agora (token revogado, loja suspensa ou desconectada): os estoques não foram lidos',
} as const;

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** An order's states as staff read them (the Pedidos screen's chips and filter, and the history's words). */
export const orderStateNames = {
  received: 'Recebido',
  held: 'Aguardando pessoa',
  sending: 'Enviando',
  sent: 'Enviado',
  processed: 'Processado',
  rejected: 'Rejeitado',
  invoiced: 'Faturado',
  shipped: 'Despachado',
  cancelled: 'Cancelado',
  uncertain: 'Incerto',
} as const;

/** Why an order waits for a person, and the lines of its history that are not in a hold. */
export const orderNotes = {
  hiper_key_refused: 'Token Hiper recusado pelo Hiper: corrija-o no cliente e use Reenviar.',
  hiper_busy_every_try:
    'O Hiper respondeu 429 (ocupado) a todas as tentativas: nada foi criado no Hiper. Use Reenviar.',
  hiper_unreachable_every_try:
    'Não foi possível falar com o Hiper em nenhuma tentativa: nada foi enviado. Use Reenviar.',
  store_token_refused: 'Token Nuvemshop recusado ao ler o pedido: corrija-o no cliente e use Reenviar.',
  store_suspended: 'Loja suspensa na Nuvemshop: o pedido não pôde ser lido. Use Reenviar.',
  store_permission_missing: 'Permissão ausente na Nuvemshop para ler o pedido: reinstale o app na loja e use Reenviar.',
  store_unreadable_every_try:
    'Não foi possível ler o pedido na Nuvemshop em nenhuma tentativa: nada foi enviado. Use Reenviar.',
  send_failed_every_try: 'O envio ao Hiper falhou em todas as tentativas: nada foi enviado. Use Reenviar.',
  send_interrupted: 'O envio ao Hiper foi interrompido: o pedido pode ter sido criado no Hiper',
  hiper_not_connected: 'Não foi possível conectar ao Hiper: nada foi enviado',
  /** The Hiper call's failure, as a run's error says it, and that the order may exist in Hiper. */
  may_exist: (said: string) => `${said}: o pedido pode ter sido criado no Hiper`,
  hiper_busy: 'Hiper ocupado (429): nada criado',
  sending: 'Enviando ao Hiper',
  received_by_hiper: (id: string) => `Recebido pelo Hiper (${id})`,
  received_with_warning: (id: string, warning: string) => `Recebido pelo Hiper (${id}), com aviso: ${warning}`,
  not_in_store: 'O pedido não existe na loja',
  cancelled_before_send: 'Cancelado na loja antes do envio: nunca enviado',
  cancelled_after_send: 'Cancelado na loja depois do envio: cancelamento pedido ao Hiper',
  cancelled_without_id: (why: string) => `Cancelado na loja: ${why}; cancele-o no Hiper`,
  placed_before_orders_on: 'Feito antes de os pedidos serem ligados: não enviado',
  refunded_after_nfe: 'Reembolsado na loja depois da NF-e: trate no Hiper',
  reopened_after_cancel:
    'Pago de novo na loja depois de cancelado: confira no Hiper e use Reenviar para criar um novo pedido de venda',
  reopened_before_send: 'Pago de novo na loja depois de cancelado antes do envio: use Reenviar para enviá-lo',
  received_by_webhook: (event: string) => `Recebido por webhook (${event})`,
  found_by_sweep: 'Encontrado pela varredura',
  resent: (was: keyof typeof orderStateNames) => `Reenviado pela equipe (estava “${orderStateNames[was]}”)`,
  resent_after_cancel: (salesOrder: string) =>
    `Reenviado pela equipe (estava “${orderStateNames.rejected}”): pedido de venda ${salesOrder} cancelado no Hiper antes`,
  marked_sent: (id: string) => `Já está no Hiper (${id}), pela equipe`,
  cancelled_in_hiper: 'Cancelado no Hiper',
  cancelled_in_hiper_and_store: 'Cancelado no Hiper: cancelado na loja',
  processed_with_error: 'Hiper processou o pedido com erro',
  processed: 'Processado pelo Hiper',
  invoice_written: (key: string) => `NF-e ${key} escrita na loja`,
  shipped: 'Entregue à transportadora: enviado na loja',
  cancel_confirmed: 'Cancelamento confirmado pelo Hiper',
  cancel_after_shipping:
    'Cancelado na loja, mas o Hiper diz que o pedido foi entregue à transportadora: trate no Hiper',
  cancel_after_invoice: (key: string) => `Cancelado na loja, mas o Hiper emitiu a NF-e ${key}: trate no Hiper`,
  no_longer_watched: (days: number) =>
    `Acompanhado por ${days} dias depois do envio: os eventos do Hiper não são mais lidos`,
  not_dispatched: 'A Nuvemshop recusou marcar como enviado',
  cancel_refused: 'Hiper recusou o cancelamento',
  // An order of a store with several locations: one row, and one Hiper sales order, per shipment.
  split_into: (shipments: number) =>
    `Dividido pela loja em ${shipments} remessas, cada uma enviada ao Hiper do seu estoque`,
  shipment_of: (k: number, shipments: number, number: number) => `Remessa ${k} de ${shipments} do pedido #${number}`,
  shipment_unmatched: (shipment: string) =>
    `A remessa ${shipment} da loja tem um item que não está no pedido: confira na Nuvemshop e use Reenviar`,
  shipments_incomplete: 'As remessas da loja não somam os itens do pedido: confira na Nuvemshop e use Reenviar',
  shipment_gone: 'A remessa não existe mais na loja: confira na Nuvemshop',
  product_missing_at_location: (sku: string, location: string) =>
    `Produto sem cadastro no Hiper do estoque ${location}: ${sku}`,
  location_key_refused: (location: string) =>
    `Chave do Hiper do estoque ${location} recusada pelo Hiper: corrija-a em Estoques e use Reenviar.`,
  cancelled_in_hiper_one_shipment:
    'Cancelado no Hiper: o pedido na loja só é cancelado quando todas as remessas estiverem canceladas no Hiper',
  cancelled_in_hiper_every_shipment: 'Cancelado no Hiper, como todas as remessas: cancelado na loja',
} as const;

/** A span of time as a reason says it: "45 min", "3 h", "2 dias" (rounded down; under a minute, "menos de 1 min"). */
export function spanText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'menos de 1 min';
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  const days = Math.floor(hours / 24);
  return `${days} ${days === 1 ? 'dia' : 'dias'}`;
}

/** What a kind of run is called in a reason. */
const runKindNames = { catalogue: 'do catálogo', stock: 'de estoque e preço' } as const;

/** A client's health as staff read it (the Saúde screen), and why it is not "Em dia". */
export const healthNames = { ok: 'Em dia', attention: 'Atenção', critical: 'Crítico' } as const;

/** Each reason's text: the API's `reasons[].text`, and the alert e-mails'. */
export const healthNotes = {
  store_token_revoked: syncErrorNotes.nuvemshop_token_revoked,
  store_suspended: syncErrorNotes.nuvemshop_suspended,
  store_uninstalled: 'Aplicativo desinstalado da loja: nada é sincronizado até que seja instalado de novo',
  not_connected: 'Falta o Token Hiper, o Token Nuvemshop ou o ID da loja: nada é sincronizado',
  scopes_missing: (scopes: string) =>
    `Falta permissão ao aplicativo na Nuvemshop: ${scopes} (reinstale o app na loja para concedê-la)`,
  run_late: (kind: 'catalogue' | 'stock', age: number, every: number) =>
    `Sincronização ${runKindNames[kind]} sem sucesso há ${spanText(age)} (agendada a cada ${spanText(every)})`,
  run_never: (kind: 'catalogue' | 'stock', age: number, every: number) =>
    `Sincronização ${runKindNames[kind]} nunca concluída; cliente criado há ${spanText(age)} (agendada a cada ` +
    `${spanText(every)})`,
  run_failed: (kind: 'catalogue' | 'stock', failed: number, why: string) =>
    failed === 1
      ? `A última sincronização ${runKindNames[kind]} falhou: ${why}`
      : `As ${failed} últimas sincronizações ${runKindNames[kind]} falharam: ${why}`,
  rate_limited: (runs: number) =>
    `${counted(runs, 'sincronização', 'sincronizações')} nas últimas 24 h ` +
    `${runs === 1 ? 'parou' : 'pararam'} no limite de chamadas da Nuvemshop (429)`,
  drift_open: (n: number) =>
    `${counted(n, 'divergência aberta', 'divergências abertas')} entre a loja e o Hiper (veja o que cada lado diz)`,
  orders_held: (n: number, oldest: number) =>
    `${counted(n, 'pedido', 'pedidos')} aguardando pessoa; o mais antigo há ${spanText(oldest)}`,
  orders_rejected: (n: number, oldest: number) =>
    `${counted(n, 'pedido recusado', 'pedidos recusados')} pelo Hiper; o mais antigo há ${spanText(oldest)}`,
  orders_uncertain: (n: number, oldest: number) =>
    `${counted(n, 'pedido', 'pedidos')} com envio incerto ao Hiper; o mais antigo há ${spanText(oldest)}`,
  orders_stuck: (n: number, oldest: number) =>
    `${counted(n, 'pedido parado', 'pedidos parados')} em “Recebido”; o mais antigo há ${spanText(oldest)}`,
} as const;

export type HealthReasonCode = keyof typeof healthNotes;

export type SyncErrorNoteCode = keyof typeof syncErrorNotes;
