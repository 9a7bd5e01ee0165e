/** Clients made so far by the scenarios: each takes a URL of its own. */
let made = 0;
/** The client fields the GraphQL scenarios select. */
export const CLIENT_FIELDS =
  'id url nuvemshop_store_id hiper_token nuvemshop_token hiper_sync_update_image hiper_sync_update_dimensions';

export const LIST_QUERY =
  'query ClientList($page: Int, $perPage: Int) { ' +
  `items: allClients(page: $page, perPage: $perPage) { ${CLIENT_FIELDS} } ` +
  'total: _allClientsMeta(page: $page, perPage: $perPage) { count } }';
export const GET_QUERY = `query ClientById($id: ID!) { data: Client(id: $id) { ${CLIENT_FIELDS} } }`;

export const PAGE_SIZE = 100;
/** The admin's page size (admin/src/crud/listAddress.ts). */
export const ADMIN_PAGE_SIZE = 5;

const json = { 'content-type': 'application/json' };

export const restList = (skip, limit = PAGE_SIZE) => ({ path: `/api/v1/clients/?skip=${skip}&limit=${limit}` });
export const graphqlList = (perPage = PAGE_SIZE) => ({
  method: 'POST',
  path: '/graphql',
  headers: json,
  body: JSON.stringify({ operationName: 'ClientList', query: LIST_QUERY, variables: { page: 0, perPage } }),
});

/**
 * The benchmarked requests. Each has a fixed form (`path`, `method`, `headers`, `body`) for one-off requests,
 * and where requests differ from one another, `next()` making the n-th one (ids to read, urls to create,
 * users to sign in) and `setup` feeding them to autocannon.
 */
export function scenarios({ token, ids, deepSkip, users, password, tag }) {
  const auth = { authorization: `Bearer ${token}` };
  let readIndex = 0;
  let created = 0;
  let signIn = 0;
  const varying = (make) => ({
    ...make(0),
    next: make,
    setup: (req) => ({ ...req, ...make(readIndex++) }),
  });
  const login = (n) => ({
    method: 'POST',
    path: '/api/v1/login/access-token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: users[n % users.length], password }).toString(),
  });
  const create = (n) => ({
    method: 'POST',
    path: '/api/v1/clients/',
    headers: { ...auth, ...json },
    body: JSON.stringify({
      // A URL is one client's: every request made, by either server's run, names its own.
      url: `https://created-${tag}-${n}-${++made}.bench.example`,
      hiper_token: `hiper-token-${n}`,
      nuvemshop_token: `nuvemshop-token-${tag}-${n}`,
      hiper_sync_update_image: true,
      hiper_sync_update_dimensions: false,
    }),
  });
  return [
    // What the admin asks for: pages of 5.
    {
      key: 'restList5',
      name: `REST list page 1 (${ADMIN_PAGE_SIZE} rows)`,
      request: { ...restList(0, ADMIN_PAGE_SIZE), headers: auth },
      comparable: true,
    },
    {
      key: 'graphqlList5',
      name: `GraphQL allClients + _allClientsMeta page 1 (${ADMIN_PAGE_SIZE} rows)`,
      request: { ...graphqlList(ADMIN_PAGE_SIZE), headers: { ...auth, ...json } },
      comparable: true,
    },
    { key: 'restList', name: 'REST list page 1', request: { ...restList(0), headers: auth }, comparable: true },
    {
      key: 'restListDeep',
      name: `REST list at skip ${deepSkip.toLocaleString('en')}`,
      request: { ...restList(deepSkip), headers: auth },
      comparable: true,
    },
    {
      key: 'restGet',
      name: 'REST get by id',
      request: varying((n) => ({ path: `/api/v1/clients/${ids[n % ids.length]}`, headers: auth })),
      comparable: true,
    },
    {
      key: 'graphqlList',
      name: 'GraphQL allClients + _allClientsMeta page 1',
      request: { ...graphqlList(), headers: { ...auth, ...json } },
      comparable: true,
    },
    {
      key: 'graphqlGet',
      name: 'GraphQL Client by id',
      request: varying((n) => ({
        method: 'POST',
        path: '/graphql',
        headers: { ...auth, ...json },
        body: JSON.stringify({ operationName: 'ClientById', query: GET_QUERY, variables: { id: ids[n % ids.length] } }),
      })),
      comparable: true,
    },
    {
      key: 'login',
      name: 'Login (bcrypt)',
      request: { ...login(0), next: login, setup: (req) => ({ ...req, ...login(signIn++) }) },
      login: true,
    },
    {
      key: 'restCreate',
      name: 'REST create',
      request: { ...create(0), next: create, setup: (req) => ({ ...req, ...create(++created) }) },
      writes: true,
    },
  ];
}
