import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, memoryStore, type AuthProvider, type DataProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { i18nProvider } from './i18n';
import { BottomRightNotification } from './layout/Toast';

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
        <BottomRightNotification />
      </AdminContext>
    </MemoryRouter>,
  );
}
