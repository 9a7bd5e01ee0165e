import { describe, expect, it } from 'vitest';
import { sendAttempts } from './attempts';

describe('an order’s sends to Hiper, from its history', () => {
  it('pairs each send with the step after it: accepted, refused, or of unknown outcome', () => {
    const history = [
      { at: '2026-11-27T13:00:00Z', state: 'received', note: 'Recebido por webhook (order/paid)' },
      { at: '2026-11-27T13:00:01Z', state: 'sending', note: 'Enviando ao Hiper' },
      { at: '2026-11-27T13:00:02Z', state: 'held', note: 'O documento do cliente é inválido' },
      { at: '2026-11-27T13:05:00Z', state: 'received', note: 'Reenviado pela equipe (estava “Aguardando pessoa”)' },
      { at: '2026-11-27T13:05:01Z', state: 'sending', note: 'Enviando ao Hiper' },
      { at: '2026-11-27T13:05:03Z', state: 'uncertain', note: 'Hiper respondeu HTTP 502 sem o id do pedido' },
    ];
    expect(sendAttempts(history, 'uncertain')).toEqual([
      { at: '2026-11-27T13:00:01Z', outcome: 'refused', said: 'O documento do cliente é inválido' },
      { at: '2026-11-27T13:05:01Z', outcome: 'unknown', said: 'Hiper respondeu HTTP 502 sem o id do pedido' },
    ]);
  });

  it('a send still under way waits for its answer; no history, no sends', () => {
    const history = [{ at: '2026-11-27T13:00:01Z', state: 'sending', note: 'Enviando ao Hiper' }];
    expect(sendAttempts(history, 'sending')).toEqual([{ at: '2026-11-27T13:00:01Z', outcome: 'waiting', said: null }]);
    expect(sendAttempts(null)).toEqual([]);
  });
});
