import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import { fieldsOf } from '../crud/description';
import clientes from '../labels/clientes';
import DeclaredList from '../crud/DeclaredList';

const ClientList = () => <DeclaredList resource="clientes" />;

const seed = () =>
  Array.from({ length: 7 }, (_, i) => ({
    id: `c${i + 1}`,
    url: `https://loja${i + 1}.example.com`,
    hiper_token: i === 0 ? '••••••••1234' : null,
    nuvemshop_token: null,
    nuvemshop_store_id: 100 + i,
    hiper_sync_update_image: true,
    hiper_sync_update_dimensions: i !== 0,
    nuvemshop_location_id: null,
    sync_state: i === 0 ? 'failed' : 'idle',
    last_synced_at: null,
    orders_enabled: false,
    orders_send_on: 'paid',
    orders_payment_ids: null,
    orders_release_on: 'invoiced',
    orders_cancel_in_store: true,
    hiper_marketplace_cnpj: null,
    hiper_marketplace_name: null,
  }));

/** The columns the schema lists for a client, as its labels name them: a field added there is expected here. */
const LISTED = Object.entries(fieldsOf('Client'))
  .filter(([, field]) => field.listed)
  .map(([name]) => clientes.fields[name as keyof typeof clientes.fields]);

const table = () => screen.getByRole('table', { name: 'Clientes' });
const row = (text: string) => screen.getByText(text).closest('tr')!;

function save(dialog: HTMLElement) {
  const button = within(dialog).getByRole('button', { name: 'Salvar' });
  expect(button).toBeEnabled();
  fireEvent.submit(button.closest('form')!);
}

afterEach(() => vi.unstubAllGlobals());

describe('ClientList', () => {
  it('is all in Portuguese: columns from the schema, tokens shown as set or not, the total', async () => {
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: memoryProvider(seed()) });
    await screen.findByText('https://loja1.example.com');
    expect(screen.getByRole('heading', { name: 'Gerenciar clientes' })).toBeInTheDocument();
    const headings = within(table())
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headings).toEqual(['', ...LISTED, 'Ações']);
    expect(LISTED.slice(0, 2)).toEqual(['URL', 'ID da loja Nuvemshop']);
    const first = row('https://loja1.example.com');
    expect(within(first).getByText('Definido')).toBeInTheDocument();
    expect(within(first).getByText('Não definido')).toBeInTheDocument();
    expect(within(first).queryByText(/1234/)).not.toBeInTheDocument();
    expect(screen.getByText('1–5 de 7')).toBeInTheDocument();
    expect(screen.getByText('Página 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Próximo' })).toBeEnabled();
    expect(screen.getByPlaceholderText('Pesquisar')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Adicionar Cliente' })).toBeInTheDocument();
    await userEvent.setup().click(within(first).getByRole('checkbox'));
    expect(screen.getByText('1 item selecionado')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Deletar' })).toBeInTheDocument();
  });

  it('exports the tokens as shown, never their value', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:csv') }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: memoryProvider(seed().slice(0, 2)) });
    await screen.findByText('https://loja1.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Exportar' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    // UTF-8's byte-order mark first, so that spreadsheet programs read 'dimensões' as written.
    expect([...new Uint8Array(await blobs[0].arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await blobs[0].text()).toBe(
      [
        LISTED.join(','),
        'https://loja1.example.com,100,Definido,Não definido,Falhou,—,—',
        'https://loja2.example.com,101,Não definido,Não definido,Em dia,—,—',
      ].join('\r\n'),
    );
  });

  it('adds a client: URL required, the store id digits only and sent as a number, both syncs on by default', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: provider });
    await screen.findByText('https://loja1.example.com');
    await person.click(screen.getByRole('button', { name: 'Adicionar Cliente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar Cliente' });
    expect(within(dialog).getByRole('button', { name: 'Salvar' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    await person.click(within(dialog).getByLabelText(/^URL/));
    await person.click(within(dialog).getByLabelText('Token Hiper'));
    expect(await within(dialog).findByText('URL é obrigatória.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Sincronizar imagens')).toBeChecked();
    expect(within(dialog).getByLabelText('Sincronizar dimensões')).toBeChecked();
    const storeId = within(dialog).getByLabelText('ID da loja Nuvemshop');
    expect(storeId).toHaveValue('0');
    await person.clear(storeId);
    await person.type(storeId, '12a');
    await person.click(within(dialog).getByLabelText('Token Hiper'));
    expect(await within(dialog).findByText('Informe apenas números.')).toBeInTheDocument();
    await person.clear(storeId);
    await person.type(storeId, '123');
    await person.type(within(dialog).getByLabelText(/^URL/), 'https://nova.example.com');
    save(dialog);
    await waitFor(() =>
      expect(provider.create).toHaveBeenCalledWith(
        'clientes',
        expect.objectContaining({
          data: {
            url: 'https://nova.example.com',
            nuvemshop_store_id: 123,
            hiper_sync_update_image: true,
            hiper_sync_update_dimensions: true,
            // Orders off until chosen, with the contract's defaults.
            orders_enabled: false,
            orders_send_on: 'paid',
            orders_release_on: 'invoiced',
            orders_cancel_in_store: true,
          },
        }),
      ),
    );
    expect(await screen.findByText('Cliente criado com sucesso.')).toBeInTheDocument();
    expect(screen.getByText('Sucesso')).toBeInTheDocument();
  });

  it('edits a client from its row menu; the delete confirmation names its URL in full', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: provider });
    await screen.findByText('https://loja2.example.com');
    await person.click(screen.getByRole('button', { name: 'Ações: https://loja2.example.com' }));
    await person.click(await screen.findByRole('menuitem', { name: 'Editar cliente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar cliente' });
    await waitFor(() => expect(within(dialog).getByLabelText(/^ID da loja Nuvemshop/)).toHaveValue('101'));
    const url = within(dialog).getByLabelText(/^URL/);
    await person.clear(url);
    await person.type(url, 'https://outra.example.com');
    save(dialog);
    await waitFor(() =>
      expect(provider.update).toHaveBeenCalledWith(
        'clientes',
        expect.objectContaining({ id: 'c2', data: { url: 'https://outra.example.com' } }),
      ),
    );
    const toast = (await screen.findByText('Cliente atualizado com sucesso.')).closest<HTMLElement>('[role="status"]')!;
    await screen.findByText('https://outra.example.com');
    // Closed with its button, named in the screen's language.
    await person.click(within(toast).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByText('Cliente atualizado com sucesso.')).not.toBeInTheDocument());

    await person.click(screen.getByRole('button', { name: 'Ações: https://outra.example.com' }));
    await person.click(await screen.findByRole('menuitem', { name: 'Deletar cliente' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deletar cliente' });
    expect(within(confirm).getByText('https://outra.example.com')).toBeInTheDocument();
    await person.click(within(confirm).getByRole('button', { name: 'Deletar' }));
    expect(await screen.findByText('O cliente foi apagado com sucesso.')).toBeInTheDocument();
  });

  it('says when a search finds nothing and offers to clear it; the table keeps its headings', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: memoryProvider(seed(), { search: ['url'] }) });
    await screen.findByText('https://loja1.example.com');
    await person.type(screen.getByRole('textbox', { name: 'Pesquisar' }), 'nada disso{Enter}');
    const empty = await screen.findByText('Nenhum resultado para “nada disso”');
    expect(table()).toContainElement(empty);
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toContain('URL');
    expect(screen.queryByText('Nenhum cliente cadastrado.')).not.toBeInTheDocument();
    await person.click(within(empty.closest('td')!).getByRole('button', { name: 'Limpar pesquisa' }));
    expect(await screen.findByText('https://loja1.example.com')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Pesquisar' })).toHaveValue('');
  });

  it('says so when there is no client at all, under the headings', async () => {
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: memoryProvider([]) });
    const empty = await screen.findByText('Nenhum cliente cadastrado.');
    expect(table()).toContainElement(empty);
    expect(within(table()).getByRole('columnheader', { name: 'URL' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Limpar pesquisa' })).not.toBeInTheDocument();
  });

  it('tells when a delete fails', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    provider.delete.mockRejectedValue(new Error('boom'));
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: provider });
    await screen.findByText('https://loja1.example.com');
    await person.click(screen.getByRole('button', { name: 'Ações: https://loja1.example.com' }));
    await person.click(await screen.findByRole('menuitem', { name: 'Deletar cliente' }));
    await person.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deletar' }));
    expect(await screen.findByText('An error occurred while deleting the cliente.')).toBeInTheDocument();
    expect(screen.getByText('An error occurred.')).toBeInTheDocument();
  });
});
