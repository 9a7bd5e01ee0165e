import {
  NetworkStatus,
  type ApolloCache,
  type ApolloClient,
  type ApolloQueryResult,
  type DefaultContext,
  type FetchResult,
  type MutationOptions,
  type OperationVariables,
  type QueryOptions,
} from '@apollo/client';
import buildGraphQLProvider from 'ra-data-graphql';
import { graphql } from '../api';
import { buildQuery, textOf } from './buildQuery';
import { runRequest } from './operations';
import { actionRequest, type ActionParams } from './writeOperations';

/** ra-data-graphql passes react-admin's signal in Apollo's context, as Apollo's HTTP link reads it. */
const signalOf = (context: DefaultContext | undefined): AbortSignal | undefined =>
  (context?.fetchOptions as { signal?: AbortSignal } | undefined)?.signal;

/**
 * The client ra-data-graphql sends its operations with: the admin's one GraphQL transport (api.ts), which the start's
 * early read uses too, so every operation has the same headers, the same errors and no second cache (react-admin's
 * query cache keeps the answers). With introspection off, ra-data-graphql calls nothing but `query` and `mutate`.
 */
const client: Pick<ApolloClient<unknown>, 'query' | 'mutate'> = {
  async query<T, V extends OperationVariables>(options: QueryOptions<V, T>): Promise<ApolloQueryResult<T>> {
    const data = await graphql<T, V>(textOf(options.query), options.variables, signalOf(options.context));
    return { data, loading: false, networkStatus: NetworkStatus.ready };
  },
  async mutate<T, V extends OperationVariables, C extends DefaultContext, Cache extends ApolloCache<unknown>>(
    options: MutationOptions<T, V, C, Cache>,
  ): Promise<FetchResult<T>> {
    return { data: await graphql<T, V>(textOf(options.mutation), options.variables) };
  },
};

// The operations come from the schema's description, generated at build time: the server is never introspected.
export const graphqlProvider = buildGraphQLProvider({
  client: client as ApolloClient<unknown>,
  introspection: false,
  buildQuery,
});

/**
 * A record action (writeOperations.ts actionRequest), which ra-data-graphql has no method for: its request over the
 * same transport, answered through its parseResponse, as ra-data-graphql answers the others.
 */
export const recordAction = (params: ActionParams): Promise<{ data: unknown }> => runRequest(actionRequest(params));
