import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { englishPagination, Pagination, portuguesePagination } from './Pagination';
import { parsePage } from './usePage';

describe('Pagination', () => {
  it('labels Previous, Page N and Next on items', () => {
    const onChange = vi.fn();
    render(<Pagination page={2} hasPrevious hasNext onChange={onChange} labels={englishPagination} />);
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChange).toHaveBeenLastCalledWith(3);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onChange).toHaveBeenLastCalledWith(1);
  });

  it('labels Anterior, Página N and Próximo on clients and users, disabled at the ends', () => {
    render(
      <Pagination page={1} hasPrevious={false} hasNext={false} onChange={() => {}} labels={portuguesePagination} />,
    );
    expect(screen.getByText('Página 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Próximo' })).toBeDisabled();
  });
});

describe('the page in the address', () => {
  it('reads a whole number from 1 up, anything else is page 1', () => {
    expect(parsePage('3')).toBe(3);
    for (const invalid of [null, '', '0', '-1', 'abc', '1.5', '2x', '99999999999999999999']) {
      expect(parsePage(invalid)).toBe(1);
    }
  });
});
