import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The explorer is bundled with the admin, so it works offline. The admin's stored token is
// offered as the Authorization header; edit it in the Headers tab to call as someone else.
const token = localStorage.getItem('access_token');
const fetcher = createGraphiQLFetcher({ url: '/graphql' });
const defaultQuery = `# Sistema de Integração GraphQL API.
# Sign in with the login mutation, then put the token in the Headers tab:
# { "Authorization": "Bearer <access_token>" }
query Clients {
  allClients(page: 0, perPage: 5) {
    id
    url
    nuvemshop_store_id
  }
  _allClientsMeta {
    count
  }
}
`;

createRoot(document.getElementById('graphiql')!).render(
  <StrictMode>
    <GraphiQL
      fetcher={fetcher}
      defaultQuery={defaultQuery}
      defaultHeaders={token ? JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2) : undefined}
      shouldPersistHeaders
    />
  </StrictMode>,
);
