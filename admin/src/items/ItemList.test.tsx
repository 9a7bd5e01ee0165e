import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import ItemList from './ItemList';

const items = Array.from({ length: 12 }, (_, i) => ({
  id: `id-${i + 1}`,
  title: `Item ${i + 1}`,
  description: i === 0 ? null : `Description ${i + 1}`,
  owner_id: 'me',
}));

function fakeProvider(delay = 0) {
  return {
    getList: vi.fn(async (_resource: string, params: { pagination: { page: number; perPage: number } }) => {
      if (delay) await new Promise((r) => setTimeout(r, delay));
      const { page, perPage } = params.pagination;
      return { data: items.slice((page - 1) * perPage, page * perPage), total: items.length };
    }),
  };
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Items' }))
    .getAllByRole('row')
    .slice(1);

describe('ItemList', () => {
  it('shows 4 placeholder rows while loading, then 5 rows a page', async () => {
    const provider = fakeProvider(50);
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    expect(screen.getAllByTestId('placeholder-row')).toHaveLength(4);
    await screen.findByText('Item 1');
    expect(rows()).toHaveLength(5);
    expect(screen.getByText('N/A')).toBeInTheDocument();
    expect(screen.getByText('Page 1')).toBeInTheDocument();
  });

  it('reads the page from ?page=N and prefetches the next page when this one is full', async () => {
    const provider = fakeProvider();
    renderWithAdmin(<ItemList />, { path: '/items?page=2', dataProvider: provider });
    await screen.findByText('Item 6');
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    await waitFor(() =>
      expect(provider.getList).toHaveBeenCalledWith(
        'items',
        expect.objectContaining({ pagination: { page: 3, perPage: 5 } }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Item 11');
    expect(screen.getByText('Page 3')).toBeInTheDocument();
    expect(rows()).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    // The last page is not full: nothing after it is asked for.
    expect(provider.getList).not.toHaveBeenCalledWith(
      'items',
      expect.objectContaining({ pagination: { page: 4, perPage: 5 } }),
    );
  });

  it('treats an invalid page as page 1', async () => {
    renderWithAdmin(<ItemList />, { path: '/items?page=abc', dataProvider: fakeProvider() });
    await screen.findByText('Item 1');
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it('keeps the previous rows, dimmed, while the next page loads', async () => {
    let release: () => void = () => {};
    const provider = {
      getList: vi.fn(async (_resource: string, params: { pagination: { page: number; perPage: number } }) => {
        const { page, perPage } = params.pagination;
        if (page === 2) await new Promise<void>((resolve) => (release = resolve));
        return { data: items.slice((page - 1) * perPage, page * perPage), total: items.length };
      }),
    };
    renderWithAdmin(<ItemList />, { path: '/items', dataProvider: provider });
    await screen.findByText('Item 1');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2')).toBeInTheDocument());
    expect(screen.getByText('Item 1').closest('tr')).toHaveStyle({ opacity: '0.5' });
    expect(screen.queryAllByTestId('placeholder-row')).toHaveLength(0);
    release();
    await screen.findByText('Item 6');
    expect(screen.getByText('Item 6').closest('tr')).toHaveStyle({ opacity: '1' });
  });
});
