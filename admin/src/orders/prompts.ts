import type { ActionPrompts } from '../crud/actionPrompts';

const K = 'resources.pedidos.prompts';

/**
 * What the Pedidos screen's actions ask first. "Reenviar" on an uncertain order names the risk (its sales order may
 * be in Hiper already: a second one would be a duplicate); "Já está no Hiper" asks for Hiper's id of the sales order,
 * which the order is then read by (Hiper offers no look-up by our number).
 */
export const orderPrompts: ActionPrompts = {
  resend: (record, translate) => {
    if (record.state !== 'uncertain') return undefined;
    const number = String(record.number ?? '');
    return {
      title: translate(`${K}.resend.title`, { number }),
      text: [translate(`${K}.resend.risk`, { number }), translate(`${K}.resend.check`)],
      confirm: translate(`${K}.resend.confirm`),
    };
  },
  markSent: (record, translate) => ({
    title: translate(`${K}.markSent.title`, { number: String(record.number ?? '') }),
    text: [translate(`${K}.markSent.text`)],
    confirm: translate(`${K}.markSent.confirm`),
    input: { name: 'hiper_order_id', label: translate(`${K}.markSent.input`) },
  }),
};
