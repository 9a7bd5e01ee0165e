import { vi } from 'vitest';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, memoryStore, type AuthProvider, type DataProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { i18nProvider } from './i18n';
import { Toasts } from './layout/Toasts';

/** Renders a screen inside react-admin's contexts, at an address, with a stand-in data provider. */
export function renderWithAdmin(
  ui: ReactNode,
  {
    path = '/',
    dataProvider,
    authProvider,
  }: { path?: string; dataProvider?: object; authProvider?: Partial<AuthProvider> } = {},
) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext
        dataProvider={dataProvider as unknown as DataProvider}
        i18nProvider={i18nProvider}
        store={memoryStore()}
        authProvider={{
          login: async () => undefined,
          logout: async () => undefined,
          checkAuth: async () => undefined,
          checkError: async () => undefined,
          getIdentity: async () => ({ id: 'me', email: 'me@example.com', fullName: 'Me', is_superuser: true }),
          ...authProvider,
        }}
      >
        {ui}
        <Toasts />
      </AdminContext>
    </MemoryRouter>,
  );
}

type Row = { id: string } & Record<string, unknown>;
interface ListParams {
  pagination: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: { q?: string };
}

/**
 * A stand-in data provider over rows in memory, answering as the gateway does: `q` searches the given fields, a
 * sort orders them, pages are cut; every method is a spy. `delay` holds each answer that long (ms).
 */
export function memoryProvider(initial: Row[], { search = [] as string[], delay = 0 } = {}) {
  let rows = [...initial];
  const wait = () => (delay ? new Promise((resolve) => setTimeout(resolve, delay)) : Promise.resolve());
  const list = (params: ListParams) => {
    const q = params.filter?.q?.toLowerCase();
    let found = q
      ? rows.filter((row) =>
          search.some((field) =>
            String(row[field] ?? '')
              .toLowerCase()
              .includes(q),
          ),
        )
      : rows;
    const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
    if (field !== 'id') {
      found = [...found].sort(
        (a, b) => String(a[field] ?? '').localeCompare(String(b[field] ?? '')) * (order === 'DESC' ? -1 : 1),
      );
    }
    return found;
  };
  return {
    rows: () => rows,
    getList: vi.fn(async (_resource: string, params: ListParams) => {
      await wait();
      const found = list(params);
      const { page, perPage } = params.pagination;
      return { data: found.slice((page - 1) * perPage, page * perPage), total: found.length };
    }),
    getOne: vi.fn(async (_resource: string, params: { id: string }) => {
      await wait();
      return { data: rows.find((row) => row.id === params.id) };
    }),
    create: vi.fn(async (_resource: string, params: { data: Record<string, unknown> }) => {
      const row = { id: `new-${rows.length + 1}`, ...params.data };
      rows = [...rows, row];
      return { data: row };
    }),
    update: vi.fn(async (_resource: string, params: { id: string; data: Record<string, unknown> }) => {
      rows = rows.map((row) => (row.id === params.id ? { ...row, ...params.data } : row));
      return { data: rows.find((row) => row.id === params.id) };
    }),
    delete: vi.fn(async (_resource: string, params: { id: string }) => {
      const row = rows.find((r) => r.id === params.id);
      rows = rows.filter((r) => r.id !== params.id);
      return { data: row };
    }),
    deleteMany: vi.fn(async (_resource: string, params: { ids: string[] }) => {
      rows = rows.filter((r) => !params.ids.includes(r.id));
      return { data: params.ids };
    }),
  };
}
