import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import buildGraphQLProvider from 'ra-data-graphql';
import { buildSchema, introspectionFromSchema } from 'graphql';
import sdl from '../../../schema/schema.graphql?raw';
import { getToken } from '../api';
import { buildQuery } from './buildQuery';

/** The gateway's schema as committed in schema/: the app never asks the server for it. */
const schema = introspectionFromSchema(buildSchema(sdl)).__schema;

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
  defaultOptions: { query: { fetchPolicy: 'network-only' }, mutate: { fetchPolicy: 'no-cache' } },
});

export const graphqlProvider = buildGraphQLProvider({
  client,
  introspection: { schema },
  buildQuery,
});
