import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useNavigate } from 'react-router-dom';
import DeclaredList from './DeclaredList';

const ItemList = () => <DeclaredList resource="items" />;
import { memoryProvider, renderWithAdmin } from '../testing';
import { SEARCH_DELAY_MS } from './SearchBox';

const seed = () =>
  Array.from({ length: 12 }, (_, i) => ({
    id: `id-${String(i + 1).padStart(2, '0')}`,
    title: `Item ${i + 1}`,
    description: `Description ${i + 1}`,
    owner_id: 'me',
  }));

const box = () => screen.getByRole('textbox', { name: 'Search' });
/** The list is up and has fetched its next page (once the browser is idle), the one read that is not a search. */
const nextPageFetched = (provider: ReturnType<typeof memoryProvider>, page: number) =>
  vi.waitFor(() =>
    expect(
      provider.getList.mock.calls.map(([, params]) => (params as { pagination: object }).pagination),
    ).toContainEqual({ page, perPage: 5 }),
  );
const lastFilter = (provider: ReturnType<typeof memoryProvider>) =>
  (provider.getList.mock.calls.at(-1)![1] as { filter: object }).filter;

describe('the search box', () => {
  it('shows the search the address holds', async () => {
    const provider = memoryProvider(seed(), { search: ['title'] });
    renderWithAdmin(<ItemList />, {
      path: `/items?filter=${encodeURIComponent(JSON.stringify({ q: 'Item 1' }))}`,
      dataProvider: provider,
    });
    expect(await screen.findByText('1–4 of 4')).toBeInTheDocument();
    expect(box()).toHaveValue('Item 1');
    expect(screen.getByRole('search')).toContainElement(box());
  });

  it('shows a search set from elsewhere, as when the address changes', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed(), { search: ['title'] });
    function Elsewhere() {
      const navigate = useNavigate();
      const filter = encodeURIComponent(JSON.stringify({ q: 'Item 12' }));
      return <button onClick={() => navigate(`/items?filter=${filter}`)}>elsewhere</button>;
    }
    renderWithAdmin(
      <>
        <ItemList />
        <Elsewhere />
      </>,
      { path: '/items', dataProvider: provider },
    );
    await screen.findByText('Item 1');
    expect(box()).toHaveValue('');
    await person.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(await screen.findByText('1–1 of 1')).toBeInTheDocument();
    expect(box()).toHaveValue('Item 12');
  });

  it('searches on Enter, once, from page 1', async () => {
    const provider = memoryProvider(seed(), { search: ['title'] });
    renderWithAdmin(<ItemList />, { path: '/items?page=2', dataProvider: provider });
    await screen.findByText('Item 6');
    await nextPageFetched(provider, 3);
    const person = userEvent.setup();
    const before = provider.getList.mock.calls.length;
    await person.type(box(), 'Item 1{Enter}');
    expect(await screen.findByText('1–4 of 4')).toBeInTheDocument();
    // The pause after typing passes too: Enter has already searched for that text.
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DELAY_MS + 100));
    const searches = provider.getList.mock.calls.slice(before).map(([, params]) => params as object);
    expect(searches).toEqual([
      expect.objectContaining({ filter: { q: 'Item 1' }, pagination: { page: 1, perPage: 5 } }),
    ]);
  });

  it('waits for typing to pause, then searches once for the whole text', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed(), { search: ['title'] });
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    await nextPageFetched(provider, 2);
    const before = provider.getList.mock.calls.length;
    await person.type(box(), 'Item 12');
    expect(await screen.findByText('1–1 of 1', {}, { timeout: 3000 })).toBeInTheDocument();
    const searches = provider.getList.mock.calls
      .slice(before)
      .map(([, params]) => (params as { filter: object }).filter);
    expect(searches).toEqual([{ q: 'Item 12' }]);
  });

  it('clears the search with its clear button', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed(), { search: ['title'] });
    renderWithAdmin(<ItemList />, {
      path: `/items?filter=${encodeURIComponent(JSON.stringify({ q: 'Item 1' }))}`,
      dataProvider: provider,
    });
    await screen.findByText('1–4 of 4');
    await person.click(screen.getByRole('button', { name: 'Clear value' }));
    expect(box()).toHaveValue('');
    expect(await screen.findByText('1–5 of 12')).toBeInTheDocument();
    expect(lastFilter(provider)).toEqual({});
    expect(screen.queryByRole('button', { name: 'Clear value' })).not.toBeInTheDocument();
  });
});
