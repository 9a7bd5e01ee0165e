import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { answeredPrefetches } from './dataProvider/load';

const queryClient = new QueryClient();

// A list page the start already has (preload.ts) goes into react-admin's query cache under the key its list reads
// (useGetList: resource, 'getList', its parameters), so the list's first pass shows the rows. The list still asks
// again on mounting, as react-admin does for data it did not fetch itself, and gets the same answer (claimPrefetched),
// not a second request.
for (const { resource, params, answer } of answeredPrefetches()) {
  queryClient.setQueryData([resource, 'getList', params], answer);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
