import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNotify } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { renderWithAdmin } from '../testing';
import { useFailureToast, useToast } from './useToast';

function Buttons() {
  const toast = useToast();
  const failed = useFailureToast();
  const notify = useNotify();
  return (
    <>
      <button onClick={() => toast('Success!', 'Item created successfully.')}>create</button>
      <button onClick={() => toast('Sucesso', 'O item foi apagado com sucesso.')}>delete</button>
      <button onClick={() => failed(new TypeError('Failed to fetch'))}>save offline</button>
      <button onClick={() => notify('Failed to fetch', { type: 'error' })}>load offline</button>
    </>
  );
}

describe('toasts', () => {
  it('a new toast replaces the one on screen at once', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<Buttons />);
    await person.click(screen.getByRole('button', { name: 'create' }));
    expect(await screen.findByText('Item created successfully.')).toBeInTheDocument();
    await person.click(screen.getByRole('button', { name: 'delete' }));
    expect(await screen.findByText('O item foi apagado com sucesso.')).toBeInTheDocument();
    expect(screen.queryByText('Item created successfully.')).not.toBeInTheDocument();
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('says in words that the server could not be reached, with a title and a close button', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<Buttons />);
    for (const name of ['save offline', 'load offline']) {
      await person.click(screen.getByRole('button', { name }));
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Something went wrong.')).toBeInTheDocument();
      expect(
        within(alert).getByText('The server could not be reached. Check your connection and try again.'),
      ).toBeInTheDocument();
      expect(within(alert).queryByText('Failed to fetch')).not.toBeInTheDocument();
      await person.click(within(alert).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    }
  });
});
