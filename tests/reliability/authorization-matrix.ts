/**
 * Who may call what: every REST route and every GraphQL operation against eight kinds of caller.
 * A cell is the HTTP status a REST call answers, or the `extensions.status` of a GraphQL error (200: success).
 * authorization.test.ts generates one check per cell and fails when a route or operation is missing here.
 */
export const CALLERS = [
  'anonymous', // no Authorization header
  'user', // an ordinary, active user
  'superuser',
  'inactive', // a token of a user who is inactive
  'deleted', // a token of a user who was deleted since
  'expired', // a token past its `exp`
  'otherKey', // a token signed with another key
  'beforePasswordChange', // a token issued before its user changed their password
] as const;
export type CallerKind = (typeof CALLERS)[number];

export interface MatrixRow {
  api: 'REST' | 'GraphQL';
  /** `METHOD /path` below /api/v1, or `query name` / `mutation name`; a note in parentheses tells variants apart. */
  operation: string;
  expected: Record<CallerKind, number>;
  /** The detail of a 403 (or 409) answered to a signed-in user or superuser, when it is not about superuser privileges. */
  forbidden?: string;
  /** The detail of every refusal, when it is not about the caller's session (a webhook's signature). */
  refused?: string;
}

const NOT_YOURS = 'Not enough permissions';
const NOT_CONNECTED = 'Missing the Nuvemshop store id';
const SUPERUSER_SELF = 'Super users are not allowed to delete themselves';
/** The fixture's order was sent: neither resent nor marked sent by anyone. */
const NOT_SENDABLE = 'Order cannot be sent in its state';
const NOT_UNCERTAIN = 'Order cannot be marked sent in its state';
/** Webhooks are public: whoever calls, only the signature decides. */
const SIGNATURE = 'Invalid signature';
const ANYONE = [200, 200, 200, 200, 200, 200, 200, 200];
const NO_ONE = [401, 401, 401, 401, 401, 401, 401, 401];

// prettier-ignore
const TABLE: [string, number[], string?, string?][] = [
  //                                                   anon user super inact del  exp  key  before
  ['REST POST /login/access-token',                    [200, 200, 200, 200, 200, 200, 200, 200]],
  ['REST POST /login/test-token',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST POST /password-recovery/{email}',             [200, 200, 200, 200, 200, 200, 200, 200]],
  ['REST POST /reset-password/',                       [200, 200, 200, 200, 200, 200, 200, 200]],
  ['REST POST /password-recovery-html-content/{email}',[401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /users/',                                 [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST POST /users/',                                [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /users/me',                               [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST PATCH /users/me',                             [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST PATCH /users/me/password',                    [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST DELETE /users/me',                            [401, 200, 403, 400, 403, 403, 403, 403], SUPERUSER_SELF],
  ['REST POST /users/signup',                          [200, 200, 200, 200, 200, 200, 200, 200]],
  ['REST GET /users/{id} (another user)',              [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /users/{id} (own)',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST PATCH /users/{id}',                           [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST DELETE /users/{id}',                          [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /items/',                                 [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST POST /items/',                                [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /items/{id} (another user\'s)',           [401, 403, 200, 400, 403, 403, 403, 403], NOT_YOURS],
  ['REST GET /items/{id} (own)',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST PUT /items/{id} (another user\'s)',           [401, 403, 200, 400, 403, 403, 403, 403], NOT_YOURS],
  ['REST PUT /items/{id} (own)',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST DELETE /items/{id} (another user\'s)',        [401, 403, 200, 400, 403, 403, 403, 403], NOT_YOURS],
  ['REST DELETE /items/{id} (own)',                    [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /clients/',                               [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST POST /clients/',                              [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /clients/{id}',                           [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST PUT /clients/{id}',                           [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST DELETE /clients/{id}',                        [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST POST /clients/{id}/sync',                     [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['REST GET /sync-runs/',                             [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /sync-runs/{id}',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /client-health/',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /client-health/{id}',                     [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /activity/',                              [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /divergences/',                           [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /divergences/{id}',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /product-links/',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /product-links/{id}',                     [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /orders/',                                [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /orders/{id}',                            [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST POST /orders/{id}/resend',                    [401, 409, 409, 400, 403, 403, 403, 403], NOT_SENDABLE],
  ['REST POST /orders/{id}/mark-sent',                 [401, 409, 409, 400, 403, 403, 403, 403], NOT_UNCERTAIN],
  ['REST POST /clients/{id}/orders/sweep',             [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['REST GET /locations/',                             [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /locations/{id}',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST PUT /locations/{id}',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST DELETE /locations/{id}',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST POST /locations/{id}/default',                [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['REST POST /clients/{id}/locations/read',           [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['REST PUT /clients/{id}/locations/priorities',      [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['REST GET /stock-movements/',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /stock-movements/{id}',                   [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /audit-events/',                          [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /audit-events/{id}',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /mail-jobs/',                             [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /mail-jobs/{id}',                         [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST POST /callback/authorize',                    [200, 200, 200, 200, 200, 200, 200, 200]],
  ['REST GET /webhook-events/',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /webhook-events/{id}',                     [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /archived-clients/',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /archived-clients/{id}',                  [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST POST /clients/{id}/restore',                  [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST POST /clients/{id}/purge',                    [401, 403, 200, 400, 403, 403, 403, 403]],
  ['REST GET /webhook-days/',                           [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST GET /webhook-days/{id}',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['REST POST /webhooks/nuvemshop (signed)',            ANYONE],
  ['REST POST /webhooks/nuvemshop (wrong signature)',   NO_ONE, undefined, SIGNATURE],
  ['REST POST /webhooks/nuvemshop/store-redact (signed)',                   ANYONE],
  ['REST POST /webhooks/nuvemshop/store-redact (wrong signature)',          NO_ONE, undefined, SIGNATURE],
  ['REST POST /webhooks/nuvemshop/customers-redact (signed)',               ANYONE],
  ['REST POST /webhooks/nuvemshop/customers-redact (wrong signature)',      NO_ONE, undefined, SIGNATURE],
  ['REST POST /webhooks/nuvemshop/customers-data-request (signed)',         ANYONE],
  ['REST POST /webhooks/nuvemshop/customers-data-request (wrong signature)',NO_ONE, undefined, SIGNATURE],
  ['REST GET /utils/health-check/',                    [200, 200, 200, 200, 200, 200, 200, 200]],
  ['REST GET /openapi.json',                           [200, 200, 200, 200, 200, 200, 200, 200]],

  ['GraphQL query me',                                 [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allUsers',                           [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allUsersMeta',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query User (another user)',                [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query User (own)',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allItems',                           [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allItemsMeta',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query Item (another user\'s)',             [401, 403, 200, 400, 403, 403, 403, 403], NOT_YOURS],
  ['GraphQL query Item (own)',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allClients',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allClientsMeta',                    [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query Client',                             [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allSyncRuns',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allSyncRunsMeta',                   [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query SyncRun',                            [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allClientHealths',                   [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allClientHealthsMeta',              [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query ClientHealth',                       [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query dailyActivity',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allDivergences',                     [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allDivergencesMeta',                [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query Divergence',                         [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allProductLinks',                    [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allProductLinksMeta',               [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query ProductLink',                        [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allOrders',                          [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allOrdersMeta',                     [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query Order',                              [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation resendOrder',                     [401, 409, 409, 400, 403, 403, 403, 403], NOT_SENDABLE],
  ['GraphQL mutation markOrderSent',                   [401, 409, 409, 400, 403, 403, 403, 403], NOT_UNCERTAIN],
  ['GraphQL mutation sweepOrders',                     [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['GraphQL mutation syncClient',                      [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['GraphQL query registration',                      [200, 200, 200, 200, 200, 200, 200, 200]],
  ['GraphQL query allLocations',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allLocationsMeta',                  [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query Location',                           [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation updateLocation',                  [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation deleteLocation',                  [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation setDefaultLocation',              [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['GraphQL mutation readStoreLocations',              [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['GraphQL mutation setLocationPriorities',           [401, 409, 409, 400, 403, 403, 403, 403], NOT_CONNECTED],
  ['GraphQL query allStockMovements',                  [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allStockMovementsMeta',             [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query StockMovement',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allAuditEvents',                     [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allAuditEventsMeta',                [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query AuditEvent',                         [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allMailJobs',                        [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allMailJobsMeta',                   [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query MailJob',                            [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allWebhookEvents',                    [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allWebhookEventsMeta',               [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query WebhookEvent',                        [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allArchivedClients',                  [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allArchivedClientsMeta',             [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query ArchivedClient',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation restoreClient',                    [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation purgeClient',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query allWebhookDays',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query _allWebhookDaysMeta',                 [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL query WebhookDay',                          [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation login',                           [200, 200, 200, 200, 200, 200, 200, 200]],
  ['GraphQL mutation signup',                          [200, 200, 200, 200, 200, 200, 200, 200]],
  ['GraphQL mutation recoverPassword',                 [200, 200, 200, 200, 200, 200, 200, 200]],
  ['GraphQL mutation resetPassword',                   [200, 200, 200, 200, 200, 200, 200, 200]],
  ['GraphQL mutation authorizeCallback',               [200, 200, 200, 200, 200, 200, 200, 200]],
  ['GraphQL mutation updateMe',                        [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation updatePassword',                  [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation deleteMe',                        [401, 200, 403, 400, 403, 403, 403, 403], SUPERUSER_SELF],
  ['GraphQL mutation createUser',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation updateUser',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation deleteUser',                      [401, 403, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation createItem',                      [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation updateItem (another user\'s)',    [401, 403, 200, 400, 403, 403, 403, 403], NOT_YOURS],
  ['GraphQL mutation updateItem (own)',                [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation deleteItem (another user\'s)',    [401, 403, 200, 400, 403, 403, 403, 403], NOT_YOURS],
  ['GraphQL mutation deleteItem (own)',                [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation createClient',                    [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation updateClient',                    [401, 200, 200, 400, 403, 403, 403, 403]],
  ['GraphQL mutation deleteClient',                    [401, 200, 200, 400, 403, 403, 403, 403]],
];

export const MATRIX: MatrixRow[] = TABLE.map(([name, statuses, forbidden, refused]) => {
  const [api, ...rest] = name.split(' ');
  return {
    api: api as MatrixRow['api'],
    operation: rest.join(' '),
    expected: Object.fromEntries(CALLERS.map((caller, i) => [caller, statuses[i]])) as Record<CallerKind, number>,
    forbidden,
    refused,
  };
});

/** The operation without its variant note: `GET /items/{id}`, `query Item`. */
export const operationName = (row: MatrixRow) => row.operation.replace(/\s*\(.*\)$/, '');
