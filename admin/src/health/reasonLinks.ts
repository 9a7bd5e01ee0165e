/** One reason a client is not "Em dia", as the gateway serves it (`reasons[]`). */
export interface HealthReason {
  code: string;
  health: 'attention' | 'critical';
  text: string;
  since: string;
  kind?: 'catalogue' | 'stock';
}

/** What each kind of reason link reads, on the Saúde screen (its labels' `links`) and the dashboard's card alike. */
export const LINK_LABELS = {
  client: 'Ver cliente',
  runs: 'Ver sincronizações',
  orders: 'Ver pedidos',
  divergences: 'Ver divergências',
} as const;

/** A reason's link: where the screens show what it says, and which of LINK_LABELS it reads. */
export interface ReasonLink {
  to: string;
  label: keyof typeof LINK_LABELS;
}

const list = (screen: string, filter: Record<string, unknown>) =>
  `/${screen}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

/** The order state each order reason is about. */
const ORDER_STATES: Record<string, string> = {
  orders_held: 'held',
  orders_rejected: 'rejected',
  orders_uncertain: 'uncertain',
  orders_stuck: 'received',
};

/**
 * Where a reason is shown: the client itself for its store's state (a token to fix, a scope to grant), its runs (the
 * failed ones for failures) for a run's, its orders in the state for an order's.
 */
export function reasonLink(clientId: string, reason: Pick<HealthReason, 'code'>): ReasonLink {
  if (reason.code in ORDER_STATES)
    return { to: list('pedidos', { client_id: clientId, state: ORDER_STATES[reason.code] }), label: 'orders' };
  if (reason.code === 'drift_open')
    return { to: list('divergencias', { client_id: clientId, state: 'open' }), label: 'divergences' };
  if (reason.code === 'run_failed')
    return { to: list('sincronizacoes', { client_id: clientId, state: 'failed' }), label: 'runs' };
  if (reason.code.startsWith('run_') || reason.code === 'rate_limited')
    return { to: list('sincronizacoes', { client_id: clientId }), label: 'runs' };
  return { to: list('clientes', { ids: [clientId] }), label: 'client' };
}

/** A record's reasons, as served (anything else reads as none). */
export const reasonsOf = (value: unknown): HealthReason[] =>
  Array.isArray(value)
    ? value.filter((r): r is HealthReason => !!r && typeof r === 'object' && typeof r.text === 'string')
    : [];
