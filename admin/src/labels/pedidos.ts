import { orderStateNames } from '../../../schema/staff-notes';

/** The pedidos screen's texts (`resources.pedidos` in react-admin's convention): see ./index.ts for what each key says. */
const notSendable = 'Este pedido não pode ser enviado no estado em que está.';
export default {
  menu: 'Pedidos',
  language: 'pt',
  name: 'Pedido |||| Pedidos',
  fields: {
    client_id: 'Cliente',
    nuvemshop_order_id: 'ID na Nuvemshop',
    fulfillment_order_id: 'Envio na Nuvemshop',
    location_id: 'Estoque',
    number: 'Número',
    state: 'Estado',
    hold_reason: 'Motivo da espera',
    payment_status: 'Pagamento',
    total: 'Total',
    customer_name: 'Comprador',
    hiper_order_id: 'ID no Hiper',
    hiper_code: 'Código no Hiper',
    hiper_number: 'Número no Hiper',
    nfe_key: 'Chave da NF-e',
    tracking_code: 'Rastreio',
    last_error: 'Último erro',
    cancel_refused: 'Cancelamento recusado pelo Hiper',
    lines: 'Itens',
    history: 'Histórico',
    received_at: 'Recebido em',
    sent_at: 'Enviado em',
    updated_at: 'Atualizado em',
    search_text: 'Busca',
    store_status: 'Situação na loja',
    placed_at: 'Feito em',
    sending_since: 'Enviando desde',
    hiper_events_seen: 'Eventos do Hiper lidos',
  },
  // The parts of a line and of a history step, as the dialog's table and timeline head them.
  items: {
    lines: {
      sku: 'SKU',
      name: 'Produto',
      quantity: 'Qtd.',
      price: 'Preço',
      hiper_id: 'Produto no Hiper',
      empty: { sku: 'sem SKU', hiper_id: 'sem vínculo' },
      none: 'Nenhum item lido da loja ainda.',
    },
    history: { at: 'Quando', state: 'Estado', note: 'Nota', none: 'Sem histórico ainda.' },
  },
  values: {
    state: orderStateNames,
    payment_status: {
      pending: 'Pendente',
      authorized: 'Autorizado',
      paid: 'Pago',
      partially_paid: 'Parcialmente pago',
      abandoned: 'Abandonado',
      refunded: 'Reembolsado',
      partially_refunded: 'Parcialmente reembolsado',
      voided: 'Anulado',
    },
    // The order's status in the store: the three values Nuvemshop's order API documents for it, in words.
    store_status: { open: 'Aberto', closed: 'Fechado', cancelled: 'Cancelado' },
  },
  // An order of a store with several locations: its shipments (one row each) under one heading.
  shipments: {
    heading: 'Pedido %{number} · %{smart_count} remessa |||| Pedido %{number} · %{smart_count} remessas',
    buyer: 'Comprador: %{name}',
    total: 'Total: %{total}',
  },
  title: 'Pedidos',
  table: 'Pedidos',
  empty: 'Nenhum pedido ainda.',
  type: 'pedido |||| pedidos',
  action: { show: 'Ver pedido' },
  // What an uncertain or rejected order's dialog says to look for in Hiper's own screens before acting.
  check: {
    title: 'Antes de agir, confira no Hiper',
    uncertain:
      'O envio pode ter chegado ao Hiper. Procure-o em Pedidos de venda do Hiper: o número %{number} ou a observação “%{note}”.',
    rejected:
      'O Hiper processou o pedido de venda %{hiper_order_id} com erro (veja o último erro). “Reenviar” primeiro o cancela no Hiper e só envia de novo se o Hiper aceitar o cancelamento. No Hiper ele tem o número %{number} e a observação “%{note}”.',
    found:
      'Se ele estiver lá, use “Já está no Hiper” e informe o ID do pedido de venda; se não estiver, use “Reenviar”.',
    note: 'Nuvemshop #%{number} (id %{id})',
    attempts: 'Envios ao Hiper',
    attempt: 'Envio %{n}: %{at}',
    none: 'Nenhum envio registrado.',
    outcome: {
      sent: 'Aceito pelo Hiper',
      refused: 'Não aceito, nada foi criado',
      unknown: 'Sem resposta que prove o resultado',
      waiting: 'Aguardando a resposta do Hiper',
      unrecorded: 'Nenhuma resposta registrada',
    },
  },
  // What the actions ask first: Reenviar on an uncertain order names the risk, Já está no Hiper asks for the id.
  prompts: {
    resend: {
      title: 'Reenviar o pedido %{number}?',
      risk: 'Este envio pode ter chegado ao Hiper. Se o pedido de venda %{number} já estiver lá, reenviar cria um pedido de venda duplicado no Hiper.',
      check: 'Procure-o no Hiper antes; se o encontrar, use “Já está no Hiper”.',
      confirm: 'Reenviar mesmo assim',
    },
    markSent: {
      title: 'O pedido %{number} já está no Hiper',
      text: 'Informe o ID do pedido de venda no Hiper: com ele a NF-e e o envio voltam para a loja como nos outros pedidos.',
      input: 'ID do pedido de venda no Hiper',
      confirm: 'Marcar como enviado',
    },
  },
  actions: {
    resend: {
      label: 'Reenviar',
      done: {
        received: { title: 'Pedido na fila', description: 'O pedido %{name} será enviado ao Hiper em instantes.' },
        held: { title: 'Pedido ainda aguardando', description: 'O pedido %{name} continua parado: veja o motivo.' },
      },
      failed: 'Não foi possível reenviar',
      errors: {
        'Order cannot be sent in its state': notSendable,
        'Order not found': 'Este pedido não existe mais.',
        'Hiper refused to cancel the rejected sales order; nothing was resent':
          'O Hiper recusou o cancelamento do pedido de venda rejeitado: nada foi reenviado. O motivo está no último erro do pedido.',
        'Could not reach Hiper to cancel the rejected sales order; nothing was resent':
          'Não foi possível falar com o Hiper para cancelar o pedido de venda rejeitado: nada foi reenviado. Tente de novo mais tarde.',
        'The rejected order has no valid Hiper id to cancel; nothing was resent':
          'O pedido rejeitado não tem um ID válido no Hiper para cancelar: nada foi reenviado. Cancele-o no próprio Hiper.',
        'Client is not connected to both platforms': 'O cliente não está conectado ao Hiper e à Nuvemshop.',
      },
    },
    markSent: {
      label: 'Já está no Hiper',
      done: {
        sent: { title: 'Pedido marcado como enviado', description: 'O pedido %{name} não será enviado de novo.' },
      },
      failed: 'Não foi possível marcar o pedido',
      errors: {
        'Order cannot be marked sent in its state': 'Só um pedido incerto pode ser marcado como já estando no Hiper.',
        'Order not found': 'Este pedido não existe mais.',
        "Hiper's id of the sales order is required: find the order in Hiper's sales orders by its number":
          'Informe o ID do pedido de venda no Hiper.',
        "Hiper's id of a sales order is 1 to 64 letters, digits, '-' or '_'":
          'O ID no Hiper tem de 1 a 64 letras, números, “-” ou “_”.',
      },
    },
  },
  navigation: { previous: 'Anterior', page: 'Página %{page}', next: 'Próximo' },
};
