import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { portugueseI18nProvider } from '../i18n';
import { loadLabels } from '../labels';
import { refusalText } from './storeRefusals';

const translate = (key: string, options?: Record<string, unknown>) => portugueseI18nProvider.translate(key, options);

describe('the store’s refusals of a new order or default, in the Estoques screen’s words', () => {
  beforeAll(() => loadLabels('estoques'));

  it('says what the store refused and why, its own words quoted', () => {
    const said = (detail: string) => refusalText(new ApiError(422, detail), translate);
    expect(
      said('Nuvemshop refused the new order of the locations: the app lacks the write_locations permission (HTTP 403)'),
    ).toBe(
      'A Nuvemshop recusou a nova ordem: falta ao aplicativo a permissão write_locations (HTTP 403): instale o ' +
        'aplicativo na loja de novo para concedê-la. Nada foi alterado.',
    );
    expect(
      said('Nuvemshop refused the new default location: the store is suspended for lack of payment (HTTP 402)'),
    ).toBe(
      'A Nuvemshop recusou o novo estoque padrão: a loja está suspensa por falta de pagamento (HTTP 402). Nada foi alterado.',
    );
    expect(
      said(
        'Nuvemshop refused the new order of the locations: The priorities must include every location of the store (HTTP 422)',
      ),
    ).toBe(
      'A Nuvemshop recusou a nova ordem: a loja respondeu “The priorities must include every location of the store ' +
        '(HTTP 422)”. Nada foi alterado.',
    );
    expect(refusalText(new ApiError(502, 'Could not reach Nuvemshop; nothing was changed'), translate)).toBe(
      'Não foi possível falar com a Nuvemshop: nada foi alterado.',
    );
  });

  it('says a refusal of the gateway itself in Portuguese too', () => {
    const issue = (msg: string) =>
      refusalText(new ApiError(422, [{ loc: ['body', 'hiper_token'], msg, type: 'value_error' }]), translate);
    expect(
      issue(
        'This Hiper key already feeds another location of this client (Loja): each location needs its own Hiper account',
      ),
    ).toBe(
      'Esta chave do Hiper já alimenta outro estoque deste cliente (Loja): cada estoque precisa da sua conta do Hiper.',
    );
    expect(issue('Every live location of the client must be given once; missing: Outlet (x)')).toBe(
      'A ordem enviada não tem cada estoque ativo do cliente uma vez: leia os estoques da loja de novo.',
    );
    expect(
      refusalText(
        new ApiError(409, 'The store deleted this location: it takes no priority and cannot be the default'),
        translate,
      ),
    ).toBe('A loja apagou este estoque: ele não recebe prioridade nem pode ser o padrão.');
  });
});
