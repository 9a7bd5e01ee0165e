import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import type { InputDescription } from './formInputs';
import { MapInput } from './MapInput';

/** A map's editor alone (in the shared texts' first language), bounded as the schema bounds a map. */
const input: InputDescription = {
  source: 'orders_payment_ids',
  kind: 'map',
  required: false,
  constraint: { maxEntries: 2 },
  secret: false,
  type: 'JSON',
  items: [
    { name: 'key', kind: 'text', min: 1, max: 64, pattern: '[A-Za-z0-9_.-]+' },
    { name: 'value', kind: 'int', min: 1, max: 2147483647 },
  ],
};

function renderMap(value: unknown) {
  const submitted = vi.fn();
  renderWithAdmin(
    <Form record={{ id: 'c1', orders_payment_ids: value }} onSubmit={submitted}>
      <MapInput resource="clientes" input={input} label="Meios de pagamento no Hiper" validate={[]} />
      <button type="submit">Salvar</button>
    </Form>,
  );
  return { submitted, map: screen.getByRole('group', { name: 'Meios de pagamento no Hiper' }) };
}

const rowsOf = (map: HTMLElement) => {
  const keys = within(map).queryAllByLabelText('Meio na Nuvemshop') as HTMLInputElement[];
  const values = within(map).queryAllByLabelText('ID no Hiper') as HTMLInputElement[];
  return keys.map((key, i) => [key.value, values[i].value]);
};

describe('the map editor', () => {
  it('takes no more rows than the map holds', async () => {
    const person = userEvent.setup();
    const { map } = renderMap({ pix: 12 });
    expect(rowsOf(map)).toEqual([['pix', '12']]);
    const add = within(map).getByRole('button', { name: 'Add' });
    await person.click(add);
    expect(rowsOf(map)).toHaveLength(2);
    expect(add).toBeDisabled();
    expect(within(map).getByText('At most 2 rows')).toBeInTheDocument();
    await person.click(within(map).getByRole('button', { name: 'Remove pix' }));
    expect(add).toBeEnabled();
    expect(within(map).queryByText('At most 2 rows')).not.toBeInTheDocument();
  });

  it('reads a map kept as JSON text, as it was once stored, and sends it back as an object', async () => {
    const person = userEvent.setup();
    const { map, submitted } = renderMap('{"credit_card": 4}');
    expect(rowsOf(map)).toEqual([['credit_card', '4']]);
    const value = within(map).getByLabelText('ID no Hiper');
    await person.clear(value);
    await person.type(value, '9');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(submitted).toHaveBeenCalled());
    expect(submitted.mock.calls[0][0]).toMatchObject({ orders_payment_ids: { credit_card: 9 } });
  });
});
