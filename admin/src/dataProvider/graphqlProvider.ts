import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import buildGraphQLProvider from 'ra-data-graphql';
import { getToken } from '../api';
import { buildQuery } from './buildQuery';

const client = new ApolloClient({
  link: new HttpLink({
    uri: '/graphql',
    fetch: (input, init) => {
      const token = getToken();
      const headers = new Headers(init?.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    },
  }),
  cache: new InMemoryCache(),
  defaultOptions: { query: { fetchPolicy: 'no-cache' }, mutate: { fetchPolicy: 'no-cache' } },
});

// The operations come from the schema's description, generated at build time: the server is never introspected.
// react-admin keeps the answers (its query cache): Apollo's own normalised cache would only cost each answer a write.
export const graphqlProvider = buildGraphQLProvider({
  client,
  introspection: false,
  buildQuery,
  query: () => ({ fetchPolicy: 'no-cache' }),
});
