import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import { memoryProvider, renderWithAdmin } from '../testing';
import DeclaredList from '../crud/DeclaredList';

const ItemList = () => <DeclaredList resource="items" />;

const seed = () =>
  Array.from({ length: 12 }, (_, i) => ({
    id: `id-${String(i + 1).padStart(2, '0')}`,
    title: `Item ${i + 1}`,
    description: i === 0 ? null : `Description ${i + 1}`,
    owner_id: 'me',
  }));

const table = () => screen.getByRole('table', { name: 'Items' });
const rows = () => within(table()).getAllByRole('row').slice(1);
const row = (text: string) => screen.getByText(text).closest('tr')!;

/** Presses Save: the dialog's form is submitted (jsdom does not submit it from the button's click). */
function save(dialog: HTMLElement) {
  const button = within(dialog).getByRole('button', { name: 'Save' });
  expect(button).toBeEnabled();
  fireEvent.submit(button.closest('form')!);
}

afterEach(() => vi.unstubAllGlobals());

describe('ItemList', () => {
  it('shows 4 placeholder rows while loading, then 5 rows a page and the total', async () => {
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: memoryProvider(seed(), { delay: 50 }) });
    expect(await screen.findAllByTestId('placeholder-row')).toHaveLength(4);
    await screen.findByText('Item 1');
    expect(screen.getByRole('heading', { name: 'Items Management' })).toBeInTheDocument();
    for (const heading of ['ID', 'Title', 'Description', 'Actions']) {
      expect(within(table()).getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
    expect(rows()).toHaveLength(5);
    expect(within(row('Item 1')).getByText('N/A')).toBeInTheDocument();
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    expect(screen.getByText('1–5 of 12')).toBeInTheDocument();
  });

  it('reads the page from ?page=N and prefetches the next page when this one is full', async () => {
    const provider = memoryProvider(seed());
    renderWithAdmin(<ItemList />, { path: '/items?page=2', dataProvider: provider });
    await screen.findByText('Item 6');
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(screen.getByText('6–10 of 12')).toBeInTheDocument();
    await waitFor(() =>
      expect(provider.getList).toHaveBeenCalledWith(
        'items',
        expect.objectContaining({ pagination: { page: 3, perPage: 5 } }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Item 11');
    expect(screen.getByText('Page 3')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    // The last page is not full: nothing after it is asked for.
    expect(provider.getList).not.toHaveBeenCalledWith(
      'items',
      expect.objectContaining({ pagination: { page: 4, perPage: 5 } }),
    );
  });

  it.each(['abc', '2x', '0', '-1', '1.5'])('treats ?page=%s as page 1', async (invalid) => {
    renderWithAdmin(<ItemList />, { path: `/items?page=${invalid}`, dataProvider: memoryProvider(seed()) });
    await screen.findByText('Item 1');
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it('goes to the last page when the address asks for one past the end', async () => {
    renderWithAdmin(<ItemList />, { path: '/items?page=9', dataProvider: memoryProvider(seed()) });
    await screen.findByText('Item 11');
    expect(screen.getByText('Page 3')).toBeInTheDocument();
  });

  it('keeps the previous rows, dimmed, while the next page loads', async () => {
    let release: () => void = () => {};
    const provider = memoryProvider(seed());
    const answer = provider.getList.getMockImplementation()!;
    provider.getList.mockImplementation(async (resource, params) => {
      if (params.pagination.page === 2) await new Promise<void>((resolve) => (release = resolve));
      return answer(resource, params);
    });
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    // The prefetch of page 2 is held too: the click finds it still loading.
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2')).toBeInTheDocument());
    expect(row('Item 1')).toHaveStyle({ opacity: '0.5' });
    expect(screen.queryAllByTestId('placeholder-row')).toHaveLength(0);
    release();
    await screen.findByText('Item 6');
    expect(row('Item 6')).toHaveStyle({ opacity: '1' });
  });

  it("searches with the API's q and shows the filtered total", async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed(), { search: ['title'] });
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    await person.type(screen.getByPlaceholderText('Search'), 'Item 1');
    await waitFor(() => expect(screen.getByText('1–4 of 4')).toBeInTheDocument(), { timeout: 3000 });
    expect(provider.getList).toHaveBeenLastCalledWith('items', expect.objectContaining({ filter: { q: 'Item 1' } }));
    expect(screen.getByText('Item 12')).toBeInTheDocument();
    expect(screen.queryByText('Item 2')).not.toBeInTheDocument();
  });

  it('sorts by a @sortable column when its heading is clicked; ID is not sortable', async () => {
    const provider = memoryProvider(seed());
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    expect(within(table()).queryByRole('button', { name: /Sort by ID/ })).not.toBeInTheDocument();
    fireEvent.click(within(table()).getByRole('button', { name: /Sort by Title/ }));
    await waitFor(() =>
      expect(provider.getList).toHaveBeenLastCalledWith(
        'items',
        expect.objectContaining({ sort: { field: 'title', order: 'ASC' } }),
      ),
    );
    // 'Item 1', 'Item 10', 'Item 11', 'Item 12', 'Item 2' as text sorts them.
    await waitFor(() => expect(within(rows()[1]).getByText('Item 10')).toBeInTheDocument());
    fireEvent.click(within(table()).getByRole('button', { name: /Sort by Title/ }));
    await waitFor(() => expect(within(rows()[0]).getByText('Item 9')).toBeInTheDocument());
  });

  it('exports what is filtered, as the columns show it, to CSV', async () => {
    const person = userEvent.setup();
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:csv') }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const provider = memoryProvider(seed(), { search: ['title'] });
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    await person.type(screen.getByPlaceholderText('Search'), 'Item 1');
    await waitFor(() => expect(screen.getByText('1–4 of 4')).toBeInTheDocument(), { timeout: 3000 });
    await person.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(click).toHaveBeenCalled();
    expect(await blobs[0].text()).toBe(
      [
        'ID,Title,Description',
        'id-01,Item 1,N/A',
        'id-10,Item 10,Description 10',
        'id-11,Item 11,Description 11',
        'id-12,Item 12,Description 12',
      ].join('\r\n'),
    );
  });

  it('deletes the selected rows after a confirmation naming them', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    await person.click(within(row('Item 2')).getByRole('checkbox'));
    await person.click(within(row('Item 3')).getByRole('checkbox'));
    expect(screen.getByText('2 items selected')).toBeInTheDocument();
    await person.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deletar Item' });
    expect(within(confirm).getByText('Tem certeza? Você não poderá desfazer esta ação.')).toBeInTheDocument();
    expect(within(confirm).getByText('Item 2')).toBeInTheDocument();
    expect(within(confirm).getByText('Item 3')).toBeInTheDocument();
    await person.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(provider.deleteMany).toHaveBeenCalledWith('items', expect.objectContaining({ ids: ['id-02', 'id-03'] })),
    );
    expect(await screen.findByText('Os 2 itens foram apagados com sucesso.')).toBeInTheDocument();
    expect(screen.getByText('Sucesso')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Item 2')).not.toBeInTheDocument());
    await screen.findByText('1–5 of 10');
  });

  it('opens the edit dialog on a row click and sends only what changed', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 2');
    await person.click(screen.getByText('Description 2'));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Item' });
    const title = within(dialog).getByLabelText(/^Title/);
    await waitFor(() => expect(title).toHaveValue('Item 2'));
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await person.clear(title);
    await person.type(title, 'Caneta');
    save(dialog);
    await waitFor(() =>
      expect(provider.update).toHaveBeenCalledWith(
        'items',
        expect.objectContaining({ id: 'id-02', data: { title: 'Caneta' } }),
      ),
    );
    expect(await screen.findByText('Item updated successfully.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await screen.findByText('Caneta');
  });

  it('adds an item: the title is required and bounded as the schema says', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    await person.click(screen.getByRole('button', { name: 'Adicionar Item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar Item' });
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await person.click(within(dialog).getByLabelText(/^Title/));
    await person.type(within(dialog).getByLabelText('Description'), '   ');
    await person.click(within(dialog).getByLabelText(/^Title/));
    expect(await within(dialog).findByText('Title é obrigatório.')).toBeInTheDocument();
    // @constraint(maxLength: 255) on createItem's description.
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'x'.repeat(256) } });
    fireEvent.blur(within(dialog).getByLabelText('Description'));
    expect(await within(dialog).findByText('Must be 255 characters or less')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: '' } });
    await person.type(within(dialog).getByLabelText(/^Title/), 'Caneta');
    save(dialog);
    await waitFor(() =>
      expect(provider.create).toHaveBeenCalledWith(
        'items',
        expect.objectContaining({ data: { title: 'Caneta', description: null } }),
      ),
    );
    expect(await screen.findByText('Item created successfully.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's message when saving fails, and stays open", async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    provider.create.mockRejectedValue(new HttpError('Title must be at most 255 characters', 422, {}));
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    await person.click(screen.getByRole('button', { name: 'Adicionar Item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar Item' });
    await person.type(within(dialog).getByLabelText(/^Title/), 'Caneta');
    save(dialog);
    expect(await screen.findByText('Title must be at most 255 characters')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Adicionar Item' })).toBeInTheDocument();
  });

  it('deletes from the row menu after a confirmation naming the item', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 3');
    await person.click(screen.getByRole('button', { name: 'Actions: Item 3' }));
    await person.click(await screen.findByRole('menuitem', { name: 'Deletar Item' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deletar Item' });
    expect(within(confirm).getByText('Item 3')).toBeInTheDocument();
    await person.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('O item foi apagado com sucesso.')).toBeInTheDocument();
    expect(provider.delete).toHaveBeenCalledWith('items', expect.objectContaining({ id: 'id-03' }));
    await waitFor(() => expect(screen.queryByText('Item 3')).not.toBeInTheDocument());
  });
});
